"""Snakemake script: one chunk of a study's runs of one rule, on Dask, written with its times."""

from knight.core.io import write_parquet
from knight.rules.chunks import run_chunk, warm_up
from knight.rules.study import Study
from knight.runtime.cluster import DaskSettings
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
section = sm.config["rules"]
study = Study.from_config(next(s for s in section["studies"] if s["name"] == sm.wildcards.study), section)
rule, k = sm.wildcards.rule, int(sm.wildcards.chunk)
if study.chunk_params(rule, k) != sm.params.chunk:
    raise RuntimeError(f"chunk {k} of {study.name}/{rule}: the plan differs from the job's parameters")
warm_up(rule)
dask = DaskSettings.from_config(sm.config["dask"])
with dask.client(sm.threads) as client:
    result = run_chunk(study, rule, k, client=client)
write_parquet(result.table, sm.output.runs, row_group_size=1 << 20)
write_parquet(result.times, sm.output.times)
log.info(
    "study %s rule %s chunk %d: %d runs, %d knight steps, %.3f s on %s",
    study.name,
    rule,
    k,
    result.table.num_rows,
    result.steps,
    result.seconds,
    dask.where(sm.threads),
)
