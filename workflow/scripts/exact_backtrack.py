"""Snakemake script: backtracking runs from every start of one board (knight.exact.study)."""

from knight.board import parse_board
from knight.exact.study import backtrack_runs
from knight.io import write_parquet

sm = snakemake  # noqa: F821 (injected by Snakemake)
with open(sm.log[0], "w") as log:
    runs = backtrack_runs(parse_board(sm.wildcards.board), closed=sm.params.closed,
                          prunes=sm.params.prune, orderings=sm.params.orderings,
                          order=sm.params.order, limit=sm.params.limit, log=log)
    write_parquet(runs.to_arrow(), sm.output[0])
    print(f"{runs.height} runs, {runs['seconds'].sum():.2f} s of search", file=log)
