"""Snakemake script: one slice of a first-failure scan (knight.claims.scan), with its figures."""

import json

from knight.claims.scan import Scan
from knight.core.io import atomic_path, write_parquet
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
scan = Scan.from_config(next(s for s in sm.config["claims"]["scans"] if s["name"] == sm.wildcards.scan))
k = int(sm.wildcards.slice)
if scan.params(k) != sm.params.scan:
    raise RuntimeError(f"scan {scan.name} slice {k}: the plan differs from the job's parameters")
table, figures = scan.run_slice(k)
write_parquet(table, sm.output.part)
with atomic_path(sm.output.times) as tmp:
    tmp.write_text(json.dumps({"orders": table.num_rows, **figures}) + "\n")
log.info(
    "scan %s slice %d: %d orders, %d still completing on every board; %d knight steps in %.1f s",
    scan.name,
    k,
    table.num_rows,
    table.column("first_rows").null_count,
    figures["steps"],
    figures["seconds"],
)
