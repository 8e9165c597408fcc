"""Snakemake script: an order's per-start outcome grid beside those of its symmetric images."""

from knight.core.board import parse_board
from knight.report.figures import outcome_grid_figure, save
from knight.runtime.logs import script_logging
from knight.sweep.images import image_outcomes

sm = snakemake
log = script_logging(sm)

board = parse_board(sm.wildcards.iboard)
images = image_outcomes(board, sm.wildcards.order)
panels = [
    (
        f"{im['element']}: {im['order']}\n{im['complete']}/{board.size} complete, {im['closed']} closed",
        im["codes"],
        im["unvisited"],
    )
    for im in images
]
fig = outcome_grid_figure(
    board,
    panels,
    ncols=4,
    annotate=max(board.rows, board.cols) <= sm.params.annotate_max,
    title=f"{board.name}: outcome from each start under order {sm.wildcards.order} and its symmetric images g·o",
)
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
for im in images:
    log.info("%s %s complete=%d closed=%d", im["element"], im["order"], im["complete"], im["closed"])
