"""Snakemake script: build, check and time the configured closed tours."""

from knight.core.io import write_frame
from knight.exact.searches import construct_runs
from knight.runtime.logs import LineLogger, script_logging

sm = snakemake
log = script_logging(sm)
table = construct_runs(sm.params.boards, sm.params.methods, log=LineLogger(log))
if not table["closed"].all():
    raise RuntimeError(f"a constructed tour failed the check:\n{table}")
write_frame(table, sm.output.parquet)
