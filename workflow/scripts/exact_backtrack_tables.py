"""Snakemake script: all backtracking runs, totals, and per-start answers beside the sweep."""

import polars as pl

from knight.core.io import write_frame
from knight.exact.searches import backtrack_summary, start_answers, warnsdorff_beside
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
runs = pl.concat([pl.read_parquet(p) for p in sm.input.runs])
starts = pl.concat([pl.read_parquet(p) for p in sm.input.starts]) if sm.input.starts else None
table = warnsdorff_beside(start_answers(runs), starts)
write_frame(runs, sm.output.runs)
write_frame(backtrack_summary(runs), sm.output.summary)
write_frame(table, sm.output.starts)
misses = table.filter(pl.col("heuristic_misses").fill_null(False))
log.info("%d runs; %d starts; heuristic misses at %d starts", runs.height, table.height, misses.height)
