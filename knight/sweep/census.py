"""The census's findings: what the sweep of every (board, start, order) triple shows per
board, per tie order across boards, and per class of start squares.

Definitions (docs/census.md, conventions in docs/conventions.md):

- A **tour start** of a board is a start square from which at least one swept order
  gives a complete tour. (On an odd board a tour can only start on the colour of the
  corners, and on 3 x 3 and 4 x 4 there is none.)
- An order **completes everywhere** on a board when it completes from every tour
  start. On a board whose every square is a tour start that is the thesis's
  ``complete_all`` (its table 58); on an odd board it is the generalisation that
  leaves out the squares no tour can start from.
- An order **fails** on a board with tour starts when it does not complete everywhere.
  Its **first failure** is the smallest N whose N x N board it fails on; its **first
  success** the smallest N it completes everywhere on, and its **next failure** the
  smallest N above that it fails on. A **run** of an order is a stretch of consecutive
  swept N x N boards with tour starts on each of which it completes everywhere.
- The **class** of a square (1-based row r, column c) of an R x C board is the pair
  ``(a, b) = (min(r, R + 1 - r), min(c, C + 1 - c))``, sorted on a square board: its
  rows and columns from the nearest edges. On a square board the class is the
  square's orbit under the 8 symmetries, and (1, 1) are the corners on every N.

Every function takes polars frames and returns polars frames; the per-board parts are
computed from a board's runs by one lazy scan (:func:`board_parts`), the census tables
from the parts of every board (:func:`census_tables`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from knight.core.board import Board
from knight.core.orders import N_ORDERS, order_strings
from knight.core.symmetry import group

#: Census tables, in the order they are documented.
CENSUS_TABLES = ("boards", "orders", "ends")
#: Per-board parts the census tables are made from.
PARTS = ("summary", "orders", "ends")

_BOARD = ["rows", "cols"]


def square_class(column: str, prefix: str, board: Board) -> list[pl.Expr]:
    """Columns ``{prefix}a`` and ``{prefix}b`` (uint16): the class of the square index
    ``column`` on ``board`` (module docstring)."""
    sq = pl.col(column).cast(pl.Int64)
    r = sq // board.cols + 1
    c = sq % board.cols + 1
    a = pl.min_horizontal(r, board.rows + 1 - r)
    b = pl.min_horizontal(c, board.cols + 1 - c)
    if board.square:
        a, b = pl.min_horizontal(a, b), pl.max_horizontal(a, b)
    return [a.cast(pl.UInt16).alias(f"{prefix}a"), b.cast(pl.UInt16).alias(f"{prefix}b")]


def board_parts(runs: pl.LazyFrame, board: Board) -> dict[str, pl.DataFrame]:
    """The census parts of one board from its runs (columns of the runs table), in one
    ``collect_all``: ``summary`` (one row), ``orders`` (one row per order run) and
    ``ends`` (complete and closed tours per start class and end class)."""
    per_start = runs.group_by("start").agg(pl.col("complete").sum().alias("complete"), pl.len().alias("orders"))
    per_order = runs.group_by("order").agg(
        pl.len().cast(pl.UInt32).alias("starts"),
        pl.col("complete").sum().cast(pl.UInt32).alias("complete"),
        pl.col("closed").sum().cast(pl.UInt32).alias("closed"),
    )
    ends = (
        runs.filter(pl.col("complete"))
        .with_columns(*square_class("start", "start_", board), *square_class("end", "end_", board))
        .group_by(["start_a", "start_b", "end_a", "end_b"])
        .agg(pl.len().cast(pl.UInt64).alias("complete"), pl.col("closed").sum().cast(pl.UInt64).alias("closed"))
    )
    totals = runs.select(
        pl.len().cast(pl.UInt64).alias("runs"),
        pl.col("complete").sum().cast(pl.UInt64).alias("complete"),
        pl.col("closed").sum().cast(pl.UInt64).alias("closed"),
    )
    starts, orders, ends, totals = pl.collect_all([per_start, per_order, ends, totals])
    tour_starts = int((starts["complete"] > 0).sum())
    ids = group(board).class_ids()
    orders = (
        orders.with_columns(
            pl.col("order").cast(pl.UInt16),
            ((pl.col("complete") == tour_starts) & (tour_starts > 0)).alias("everywhere"),
            pl.Series("class_id", ids[orders["order"].to_numpy().astype(np.int64)].astype(np.uint16)),
        )
        .with_columns(pl.lit(board.rows, pl.UInt16).alias("rows"), pl.lit(board.cols, pl.UInt16).alias("cols"))
        .select([*_BOARD, "order", "class_id", "starts", "complete", "closed", "everywhere"])
        .sort("order")
    )
    summary = totals.with_columns(
        pl.lit(board.rows, pl.UInt16).alias("rows"),
        pl.lit(board.cols, pl.UInt16).alias("cols"),
        pl.lit(len(starts), pl.UInt32).alias("starts"),
        pl.lit(tour_starts, pl.UInt32).alias("tour_starts"),
        pl.lit(int((starts["complete"] == starts["orders"]).sum()), pl.UInt32).alias("starts_every_order"),
        pl.lit(orders.height, pl.UInt32).alias("orders"),
        pl.lit(int(orders["everywhere"].sum()), pl.UInt32).alias("orders_everywhere"),
        pl.lit(int((orders["complete"] == orders["starts"]).sum()), pl.UInt32).alias("orders_complete_all"),
        pl.lit(int((orders["closed"] > 0).sum()), pl.UInt32).alias("orders_closing"),
        pl.lit(orders.filter("everywhere")["class_id"].n_unique(), pl.UInt32).alias("classes_everywhere"),
        pl.lit(orders.filter(pl.col("closed") > 0)["class_id"].n_unique(), pl.UInt32).alias("classes_closing"),
    )
    ends = ends.select(
        pl.lit(board.rows, pl.UInt16).alias("rows"), pl.lit(board.cols, pl.UInt16).alias("cols"), pl.all()
    ).sort(["start_a", "start_b", "end_a", "end_b"])
    return {"summary": summary.select(SUMMARY_COLUMNS), "orders": orders, "ends": ends}


#: Columns of the per-board summary (the census ``boards`` table adds the rates).
SUMMARY_COLUMNS = [
    "rows",
    "cols",
    "runs",
    "complete",
    "closed",
    "starts",
    "tour_starts",
    "starts_every_order",
    "orders",
    "orders_everywhere",
    "orders_complete_all",
    "orders_closing",
    "classes_everywhere",
    "classes_closing",
]


def boards_table(summaries: pl.DataFrame) -> pl.DataFrame:
    """Per board: the summary with completion and closed rates over every start x order."""
    return summaries.with_columns(
        (pl.col("complete") / pl.col("runs")).alias("completion_rate"),
        (pl.col("closed") / pl.col("runs")).alias("closed_rate"),
    ).sort(_BOARD)


def _runs_of_true(flags: np.ndarray, sides: np.ndarray) -> tuple[int, int, int]:
    """Longest stretch of True in ``flags`` (per board, in order): (length, first side, last side)."""
    best = (0, 0, 0)
    start = None
    for i, f in enumerate(flags.tolist() + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            if i - start > best[0]:
                best = (i - start, int(sides[start]), int(sides[i - 1]))
            start = None
    return best


def orders_table(orders: pl.DataFrame, summaries: pl.DataFrame) -> pl.DataFrame:
    """Per order across the square boards with tour starts, in order of N: ``boards``
    (such boards swept), ``everywhere`` (boards it completes everywhere on),
    ``first_failure``, ``first_success`` and ``next_failure`` (null when there is none),
    the longest run (``run_length``, from ``run_from`` to ``run_to``), ``closing``
    (boards it closes a tour on from some start) and ``class_id`` (on a square board)."""
    sides = (
        summaries.filter((pl.col("rows") == pl.col("cols")) & (pl.col("tour_starts") > 0))
        .sort("rows")["rows"]
        .to_numpy()
    )
    square = orders.filter(pl.col("rows").is_in(sides.tolist()) & (pl.col("rows") == pl.col("cols")))
    n = len(sides)
    ranks = np.arange(N_ORDERS)
    flags = np.zeros((N_ORDERS, n), bool)
    closing = np.zeros(N_ORDERS, np.int64)
    for j, side in enumerate(sides.tolist()):
        part = square.filter(pl.col("rows") == side)
        idx = part["order"].to_numpy().astype(np.int64)
        flags[idx, j] = part["everywhere"].to_numpy()
        closing[idx] += part["closed"].to_numpy() > 0
    swept = np.zeros(N_ORDERS, bool)
    swept[square["order"].to_numpy().astype(np.int64)] = True
    first = np.array([sides[~f][0] if (~f).any() else 0 for f in flags], np.int64)
    success = np.array([np.argmax(f) if f.any() else -1 for f in flags], np.int64)
    after = np.array([sides[k + np.argmax(~f[k:])] if k >= 0 and (~f[k:]).any() else 0 for f, k in zip(flags, success)])
    runs = [_runs_of_true(f, sides) for f in flags]
    table = pl.DataFrame(
        {
            "order": ranks.astype(np.uint16),
            "order_string": order_strings(),
            "class_id": group(Board(8, 8)).class_ids().astype(np.uint16),
            "boards": np.full(N_ORDERS, n, np.uint16),
            "everywhere": flags.sum(axis=1).astype(np.uint16),
            "first_failure": first.astype(np.uint16),
            "first_success": np.where(success >= 0, sides[np.maximum(success, 0)] if n else 0, 0).astype(np.uint16),
            "next_failure": after.astype(np.uint16),
            "run_length": np.array([r[0] for r in runs], np.uint16),
            "run_from": np.array([r[1] for r in runs], np.uint16),
            "run_to": np.array([r[2] for r in runs], np.uint16),
            "closing": closing.astype(np.uint16),
        }
    ).filter(pl.Series(swept))
    return table.with_columns(
        *(pl.when(pl.col(c) > 0).then(pl.col(c)).alias(c) for c in ("first_failure", "first_success", "next_failure")),
        pl.when(pl.col("run_length") > 0).then(pl.col("run_from")).alias("run_from"),
        pl.when(pl.col("run_length") > 0).then(pl.col("run_to")).alias("run_to"),
    )


def ends_table(ends: pl.DataFrame) -> pl.DataFrame:
    """Complete and closed tours per (board, start class, end class), with ``share``:
    the fraction of the start class's complete tours that end in that class."""
    return ends.with_columns(
        (pl.col("complete") / pl.col("complete").sum().over([*_BOARD, "start_a", "start_b"])).alias("share")
    ).sort([*_BOARD, "start_a", "start_b", "end_a", "end_b"])


def census_tables(parts: Sequence[dict[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    """The census tables (:data:`CENSUS_TABLES`) from the parts of every board."""
    summaries = pl.concat([p["summary"] for p in parts])
    orders = pl.concat([p["orders"] for p in parts])
    return {
        "boards": boards_table(summaries),
        "orders": orders_table(orders, summaries),
        "ends": ends_table(pl.concat([p["ends"] for p in parts])),
    }


__all__ = [
    "CENSUS_TABLES",
    "PARTS",
    "SUMMARY_COLUMNS",
    "board_parts",
    "boards_table",
    "census_tables",
    "ends_table",
    "orders_table",
    "square_class",
]
