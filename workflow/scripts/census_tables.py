"""Snakemake script: the census tables (Parquet + CSV) and the report page written from them."""

import polars as pl

from knight.core.io import atomic_path, write_frame
from knight.runtime.logs import script_logging
from knight.sweep.census import PARTS, census_tables
from knight.sweep.census_report import census_page

sm = snakemake
log = script_logging(sm)
files = {name: list(sm.input[name]) for name in PARTS}  # one file per board, in board order
parts = [{name: pl.read_parquet(files[name][i]) for name in PARTS} for i in range(len(files["summary"]))]
tables = census_tables(parts)
for name, frame in tables.items():
    write_frame(frame, sm.output[name], csv=False)
    with atomic_path(sm.output[f"{name}_csv"]) as tmp:
        frame.write_csv(tmp)
    log.info("%s: %d rows", name, frame.height)
with atomic_path(sm.output.page) as tmp:
    tmp.write_text(census_page(tables))
log.info("report page %s", sm.output.page)
