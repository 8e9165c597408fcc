"""Snakemake script: completion rate and closed rate against N from the completion table."""

import polars as pl

from knight.report.figures import rates_figure, save
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
table = pl.read_parquet(sm.input.table).sort("rows", "cols")
fig = rates_figure(table["rows"], table["cols"], table["completion_rate"], table["closed_rate"])
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
log.info("\n%s", table)
