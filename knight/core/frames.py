"""Polars expressions over the columns every runs table shares."""

from __future__ import annotations

import polars as pl


def square_coords(expr_square: str, out_prefix: str = "") -> list[pl.Expr]:
    """Columns ``{out_prefix}row`` and ``{out_prefix}col`` (1-based, uint16) of the square
    index column ``expr_square`` on a board of ``cols`` columns."""
    sq = pl.col(expr_square).cast(pl.Int64)
    cols = pl.col("cols").cast(pl.Int64)
    return [
        (sq // cols + 1).cast(pl.UInt16).alias(f"{out_prefix}row"),
        (sq % cols + 1).cast(pl.UInt16).alias(f"{out_prefix}col"),
    ]
