"""Benchmark: divide-and-conquer closed tours (target: 1000x1000 in under 10 s incl. the file).

    python benchmarks/bench_construct.py [BOARD ...] [--repeats N]

Prints, per board and method: construction time, Parquet write time, total (median of
repeats, numba code loaded beforehand), and the time of a first cold call in this process.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from knight.core.board import parse_board
from knight.exact.check import tour_problem
from knight.exact.construct import construct
from knight.exact.tour_io import write_tour


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="*", default=["1000", "1000x1002", "500x2000", "2000"])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    t0 = time.perf_counter()
    construct(parse_board(12), "seed"), construct(parse_board("12x30"), "grid")
    print(f"first calls (numba load/compile): {time.perf_counter() - t0:.2f} s")
    print(f"{'board':>11} {'method':>6} {'squares':>10} {'build s':>8} {'write s':>8} {'total s':>8} {'ok':>3}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tour.parquet"
        for spec in args.boards:
            board = parse_board(spec)
            methods = ["seed", "grid"] if abs(board.rows - board.cols) <= 2 else ["grid"]
            for method in methods:
                build, write = [], []
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    order = construct(board, method)
                    t1 = time.perf_counter()
                    write_tour(order, board, out)
                    t2 = time.perf_counter()
                    build.append(t1 - t0)
                    write.append(t2 - t1)
                ok = tour_problem(board.rows, board.cols, order, closed=True) is None
                b, w = statistics.median(build), statistics.median(write)
                print(
                    f"{board.name:>11} {method:>6} {board.size:>10,} {b:8.3f} {w:8.3f} {b + w:8.3f} "
                    f"{'yes' if ok else 'NO':>3}"
                )


if __name__ == "__main__":
    main()
