"""Snakemake script: check a (study, rule) dataset's parts against the plan, write its manifest."""

from pathlib import Path

from knight.dataset import write_manifest
from knight.logs import script_logging
from knight.studies import RUNS_SCHEMA

sm = snakemake
log = script_logging(sm)
manifest = write_manifest(
    Path(sm.output[0]).parent,
    sm.input,
    rows=sm.params.rows,
    schema=RUNS_SCHEMA,
    study=sm.wildcards.study,
    rule=sm.wildcards.rule,
)
log.info("%s/%s: %d files, %d rows", sm.wildcards.study, sm.wildcards.rule, len(manifest["parts"]), manifest["rows"])
