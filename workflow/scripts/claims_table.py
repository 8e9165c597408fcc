"""Snakemake script: the claims table (Parquet, CSV), its page (Markdown) and report (HTML)."""

import json

from knight.claims.table import claims_frame, claims_page
from knight.core.io import atomic_path, write_frame
from knight.report.text import html_table
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
frame = claims_frame(json.loads(open(p).read()) for p in sm.input)
write_frame(frame, sm.output.parquet, csv=False)
with atomic_path(sm.output.csv) as tmp:
    frame.write_csv(tmp)
with atomic_path(sm.output.md) as tmp:
    tmp.write_text(claims_page(frame))
with atomic_path(sm.output.html) as tmp:
    tmp.write_text(html_table(frame.drop("command"), title="Claims of the literature, checked by the pipeline"))
log.info("%d claims: %s", frame.height, dict(frame.group_by("verdict").len().iter_rows()))
