"""Snakemake script: a results page of the documentation site, written from the pages the
workflow made (docs/results/): the same text, headed by where it comes from."""

from pathlib import Path

from knight.core.io import atomic_path
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
pages = [Path(p).read_text(encoding="utf-8").strip() for p in sm.input]
with atomic_path(sm.output[0]) as tmp:
    tmp.write_text(f"*{sm.params.header}*\n\n" + "\n\n".join(pages) + "\n", encoding="utf-8")
log.info("%s from %s", sm.output[0], ", ".join(map(str, sm.input)))
