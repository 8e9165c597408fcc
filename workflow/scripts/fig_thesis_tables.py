"""Snakemake script: the thesis's tables 58 and 59 of one board as Markdown, CSV and HTML."""

import polars as pl

from knight.core.board import parse_board
from knight.core.io import atomic_path
from knight.report.text import html_table, markdown
from knight.runtime.logs import script_logging
from knight.sweep.thesis import table58, table59

sm = snakemake
log = script_logging(sm)


def write_text(path, text):
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def write_csv(frame, path):
    with atomic_path(path) as tmp:
        frame.write_csv(tmp)


board = parse_board(sm.wildcards.board)
orders = pl.read_parquet(sm.input.orders)
starts = pl.read_parquet(sm.input.starts)
n_orders, n_starts = orders.height, starts.height

t58 = table58(orders)
title58 = f"Table 58 ({board.name}): tie orders giving a complete tour from every start"
note58 = (
    f"{t58.height:,} of {n_orders:,} orders run complete from all {n_starts:,} starts run; "
    "closed = starts whose tour closes."
)
write_text(
    sm.output.t58_md, f"# {title58}\n\n{note58}\n\n" + markdown(t58, empty="No order completes from every start.")
)
write_csv(t58, sm.output.t58_csv)
write_text(
    sm.output.t58_html, html_table(t58, title=title58, note=note58, empty="No order completes from every start.")
)

t59 = table59(starts, board)
title59 = f"Table 59 ({board.name}): failing tie orders from each start square"
note59 = (
    f"Number of the {n_orders:,} orders run whose tour from the square (row, column; 1-based, "
    "row 1 on top) is not complete; blank = start not run."
)
write_text(sm.output.t59_md, f"# {title59}\n\n{note59}\n\n" + markdown(t59))
write_csv(t59, sm.output.t59_csv)
write_text(sm.output.t59_html, html_table(t59, title=title59, note=note59))
log.info("table 58: %d orders; table 59: %d starts", t58.height, n_starts)
