"""Snakemake script: one aggregate table over every configured board (Parquet + CSV)."""

import polars as pl

from knight.io import write_frame

sm = snakemake  # noqa: F821 (injected by Snakemake)
frame = pl.concat([pl.scan_parquet(p) for p in sm.input], how="vertical").collect()
write_frame(frame, sm.output.parquet, csv=True)
