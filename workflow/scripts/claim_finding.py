"""Snakemake script: one claim's finding from the stored tables that test it (knight.claims)."""

import json

import polars as pl

from knight.claims.evaluate import evaluate, queens_counts, study_runs, study_seconds
from knight.claims.spec import Claim
from knight.claims.table import claim_row
from knight.core.board import parse_boards
from knight.core.io import atomic_path, write_frame
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
claim = Claim.from_config(sm.params.claim)
kind, seconds = sm.params.kind, None
if kind == "runs":
    finding = evaluate(claim, runs=study_runs(sm.input.manifests))
    seconds = study_seconds(list(sm.input.times))
elif kind == "scan":
    scan = pl.concat([pl.read_parquet(p) for p in sm.input.parts])
    finding = evaluate(claim, scan=scan, boards=parse_boards(sm.params.scan))
    seconds = sum(json.loads(open(p).read())["seconds"] for p in sm.input.times)
elif kind == "queens":
    counts, seconds = queens_counts(sm.input.counts, list(sm.input.summaries))
    finding = evaluate(claim, counts=counts)
else:
    finding = evaluate(claim)
row = claim_row(claim, finding, seconds)
write_frame(finding.evidence, sm.output.evidence, csv=False)
with atomic_path(sm.output.finding) as tmp:
    tmp.write_text(json.dumps(row, indent=1) + "\n")
log.info("claim %s: %s; %s", claim.key, finding.verdict, finding.finding)
