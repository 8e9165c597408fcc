"""Snakemake script: compute one chunk of a board's sweep on Dask and write it."""

import logging

from knight.board import parse_board
from knight.cluster import dask_client
from knight.sweep import SweepSpec, parse_orders, parse_starts, run_chunk, write_chunk

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")

board = parse_board(sm.wildcards.board)
spec = SweepSpec(
    board,
    starts=parse_starts(board, sm.params.starts),
    ranks=parse_orders(sm.params.orders),
    chunk_runs=sm.params.chunk_runs,
    engine=sm.params.engine,
)
chunk = int(sm.wildcards.chunk)
workers = sm.threads if sm.params.workers == "auto" else int(sm.params.workers)
# Not a param: where the work runs cannot change the result, so it must not rerun jobs.
scheduler_file = sm.config.get("dask", {}).get("scheduler_file")
with dask_client(workers, sm.params.scheduler, scheduler_file) as client:
    result = run_chunk(spec, chunk, client=client)
write_chunk(result, sm.output[0])
logging.info(
    "board %s chunk %d engine %s: %d runs, %d knight steps, %.3f s compute on %s",
    board.name, chunk, spec.engine, result.table.num_rows, result.steps, result.seconds,
    sm.params.scheduler or scheduler_file or f"{workers} local worker(s)",
)
