"""Snakemake script: the census's checks of its stored runs (knight.sweep.census_check)."""

from pathlib import Path

from knight.core import dataset
from knight.core.board import parse_board
from knight.core.io import atomic_path
from knight.runtime.logs import script_logging
from knight.sweep.census_check import CensusCheckError, check_board, check_page
from knight.sweep.tables import scan_runs

sm = snakemake
log = script_logging(sm)
results = []
for board_name, manifest in zip(sm.params.boards, sm.input, strict=True):
    board = parse_board(board_name)
    parts = dataset.verify(Path(manifest).parent, deep=True)
    runs = scan_runs([str(p) for p in parts])
    results.append(check_board(board, runs, sm.params.samples, sm.params.seed, whole=sm.params.whole))
    log.info("%s", results[-1])
page, failures = check_page(results, sm.params.samples, sm.params.seed)
if failures:
    raise CensusCheckError("census check failed: " + "; ".join(failures))
with atomic_path(sm.output[0]) as tmp:
    tmp.write_text(page)
