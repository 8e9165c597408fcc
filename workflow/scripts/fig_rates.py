"""Snakemake script: completion rate and closed rate against N from the completion table."""

import polars as pl

from knight.draw import rates_figure, save

sm = snakemake  # noqa: F821 (injected by Snakemake)
table = pl.read_parquet(sm.input.table).sort("rows", "cols")
fig = rates_figure(table["rows"], table["cols"], table["completion_rate"], table["closed_rate"])
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
with open(sm.log[0], "w") as log:
    print(table, file=log)
