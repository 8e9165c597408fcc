"""The thesis's tables 58 and 59.

Table 58: the tie orders that give a complete tour from every start run on a board.
Table 59: for each start square, how many of the orders run fail (no complete tour),
laid out as the board (rows 1..R top to bottom, columns 1..C left to right).
Inputs are the per-board tables of :mod:`knight.sweep.tables` (``orders``, ``starts``,
``ends``); rows and columns people read are 1-based.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from knight.core.board import Board


def table58(orders: pl.DataFrame) -> pl.DataFrame:
    """Orders completing from every start run (``complete_all``), by rank.

    Columns: ``order`` (string), ``rank``, ``class_id``, ``starts`` (starts run, all
    complete) and ``closed`` (starts whose tour closes).
    """
    return (
        orders.filter(pl.col("complete_all"))
        .sort("order")
        .select(
            pl.col("order_string").alias("order"),
            pl.col("order").cast(pl.UInt32).alias("rank"),
            pl.col("class_id").cast(pl.UInt32),
            pl.col("starts").cast(pl.UInt32),
            pl.col("closed").cast(pl.UInt32),
        )
    )


def table59(starts: pl.DataFrame, board: Board) -> pl.DataFrame:
    """Failing orders per start square as a board: column ``row`` (1-based), then one
    column per board column ``"1"`` .. ``"C"``; null where the start was not run."""
    grid = np.full((board.rows, board.cols), None, dtype=object)
    for s, f in zip(starts["start"].to_list(), starts["failing"].to_list()):
        r, c = board.coords(int(s))
        grid[r, c] = int(f)
    data = {"row": list(range(1, board.rows + 1))}
    for c in range(board.cols):
        data[str(c + 1)] = grid[:, c].tolist()
    return pl.DataFrame(data, schema={"row": pl.UInt16, **{str(c + 1): pl.UInt32 for c in range(board.cols)}})
