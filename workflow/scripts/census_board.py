"""Snakemake script: one board's census parts from its whole, verified runs dataset."""

from pathlib import Path

from knight.core import dataset
from knight.core.board import parse_board
from knight.core.io import write_frame
from knight.runtime.logs import script_logging
from knight.sweep.census import board_parts
from knight.sweep.tables import scan_runs

sm = snakemake
log = script_logging(sm)
board = parse_board(sm.wildcards.board)
parts = dataset.verify(Path(sm.input.manifest).parent, deep=True)
frames = board_parts(scan_runs([str(p) for p in parts]), board)
for name, frame in frames.items():
    write_frame(frame, sm.output[name], csv=False)
    log.info("%s: %d rows", name, frame.height)
