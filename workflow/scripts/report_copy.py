"""Snakemake script: copy a stage's figure into the report's place, atomically."""

import shutil

from knight.core.io import atomic_path
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
with atomic_path(sm.output[0]) as tmp:
    shutil.copyfile(sm.input[0], tmp)
log.info("copied %s to %s", sm.input[0], sm.output[0])
