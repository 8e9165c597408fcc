"""Bytes a run of the sweep's runs files, column by column, against the columns' entropy.

Usage::

    python benchmarks/bench_storage.py                    # boards 16 24 32 48 64, 4 orbits each
    python benchmarks/bench_storage.py --boards 32 --orbits 8

For each board, ``--orbits`` random start orbits (every start of each, every order: whole
starts, as a sweep job holds them) are computed by the tie tree and written as one runs
file is written (``knight.engine.runs_table.RUNS_PARQUET``, rows sorted by start, then order).
Printed per column: the bytes a run it takes in that file (each column written alone
with its own options), the bytes a run of other encodings (``--alternatives``), and
its zero-order entropy given the start, in bytes a run: H(column | start), the least
that any coding of the column's values one by one can reach when it knows the start
(the rows follow no pattern in the order of ranks that a coder could use instead:
consecutive ranks share their outcome on 2 % of the rows of 32 x 32). The sum of the
columns' entropies is the floor of a file that stores the columns separately, as
Parquet does; the joint entropy of all columns given the start is printed beside it.
"""

from __future__ import annotations

import argparse
import io

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from knight.core.board import Board
from knight.engine.rows import orbit_rows
from knight.engine.runs_table import RUNS_PARQUET, to_table
from knight.sweep.spec import SweepSpec

COLUMNS = ("start", "order", "visited", "end", "complete", "closed", "ties")
#: Other encodings tried per column (writer keywords for that column alone).
ALTERNATIVES = {
    "visited": {"plain": {"use_dictionary": False, "column_encoding": {"visited": "PLAIN"}}},
    "end": {"dictionary": {"use_dictionary": ["end"], "column_encoding": None}},
    "complete": {"plain": {"use_dictionary": False, "column_encoding": {"complete": "PLAIN"}}},
    "closed": {"plain": {"use_dictionary": False, "column_encoding": {"closed": "PLAIN"}}},
    "ties": {"byte-stream-split": {"use_dictionary": False, "column_encoding": {"ties": "BYTE_STREAM_SPLIT"}}},
}


def written(table, **options) -> int:
    """Bytes of ``table`` written to Parquet with ``options``."""
    buf = io.BytesIO()
    pq.write_table(table, buf, **options)
    return buf.tell()


def column_options(name: str) -> dict:
    """The runs file's options restricted to column ``name``."""
    options = dict(RUNS_PARQUET)
    options["use_dictionary"] = [c for c in RUNS_PARQUET["use_dictionary"] if c == name]
    options["column_encoding"] = {c: e for c, e in RUNS_PARQUET["column_encoding"].items() if c == name} or None
    return options


def entropy(frame: pl.DataFrame, columns: list[str]) -> float:
    """H(columns | start) in bits a row."""

    def h(cols):
        counts = frame.group_by(cols).len()["len"].to_numpy().astype(float)
        p = counts / counts.sum()
        return float(-(p * np.log2(p)).sum())

    return h(["start", *columns]) - h(["start"])


def sample(n: int, orbits: int, seed: int = 0):
    """Runs table of ``orbits`` random start orbits of n x n, every order."""
    board = Board(n, n)
    spec = SweepSpec(board)
    every = spec.orbits()
    rng = np.random.default_rng([seed, n])
    chosen = [every[i] for i in sorted(rng.choice(len(every), min(orbits, len(every)), replace=False).tolist())]
    return to_table(board, [orbit_rows(board, o, spec.ranks, "tree") for o in chosen], len(spec.ranks))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, nargs="+", default=[16, 24, 32, 48, 64])
    ap.add_argument("--orbits", type=int, default=4, help="random start orbits per board")
    args = ap.parse_args()
    for n in args.boards:
        table = sample(n, args.orbits)
        rows = table.num_rows
        frame = pl.from_arrow(table)
        total = written(table, **RUNS_PARQUET) / rows
        floor = 0.0
        print(f"\n## {n} x {n}: {rows:,} runs, {total:.3f} bytes a run as written\n")
        print("| column | bytes a run | entropy given the start | other encodings |")
        print("|---|---|---|---|")
        for name in COLUMNS:
            size = written(table.select([name]), **column_options(name)) / rows
            bits = entropy(frame, [name]) if name not in ("start", "order") else 0.0
            floor += bits / 8
            others = ", ".join(
                f"{label} {written(table.select([name]), **dict(column_options(name), **opts)) / rows:.3f}"
                for label, opts in ALTERNATIVES.get(name, {}).items()
            )
            print(f"| {name} | {size:.3f} | {bits / 8:.3f} | {others} |", flush=True)
        joint = entropy(frame, ["visited", "end", "closed", "ties"]) / 8
        print(f"\ncolumns' entropies summed: {floor:.3f} bytes a run; all columns jointly: {joint:.3f}")


if __name__ == "__main__":
    main()
