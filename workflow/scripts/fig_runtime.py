"""Snakemake script: sweep wall time per board against N.

Each sweep job's Snakemake benchmark file (results/benchmarks/sweep/RxC/part-NNNN.tsv,
column ``s`` = wall seconds) is summed per board.
"""

from pathlib import Path

import polars as pl

from knight.report.figures import runtime_figure, save
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
seconds = {}
for path in sm.input.benchmarks:
    board = Path(path).parent.name
    bench = pl.read_csv(path, separator="\t")
    seconds[board] = seconds.get(board, 0.0) + float(bench["s"].sum())
table = (
    pl.read_parquet(sm.input.completion)
    .with_columns(pl.format("{}x{}", "rows", "cols").alias("board"))
    .join(pl.DataFrame({"board": list(seconds), "seconds": list(seconds.values())}), on="board", how="inner")
    .sort("rows", "cols")
)
fig = runtime_figure(table["rows"], table["cols"], table["seconds"], runs=table["runs"])
save(fig, sm.output.png, dpi=sm.params.dpi)
save(fig, sm.output.svg)
log.info("\n%s", table.select("board", "runs", "seconds"))
