"""Snakemake script: backtracking runs from every start of one board (knight.exact.searches)."""

from knight.core.board import parse_board
from knight.core.io import write_parquet
from knight.exact.searches import backtrack_runs
from knight.runtime.logs import LineLogger, script_logging

sm = snakemake
log = script_logging(sm)
runs = backtrack_runs(
    parse_board(sm.wildcards.board),
    closed=sm.params.closed,
    prunes=sm.params.prune,
    orderings=sm.params.orderings,
    order=sm.params.order,
    limit=sm.params.limit,
    log=LineLogger(log),
)
write_parquet(runs.to_arrow(), sm.output[0])
log.info("%d runs, %.2f s of search", runs.height, runs["seconds"].sum())
