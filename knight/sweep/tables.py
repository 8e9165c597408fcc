"""Aggregates of a runs table, as polars lazy queries (one board or many).

Every aggregate takes the runs (columns ``rows, cols, start, order, visited, end,
complete, closed, ties``, e.g. from :func:`knight.sweep.run`) as a ``LazyFrame`` and
returns a ``LazyFrame`` (nothing collected), or as a ``DataFrame`` and returns a
``DataFrame``. Squares appear both as indices and 1-based ``row``/``col``.

Boards are never mixed: :func:`completion` and :func:`starts` group by board;
:func:`orders` and :func:`ends` answer for one board (a symmetry class id and the list
of squares belong to one board), the runs' only board or the one ``board=`` names
(``8``, ``"6x8"`` or a :class:`Board`), and refuse runs of several boards without
``board=``, or a ``board=`` the runs do not hold, in one line naming the boards. A
frame without the columns an aggregate reads is refused in one line naming them
(:func:`classes` takes :func:`orders`'s table, not runs). These checks read the
frame's schema and, for the board, the distinct ``rows, cols`` pairs (one lazy query
of two columns); nothing else is collected.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from knight.core.board import Board
from knight.core.checks import board_arg
from knight.core.frames import need_columns, same_kind, square_coords
from knight.core.orders import order_strings
from knight.core.symmetry import group
from knight.engine.runs_table import RUNS_SCHEMA

#: Names of the aggregate tables, in the order they are documented.
TABLES = ("completion", "orders", "starts", "classes", "ends")

_BOARD_KEYS = ["rows", "cols"]
#: Columns of a runs table that the aggregates read (a table without ``start`` is not runs).
_RUNS_READ = ("rows", "cols", "start", "order", "end", "complete", "closed")
#: Columns of :func:`orders`'s table that :func:`classes` reads.
_ORDERS_READ = ("rows", "cols", "class_id", "order_string", "complete", "closed", "complete_all")


class SymmetryError(AssertionError):
    """Orders of one symmetry class disagree: a bug in an engine or in the symmetry tables."""


def scan_runs(paths: str | Sequence[str]) -> pl.LazyFrame:
    """The runs table of Parquet files, lazily.

    Parameters
    ----------
    paths : str or Sequence of str
        A glob (``"results/runs/**/*.parquet"``) or a list of paths.

    Returns
    -------
    polars.LazyFrame
        The runs table's columns (``rows, cols, start, order, visited, end, complete,
        closed, ties``), in that order; the files are not verified (:func:`knight.scan` verifies).
    """
    return pl.scan_parquet(paths, hive_partitioning=False).select(RUNS_SCHEMA.names)


def order_catalogue(board: Board) -> pl.LazyFrame:
    """Every tie order of a board: its rank, its string and its symmetry class.

    Parameters
    ----------
    board : Board
        The board whose symmetries define the classes.

    Returns
    -------
    polars.LazyFrame
        40,320 rows, by rank: ``order`` (rank), ``order_string`` (``"12345678"``),
        ``class_id`` (the order's symmetry class on ``board``).
    """
    return pl.LazyFrame(
        {
            "order": np.arange(40320, dtype=np.uint16),
            "order_string": order_strings(),
            "class_id": group(board).class_ids().astype(np.uint16),
        }
    )


@same_kind
def completion(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per board: runs, complete and closed tours, and their rates.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per board (``rows, cols``, smallest first): ``runs``, ``complete``,
        ``closed``, ``completion_rate`` and ``closed_rate`` (fractions of ``runs``).

    Raises
    ------
    ValueError
        ``runs`` lacks a column it reads, named in one line.

    See Also
    --------
    orders, starts, ends, board_tables

    Examples
    --------
    >>> import knight
    >>> runs = knight.sweep.run(6, orders=["12345678", "87654321"])
    >>> completion(runs).select("runs", "complete", "closed").rows()
    [(72, 70, 14)]
    """
    need_columns(runs, _RUNS_READ, "completion", "a runs table")
    return (
        runs.group_by(_BOARD_KEYS)
        .agg(
            pl.len().cast(pl.UInt64).alias("runs"),
            pl.col("complete").sum().cast(pl.UInt64).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt64).alias("closed"),
        )
        .with_columns(
            (pl.col("complete") / pl.col("runs")).alias("completion_rate"),
            (pl.col("closed") / pl.col("runs")).alias("closed_rate"),
        )
        .sort(_BOARD_KEYS)
    )


@same_kind
def orders(runs: pl.LazyFrame, board: Board | int | str | None = None) -> pl.LazyFrame:
    """Per tie order of one board: its outcome over the starts run (the thesis's table 58).

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.
    board : int, str, Board or None
        ``8``, ``"6x8"`` or a :class:`~knight.Board`: the board whose runs are counted;
        None for the runs' only board.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per order run, by rank: ``rows, cols, order, order_string, class_id``,
        ``starts`` (starts run), ``complete`` and ``closed`` (tours from them) and
        ``complete_all`` (a complete tour from every start run).

    Raises
    ------
    ValueError
        Runs of several boards and no ``board``, a ``board`` the runs do not hold, or a
        missing column, in one line naming them.

    See Also
    --------
    classes : The same per symmetry class.
    board_runs : How the board is chosen.

    Examples
    --------
    >>> import knight, polars as pl
    >>> two = pl.concat([knight.sweep.run(b, orders=["12345678"]) for b in (5, "3x7")])
    >>> orders(two, board="3x7").select("rows", "cols", "starts", "complete").rows()
    [(3, 7, 21, 6)]
    >>> orders(two)
    Traceback (most recent call last):
    ValueError: runs hold boards 3x7, 5x5: give board= one of them, or filter the runs to one board
    """
    runs, board = board_runs(runs, board)
    return _orders(runs, board)


