"""Snakemake script: draw one Warnsdorff run (board, 1-based start, order from the wildcards)."""

from knight.core.board import parse_board
from knight.engine.brute import run
from knight.report.figures import save, tour_figure
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)

w = sm.wildcards
board = parse_board(w.tboard)
result = run(board, board.from_human(int(w.row), int(w.col)), w.order)
fig = tour_figure(result)
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
log.info(
    "%s from (%s, %s) under %s: visited %d/%d, complete=%s, closed=%s, end=%s",
    board.name,
    w.row,
    w.col,
    w.order,
    result.visited,
    board.size,
    result.complete,
    result.closed,
    board.human(result.end),
)
