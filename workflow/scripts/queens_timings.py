"""Snakemake script: time the queens searches over worker counts -> timings.parquet/.csv."""

from knight.core.io import write_frame
from knight.queens.speedup import time_searches
from knight.runtime.logs import LineLogger, script_logging

sm = snakemake
log = script_logging(sm)
log.info("threads given by Snakemake: %d", sm.threads)
timings = time_searches(
    sm.params.instances,
    sm.params.workers,
    sm.params.repeats,
    sm.params.tasks,
    threads=sm.threads,
    log=LineLogger(log),
)
write_frame(timings, sm.output.parquet)
