"""Snakemake script: speed-up and efficiency table and plot from timings.parquet."""

import polars as pl

from knight.core.io import write_frame
from knight.queens.speedup import speedup_table
from knight.report.figures import save, speedup_figure
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
timings = pl.read_parquet(sm.input.timings)
table = speedup_table(timings)
write_frame(table, sm.output.parquet)
save(speedup_figure(timings, table), sm.output.plot, dpi=120)
for (name,), part in table.filter(pl.col("unstable")).group_by(["instance"]):
    log.warning("%s: repeats disagree by up to %.0f %%: the machine was busy", name, 100 * part["spread"].max())
log.info("\n%s", table)
