"""Snakemake script: check a board's runs files against its sweep plan, write the manifest."""

from knight.runtime.logs import script_logging
from knight.sweep.driver import write_board_manifest
from knight.sweep.spec import SweepSpec

sm = snakemake
log = script_logging(sm)
spec = SweepSpec.from_config(sm.wildcards.board, sm.params)
manifest = write_board_manifest(sm.output[0].rsplit("/", 1)[0], sm.input, spec)
log.info("%s: %d files, %d rows", spec.board.name, len(manifest["parts"]), manifest["rows"])
