"""Snakemake script: per-board heatmaps from the board's ends and starts tables.

ends_complete / ends_closed: complete / closed tours ending on each square (all starts x
orders run); failing: orders that fail from each start (table 59); closed_starts:
orders whose tour from each start closes. Starts not run are left blank.
"""

import polars as pl

from knight.core.board import board_grid, parse_board
from knight.report.figures import save, square_heatmap
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)

board = parse_board(sm.wildcards.board)
ends = pl.read_parquet(sm.input.ends)
starts = pl.read_parquet(sm.input.starts)
annotate = max(board.rows, board.cols) <= sm.params.annotate_max
n_orders = int(starts["orders"].max()) if starts.height else 0

figures = {
    "ends_complete": (
        board_grid(board, ends["end"], ends["complete"], fill=0),
        f"{board.name}: complete tours ending on each square",
        "complete tours ending here (count)",
        "cividis",
    ),
    "ends_closed": (
        board_grid(board, ends["end"], ends["closed"], fill=0),
        f"{board.name}: closed tours ending on each square",
        "closed tours ending here (count)",
        "cividis",
    ),
    "failing": (
        board_grid(board, starts["start"], starts["failing"]),
        f"{board.name}: failing tie orders per start (of {n_orders:,} run)",
        "orders with no complete tour (count)",
        "viridis",
    ),
    "closed_starts": (
        board_grid(board, starts["start"], starts["closed"]),
        f"{board.name}: tie orders whose tour from this start closes",
        "orders giving a closed tour (count)",
        "viridis",
    ),
}
for name, (grid, title, label, cmap) in figures.items():
    fig = square_heatmap(grid, title=title, label=label, cmap=cmap, annotate=annotate, board=board)
    save(fig, sm.output[f"{name}_png"], dpi=sm.params.dpi)
    save(fig, sm.output[f"{name}_svg"])
    log.info("%s: total %s, max %s", name, float(grid[grid == grid].sum()), float(grid[grid == grid].max()))
