"""Snakemake script: one constructed closed tour as Parquet (step, row, col; 1-based)."""

from knight.core.board import parse_board
from knight.exact.check import tour_problem
from knight.exact.construct import construct
from knight.exact.tour_io import write_tour
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
board = parse_board(sm.wildcards.board)
tour = construct(board)
problem = tour_problem(board.rows, board.cols, tour, closed=True)
if problem:
    raise RuntimeError(f"{board.name}: constructed tour is wrong: {problem}")
write_tour(tour, board, sm.output[0])
log.info("%s: %d squares written", board.name, board.size)
