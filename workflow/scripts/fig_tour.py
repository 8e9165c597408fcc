"""Snakemake script: draw one Warnsdorff run (board, 1-based start, order from the wildcards)."""

import logging

from knight.board import parse_board
from knight.draw import save, tour_figure
from knight.warnsdorff import run

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")

w = sm.wildcards
board = parse_board(w.tboard)
result = run(board, board.from_human(int(w.row), int(w.col)), w.order)
fig = tour_figure(result)
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
logging.info("%s from (%s, %s) under %s: visited %d/%d, complete=%s, closed=%s, end=%s",
             board.name, w.row, w.col, w.order, result.visited, board.size, result.complete,
             result.closed, board.human(result.end))
