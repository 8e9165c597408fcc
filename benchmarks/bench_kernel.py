"""Throughput of the brute-force Warnsdorff kernel on the full sweep of one board.

Prints knight steps per second and runs per second for: the bare kernel on one
thread, and the sweep through Dask with 1 and with W worker threads (default 2),
all in one process so the ratios compare like with like on a shared machine.

    python benchmarks/bench_kernel.py [--board 8] [--workers 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from knight.core.board import parse_board
from knight.core.orders import all_orders
from knight.engine.brute import run_batch
from knight.engine.layout import Outcomes, padded
from knight.engine.sweep import SweepSpec
from knight.runtime.cluster import dask_client
from knight.sweep.driver import sweep


def bare_kernel(board) -> tuple[float, int, int]:
    starts = np.repeat(np.arange(board.size, dtype=np.uint32), 40320)
    ranks = np.tile(np.arange(40320, dtype=np.uint16), board.size)
    n = len(starts)
    out = Outcomes.empty(n)
    t0 = time.perf_counter()
    steps = run_batch(*padded(board), starts, ranks, all_orders(), out)
    return time.perf_counter() - t0, n, int(steps)


def dask_sweep(board, workers: int) -> tuple[float, int, int]:
    spec = SweepSpec(board, engine="brute")
    with dask_client(workers) as client:
        t0 = time.perf_counter()
        s = sweep(spec, client=client)
        return time.perf_counter() - t0, s.runs, s.steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="8")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    board = parse_board(args.board)
    small = parse_board(5)
    bare_kernel(small)  # compile (or load the cache) outside the timings
    with dask_client(1) as c:
        sweep(SweepSpec(small, engine="brute"), client=c)

    rows = []
    for label, fn in (
        ("kernel, 1 thread", lambda: bare_kernel(board)),
        ("dask, 1 worker", lambda: dask_sweep(board, 1)),
        (f"dask, {args.workers} workers", lambda: dask_sweep(board, args.workers)),
    ):
        times = []
        for _ in range(args.repeat):
            sec, runs, steps = fn()
            times.append(sec)
        sec = statistics.median(times)
        rows.append((label, sec, runs, steps))
    print(
        f"full brute-force sweep of {board.name}: {rows[0][2]:,} runs, {rows[0][3]:,} knight steps "
        f"(median of {args.repeat})"
    )
    print(f"{'':22} {'seconds':>9} {'Msteps/s':>9} {'Mruns/s':>8} {'speed-up':>8}")
    base = rows[1][1]
    for label, sec, runs, steps in rows:
        print(f"{label:22} {sec:9.3f} {steps / sec / 1e6:9.1f} {runs / sec / 1e6:8.3f} {base / sec:8.2f}")


if __name__ == "__main__":
    main()
