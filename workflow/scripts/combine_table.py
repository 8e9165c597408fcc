"""Snakemake script: one aggregate table over every configured board (Parquet + CSV)."""

import polars as pl

from knight.core.io import write_frame
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
frame = pl.concat([pl.scan_parquet(p) for p in sm.input], how="vertical").collect()
write_frame(frame, sm.output.parquet, csv=True)
log.info("%s: %d rows from %d boards", sm.wildcards.name, frame.height, len(sm.input))
