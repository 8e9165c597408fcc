"""Snakemake script: the completion table (all boards) as an HTML page for the report."""

import polars as pl

from knight.core.io import atomic_path
from knight.report.text import html_table
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
table = (
    pl.read_parquet(sm.input.table)
    .sort("rows", "cols")
    .with_columns(
        (pl.col("completion_rate") * 100).round(3).alias("completion_%"),
        (pl.col("closed_rate") * 100).round(3).alias("closed_%"),
    )
    .drop("completion_rate", "closed_rate")
)
page = html_table(
    table,
    title="Warnsdorff runs per board: complete and closed tours",
    note="runs = starts x tie orders run; rates in % of runs.",
)
with atomic_path(sm.output[0]) as tmp:
    tmp.write_text(page)
log.info("\n%s", table)
