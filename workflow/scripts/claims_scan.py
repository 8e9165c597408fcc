"""Snakemake script: one slice of a scan (knight.claims.scan): first failures or every failure, with its figures."""

import json

import polars as pl

from knight.claims.scan import Scan, pick_orders
from knight.core.io import atomic_path, write_parquet
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
scan = Scan.from_config(next(s for s in sm.config["claims"]["scans"] if s["name"] == sm.wildcards.scan))
k = int(sm.wildcards.slice)
if scan.params(k) != sm.params.scan:
    raise RuntimeError(f"scan {scan.name} slice {k}: the plan differs from the job's parameters")
chosen = None
if scan.of is not None:  # orders picked from another scan's stored table
    chosen = pick_orders(pl.concat([pl.read_parquet(p) for p in sm.input.of]), scan.longest, scan.first_failure)
    how = f"{scan.longest} longest-lasting" if scan.longest else f"{len(chosen)} first failing on {scan.first_failure}"
    log.info("scan %s: the %s orders of scan %s", scan.name, how, scan.of)
table, figures = scan.run_slice(k, chosen=chosen)
write_parquet(table, sm.output.part)
with atomic_path(sm.output.times) as tmp:
    tmp.write_text(json.dumps({"orders": table.num_rows, **figures}) + "\n")
log.info(
    "scan %s slice %d: %d orders, %d complete on every board; %d knight steps in %.1f s",
    scan.name,
    k,
    table.num_rows,
    table.column("first_rows").null_count,
    figures["steps"],
    figures["seconds"],
)
