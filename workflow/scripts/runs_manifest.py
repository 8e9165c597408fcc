"""Snakemake script: check a board's runs files against its sweep plan, write the manifest."""

from knight.core.dataset import write_manifest
from knight.engine.runs_table import RUNS_SCHEMA
from knight.runtime.logs import script_logging
from knight.sweep.spec import SweepSpec

sm = snakemake
log = script_logging(sm)
spec = SweepSpec.from_config(sm.wildcards.board, sm.params)
manifest = write_manifest(
    sm.output[0].rsplit("/", 1)[0],
    sm.input,
    rows=spec.chunk_rows(),
    schema=RUNS_SCHEMA,
    board=spec.board.name,
    rule=spec.rule,
)
log.info("%s: %d files, %d rows", spec.board.name, len(manifest["parts"]), manifest["rows"])
