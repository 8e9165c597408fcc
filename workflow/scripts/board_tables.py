"""Snakemake script: aggregate tables of one board from its whole runs dataset."""

from pathlib import Path

from knight.core import dataset
from knight.core.board import parse_board, parse_starts
from knight.core.io import write_frame
from knight.runtime.logs import script_logging
from knight.sweep.tables import board_tables, scan_runs, starts_closed_under_symmetry

sm = snakemake
log = script_logging(sm)
board = parse_board(sm.wildcards.board)
parts = dataset.verify(Path(sm.input.manifest).parent, deep=True)
symmetric = starts_closed_under_symmetry(board, parse_starts(board, sm.params.starts))
if not symmetric:
    log.info("starts are not a union of symmetry orbits: class agreement not checked")
frames = board_tables(scan_runs([str(p) for p in parts]), board, check_classes=symmetric)
for name, frame in frames.items():
    write_frame(frame, sm.output[name], csv=False)
    log.info("%s: %d rows", name, frame.height)
