"""Snakemake script: time the queens searches over worker counts -> timings.parquet/.csv."""

from knight.io import write_frame
from knight.queens.study import run_study

sm = snakemake  # noqa: F821 (injected by Snakemake)
with open(sm.log[0], "w") as log:
    print(f"threads given by Snakemake: {sm.threads}", file=log, flush=True)
    timings = run_study(
        sm.params.instances, sm.params.workers, sm.params.repeats, sm.params.tasks,
        threads=sm.threads, log=log,
    )
    write_frame(timings, sm.output.parquet)
