"""Aggregates of a runs table, as polars lazy queries (one board or many).

Every aggregate takes the runs (columns ``rows, cols, start, order, visited, end,
complete, closed, ties``, e.g. from :func:`knight.sweep.run`) as a ``LazyFrame`` and
returns a ``LazyFrame`` (nothing collected), or as a ``DataFrame`` and returns a
``DataFrame``. Squares appear both as indices and 1-based ``row``/``col``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from knight.core.board import Board
from knight.core.frames import same_kind, square_coords
from knight.core.orders import order_strings
from knight.core.symmetry import group
from knight.engine.runs_table import RUNS_SCHEMA

#: Names of the aggregate tables, in the order they are documented.
TABLES = ("completion", "orders", "starts", "classes", "ends")

_BOARD_KEYS = ["rows", "cols"]


class SymmetryError(AssertionError):
    """Orders of one symmetry class disagree: a bug in an engine or in the symmetry tables."""


def scan_runs(paths: str | Sequence[str]) -> pl.LazyFrame:
    """Lazy runs table (:data:`knight.engine.runs_table.RUNS_SCHEMA`) from Parquet files (a glob or a list of paths)."""
    return pl.scan_parquet(paths, hive_partitioning=False).select(RUNS_SCHEMA.names)


def order_catalogue(board: Board) -> pl.LazyFrame:
    """Every order rank with its string and symmetry class id on ``board``."""
    return pl.LazyFrame(
        {
            "order": np.arange(40320, dtype=np.uint16),
            "order_string": order_strings(),
            "class_id": group(board).class_ids().astype(np.uint16),
        }
    )


@same_kind
def completion(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per board: runs, complete, closed, completion rate, closed rate.

    >>> import knight
    >>> completion(knight.sweep.run(6)).select("runs", "complete", "closed").rows()
    [(1451520, 1431808, 182448)]
    """
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
def orders(runs: pl.LazyFrame, board: Board | None = None) -> pl.LazyFrame:
    """Per order of one board: string, class id, starts run, complete and closed counts,
    and ``complete_all`` (it completes from every start run: the thesis's table 58).
    ``board``: the runs' board (read from the runs when None: one pass over them)."""
    board = board or one_board(runs)
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
    """Per start: orders run, complete, failing (the thesis's table 59) and closed counts."""
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
    """Per symmetry class (from an :func:`orders` table): members, size, complete and
    closed counts of its members, and ``agree`` (all members have equal counts)."""
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
def ends(runs: pl.LazyFrame, board: Board | None = None) -> pl.LazyFrame:
    """Per square of the board: complete tours ending there and closed tours ending there.
    ``board``: the runs' board (read from the runs when None: one pass over them)."""
    board = board or one_board(runs)
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


def one_board(runs: pl.LazyFrame) -> Board:
    """The one board of ``runs``; ``ValueError`` when they hold several (pass ``board``)."""
    sizes = runs.select(_BOARD_KEYS).unique().sort(_BOARD_KEYS).collect().rows()
    if len(sizes) != 1:
        names = ", ".join(f"{r}x{c}" for r, c in sizes) or "none"
        raise ValueError(f"runs hold boards {names}: give the board, or filter the runs to one board")
    return Board(*sizes[0])


def starts_closed_under_symmetry(board: Board, start_squares: np.ndarray) -> bool:
    """True when the start set is a union of orbits, so class members must agree."""
    chosen = np.zeros(board.size, dtype=bool)
    chosen[np.asarray(start_squares)] = True
    return bool(chosen[group(board).squares[:, chosen]].all())


def board_tables(runs: pl.LazyFrame, board: Board, *, check_classes: bool = True) -> dict[str, pl.DataFrame]:
    """All aggregate tables of one board's runs, collected together.

    With ``check_classes`` (valid when the starts are a union of symmetry orbits), a
    class whose members disagree raises :class:`SymmetryError` naming the classes.
    """
    order_lf = orders(runs, board)
    lazy = {
        "completion": completion(runs),
        "orders": order_lf,
        "starts": starts(runs),
        "classes": classes(order_lf),
        "ends": ends(runs, board),
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
