"""Snakemake script: aggregate tables of one board from its runs files."""

import logging

from knight.board import parse_board
from knight.io import write_frame
from knight.sweep import parse_starts
from knight.tables import board_tables, scan_runs, starts_closed_under_symmetry

sm = snakemake  # noqa: F821 (injected by Snakemake)
logging.basicConfig(filename=sm.log[0], level=logging.INFO, format="%(asctime)s %(message)s")

board = parse_board(sm.wildcards.board)
symmetric = starts_closed_under_symmetry(board, parse_starts(board, sm.params.starts))
if not symmetric:
    logging.info("starts are not a union of symmetry orbits: class agreement not checked")
frames = board_tables(scan_runs(list(sm.input.runs)), board, check_classes=symmetric)
for name, frame in frames.items():
    write_frame(frame, sm.output[name], csv=False)
    logging.info("%s: %d rows", name, frame.height)
