"""Snakemake script: check a (study, rule) dataset's parts against the plan, write its manifest."""

from pathlib import Path

from knight.core.dataset import write_manifest
from knight.rules.chunks import RUNS_SCHEMA
from knight.runtime.logs import script_logging

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
