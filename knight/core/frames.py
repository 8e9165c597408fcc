"""Polars expressions over the columns every runs table shares, the Wilson interval of a
rate, and the rule that lets an aggregate take a DataFrame as well as a LazyFrame."""

from __future__ import annotations

import functools

import polars as pl

#: Normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def square_coords(expr_square: str, out_prefix: str = "") -> list[pl.Expr]:
    """Columns ``{out_prefix}row`` and ``{out_prefix}col`` (1-based, uint16) of the square
    index column ``expr_square`` on a board of ``cols`` columns."""
    sq = pl.col(expr_square).cast(pl.Int64)
    cols = pl.col("cols").cast(pl.Int64)
    return [
        (sq // cols + 1).cast(pl.UInt16).alias(f"{out_prefix}row"),
        (sq % cols + 1).cast(pl.UInt16).alias(f"{out_prefix}col"),
    ]


def need_columns(frame: pl.LazyFrame | pl.DataFrame, columns, aggregate: str, wanted: str) -> None:
    """One-line ``ValueError`` when ``frame`` lacks any of ``columns``: ``aggregate`` needs
    ``wanted`` (e.g. "a runs table"), and the message names the missing columns. Reads the
    schema only (``collect_schema``: nothing is computed).

    >>> need_columns(pl.LazyFrame({"rows": [5]}), ["rows", "start"], "starts", "a runs table")
    Traceback (most recent call last):
    ValueError: starts needs a runs table: the frame has no column start (it has rows)
    """
    have = frame.collect_schema().names()
    missing = [c for c in columns if c not in have]
    if missing:
        raise ValueError(
            f"{aggregate} needs {wanted}: the frame has no column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (it has {', '.join(have) or 'none'})"
        )


def same_kind(aggregate):
    """Let ``aggregate(LazyFrame, ...) -> LazyFrame`` take a ``DataFrame`` too and then
    return a ``DataFrame`` (collected): a notebook gets rows, a pipeline a lazy query."""

    @functools.wraps(aggregate)
    def wrapper(frame, *args, **kwargs):
        if isinstance(frame, pl.DataFrame):
            return aggregate(frame.lazy(), *args, **kwargs).collect()
        if not isinstance(frame, pl.LazyFrame):
            raise ValueError(f"runs must be a polars DataFrame or LazyFrame, got {type(frame).__name__}")
        return aggregate(frame, *args, **kwargs)

    return wrapper


def wilson(k: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score interval of a proportion ``k / n``: (low, high) expressions."""
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * ((p * (1 - p) / n + z2 / (4 * n * n)).sqrt()) / (1 + z2 / n)
    # The interval contains p; say so exactly where rounding would put p = 0 or 1 outside.
    return pl.min_horizontal(centre - half, p).clip(0.0, 1.0), pl.max_horizontal(centre + half, p).clip(0.0, 1.0)
