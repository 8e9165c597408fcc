"""Snakemake script: draw one Warnsdorff run (board, 1-based start, order from the wildcards)."""

from knight.core.board import parse_board
from knight.report.figures import save, tour_figure
from knight.runtime.logs import script_logging
from knight.warnsdorff import tour

sm = snakemake
log = script_logging(sm)

w = sm.wildcards
board = parse_board(w.tboard)
result = tour(board, (int(w.row), int(w.col)), order=w.order)
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