def _orders(runs: pl.LazyFrame, board: Board) -> pl.LazyFrame:
    """:func:`orders` of runs known to hold ``board`` only."""
    return (
        runs.group_by([*_BOARD_KEYS, "order"])
        .agg(
            pl.len().cast(pl.UInt32).alias("starts"),
            pl.col("complete").sum().cast(pl.UInt32).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt32).alias("closed"),
        )
        .join(order_catalogue(board), on="order", how="left")
        .with_columns((pl.col("complete") == pl.col("starts")).alias("complete_all"))
        .select([*_BOARD_KEYS, "order", "order_string", "class_id", "starts", "complete", "closed", "complete_all"])
        .sort([*_BOARD_KEYS, "order"])
    )


@same_kind
def starts(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per start square: the tie orders run from it and their outcome (the thesis's table 59).

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (board, start): ``rows, cols, start``, ``row`` and ``col``
        (1-based), ``orders`` (run), ``complete``, ``failing`` (``orders - complete``), ``closed``.

    Raises
    ------
    ValueError
        ``runs`` lacks a column it reads, named in one line.
    """
    need_columns(runs, _RUNS_READ, "starts", "a runs table")
    return (
        runs.group_by([*_BOARD_KEYS, "start"])
        .agg(
            pl.len().cast(pl.UInt32).alias("orders"),
            pl.col("complete").sum().cast(pl.UInt32).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt32).alias("closed"),
        )
        .with_columns((pl.col("orders") - pl.col("complete")).alias("failing"), *square_coords("start"))
        .select([*_BOARD_KEYS, "start", "row", "col", "orders", "complete", "failing", "closed"])
        .sort([*_BOARD_KEYS, "start"])
    )


@same_kind
def classes(order_table: pl.LazyFrame) -> pl.LazyFrame:
    """Per symmetry class of tie orders: its members and whether they agree.

    Parameters
    ----------
    order_table : polars.LazyFrame or polars.DataFrame
        The table of :func:`orders` (one row per order), not runs.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per class: ``rows, cols, class_id``, ``class_string`` (its first
        member), ``size``, ``members`` (space-separated), ``complete``, ``closed`` and
        ``complete_all`` (of its first member) and ``agree`` (all members count alike).

    Raises
    ------
    ValueError
        ``order_table`` is a runs table, or lacks a column it reads.

    Examples
    --------
    >>> import knight
    >>> classes(knight.sweep.run(5, orders=["12345678"]))
    Traceback (most recent call last):
    ValueError: classes needs the table of orders(runs), one row per order, not runs: call classes(orders(runs))
    """
    if "start" in order_table.collect_schema().names():
        raise ValueError(
            "classes needs the table of orders(runs), one row per order, not runs: call classes(orders(runs))"
        )
    need_columns(order_table, _ORDERS_READ, "classes", "the table of orders(runs)")
    return (
        order_table.group_by([*_BOARD_KEYS, "class_id"])
        .agg(
            pl.col("order_string").sort().str.join(" ").alias("members"),
            pl.len().cast(pl.UInt8).alias("size"),
            pl.col("complete").first().alias("complete"),
            pl.col("closed").first().alias("closed"),
            pl.col("complete_all").first().alias("complete_all"),
            ((pl.col("complete").n_unique() == 1) & (pl.col("closed").n_unique() == 1)).alias("agree"),
        )
        .with_columns(
            pl.col("members").str.slice(0, 8).alias("class_string"),
        )
        .select(
            [*_BOARD_KEYS, "class_id", "class_string", "size", "members", "complete", "closed", "complete_all", "agree"]
        )
        .sort([*_BOARD_KEYS, "class_id"])
    )


@same_kind
def ends(runs: pl.LazyFrame, board: Board | int | str | None = None) -> pl.LazyFrame:
    """Per square of one board: complete and closed tours ending there.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.
    board : int, str, Board or None
        ``8``, ``"6x8"`` or a :class:`~knight.Board`: the board whose runs are counted;
        None for the runs' only board.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per square, by index: ``rows, cols, end``, ``row`` and ``col``
        (1-based), ``complete`` and ``closed`` (tours ending there).

    Raises
    ------
    ValueError
        As :func:`orders` refuses.
    """
    runs, board = board_runs(runs, board)
    return _ends(runs, board)


def _ends(runs: pl.LazyFrame, board: Board) -> pl.LazyFrame:
    """:func:`ends` of runs known to hold ``board`` only."""
    squares = pl.LazyFrame(
        {
            "rows": np.full(board.size, board.rows, np.uint16),
            "cols": np.full(board.size, board.cols, np.uint16),
            "end": np.arange(board.size, dtype=np.uint32),
        }
    )
    counts = (
        runs.filter(pl.col("complete"))
        .group_by([*_BOARD_KEYS, "end"])
        .agg(
            pl.len().cast(pl.UInt32).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt32).alias("closed"),
        )
    )
    return (
        squares.join(counts, on=[*_BOARD_KEYS, "end"], how="left")
        .with_columns(pl.col("complete", "closed").fill_null(0), *square_coords("end"))
        .select([*_BOARD_KEYS, "end", "row", "col", "complete", "closed"])
        .sort([*_BOARD_KEYS, "end"])
    )


def run_boards(runs: pl.LazyFrame) -> list[Board]:
    """The distinct boards of a runs table (one lazy query of ``rows, cols``).

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Rows with ``rows`` and ``cols`` columns.

    Returns
    -------
    list of Board
        Smallest first (by rows, then columns).
    """
    sizes = runs.select(_BOARD_KEYS).unique().sort(_BOARD_KEYS).collect().rows()
    return [Board(int(r), int(c)) for r, c in sizes]


def one_board(runs: pl.LazyFrame) -> Board:
    """The one board of a runs table.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.

    Returns
    -------
    Board
        The runs' only board.

    Raises
    ------
    ValueError
        The runs hold several boards or none, named in one line.
    """
    return board_runs(runs)[1]


def board_runs(runs: pl.LazyFrame, board=None) -> tuple[pl.LazyFrame, Board]:
    """The runs of one board, and that board.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.
    board : int, str, Board or None
        ``8``, ``"6x8"`` or a :class:`~knight.Board`: the board whose runs are counted;
        None for the runs' only board.

    Returns
    -------
    runs : polars.LazyFrame
        The runs of the board.
    board : Board
        The board.

    Raises
    ------
    ValueError
        A ``board`` the runs do not hold (naming both), runs of several boards or none
        without ``board`` (naming those found), or a missing column.
    """
    if isinstance(runs, pl.DataFrame):
        runs = runs.lazy()
    need_columns(runs, _RUNS_READ, "the table", "a runs table")
    wanted = None if board is None else board_arg(board, min_side=1)
    found = run_boards(runs)
    names = ", ".join(b.name for b in found) or "no rows"
    if wanted is None:
        if not found:
            raise ValueError("runs hold no rows: there is no board to count")
        if len(found) > 1:
            raise ValueError(f"runs hold boards {names}: give board= one of them, or filter the runs to one board")
        return runs, found[0]
    if wanted not in found:
        raise ValueError(f"board {wanted.name} is not in the runs, which hold {names}")
    if len(found) > 1:
        runs = runs.filter((pl.col("rows") == wanted.rows) & (pl.col("cols") == wanted.cols))
    return runs, wanted


def starts_closed_under_symmetry(board: Board, start_squares: np.ndarray) -> bool:
    """Whether a set of starts is a union of symmetry orbits (so a class's members must agree).

    Parameters
    ----------
    board : Board
        The board.
    start_squares : numpy.ndarray
        Square indices of the starts.

    Returns
    -------
    bool
        True when every symmetry maps the set onto itself.
    """
    chosen = np.zeros(board.size, dtype=bool)
    chosen[np.asarray(start_squares)] = True
    return bool(chosen[group(board).squares[:, chosen]].all())


def board_tables(
    runs: pl.LazyFrame, board: Board | int | str, *, check_classes: bool = True
) -> dict[str, pl.DataFrame]:
    """Every aggregate of one board's runs, collected together.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        Runs table (columns ``rows, cols, start, order, end, complete, closed`` at least),
        e.g. from :func:`knight.sweep.run` or :func:`scan_runs`.
    board : int, str or Board
        ``8``, ``"6x8"`` or a :class:`~knight.Board`: only its runs are read.
    check_classes : bool
        Check that the members of every symmetry class agree (valid when the starts are a
        union of orbits: :func:`starts_closed_under_symmetry`).

    Returns
    -------
    dict of str to polars.DataFrame
        ``completion``, ``orders``, ``starts``, ``classes`` and ``ends``.

    Raises
    ------
    ValueError
        As :func:`board_runs` refuses.
    SymmetryError
        With ``check_classes``, a class whose members disagree, named.
    """
    runs, board = board_runs(runs, board)
    order_lf = _orders(runs, board)
    lazy = {
        "completion": completion(runs),
        "orders": order_lf,
        "starts": starts(runs),
        "classes": classes(order_lf),
        "ends": _ends(runs, board),
    }
    frames = dict(zip(lazy, pl.collect_all(list(lazy.values()))))
    if check_classes:
        bad = frames["classes"].filter(~pl.col("agree"))
        if bad.height:
            raise SymmetryError(
                f"{bad.height} symmetry classes of {board.name} disagree, e.g. class "
                f"{bad['class_string'][0]} ({bad['members'][0]}): runs from symmetric starts "
                "under symmetric orders must have equal outcomes"
            )
    return frames
