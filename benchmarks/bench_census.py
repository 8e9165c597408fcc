"""Cost of the census (every start x every order of every N x N board) against N, and its
projection to 64 x 64 on many cores.

Usage::

    python benchmarks/bench_census.py                    # boards 8..32 step 4, projection to 64
    python benchmarks/bench_census.py --boards 8 16 24 --upto 64 --cores 32 256

For each measured board, on one thread (no Dask) and with Parquet written, as a sweep
job does: the tie-tree sweep of the whole board (``knight.sweep.driver.sweep``: compute, table
assembly, Parquet), the board's aggregate tables (``knight.sweep.tables.board_tables``), the
runs, the knight steps the tree walked, and brute force's cost from one start of each of
up to 4 orbits (every start of an orbit costs the same), extrapolated to the board.
A power law fitted to the largest measured boards extends the per-board cost to every N
up to ``--upto``; the projection on P cores adds the jobs (one per ``chunk_runs`` runs,
a manifest and a tables job per board) at a per-job overhead (``--job-overhead``, the
seconds a Slurm job spends starting Snakemake) and is bounded below by the largest
board's tables job, which runs alone.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from knight.core.board import Board
from knight.core.orders import N_ORDERS
from knight.sweep.driver import DEFAULT_CHUNK_RUNS, SweepSpec, brute_orbit, sweep
from knight.sweep.tables import board_tables, scan_runs


def measure(n: int, out: Path) -> dict:
    board = Board(n, n)
    spec = SweepSpec(board)
    t0 = time.perf_counter()
    summary = sweep(spec, out)
    sweep_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    board_tables(scan_runs([str(p) for p in summary.files]), board)
    tables_s = time.perf_counter() - t0
    orbits = spec.orbits()
    sample = orbits[:: max(1, len(orbits) // 4)][:4]
    t0 = time.perf_counter()
    for orbit in sample:
        brute_orbit(board, orbit[:1], spec.ranks)
    brute_s = (time.perf_counter() - t0) / len(sample) * board.size
    size = sum(p.stat().st_size for p in summary.files)
    return dict(
        n=n,
        runs=summary.runs,
        sweep_s=sweep_s,
        tables_s=tables_s,
        brute_s=brute_s,
        steps=summary.steps,
        mb=size / 1e6,
        jobs=len(summary.files),
    )


def fit(xs, ys):
    """Power law y = a * x**b through the points (least squares in log-log)."""
    b, log_a = np.polyfit(np.log(xs), np.log(ys), 1)
    return float(np.exp(log_a)), float(b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, nargs="+", default=[8, 12, 16, 20, 24, 28, 32])
    ap.add_argument("--upto", type=int, default=64)
    ap.add_argument("--cores", type=int, nargs="+", default=[2, 32, 256])
    ap.add_argument("--job-overhead", type=float, default=8.0, help="seconds a job spends starting (Slurm: 5-8 s)")
    args = ap.parse_args()

    warm = SweepSpec(Board(5, 5))  # compile both engines' kernels before timing
    sweep(warm, None)
    brute_orbit(warm.board, warm.orbits()[0][:1], warm.ranks)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.boards:
            r = measure(n, Path(tmp) / str(n))
            rows.append(r)
            print(
                f"{n:3d}x{n:<3d} runs {r['runs']:>12,}  sweep {r['sweep_s']:8.2f} s  tables {r['tables_s']:7.2f} s  "
                f"brute (extrapolated) {r['brute_s']:9.1f} s  tree/brute {r['brute_s'] / r['sweep_s']:6.1f}x  "
                f"Parquet {r['mb']:8.1f} MB  steps {r['steps']:,}",
                flush=True,
            )
    big = rows[-3:] if len(rows) >= 3 else rows
    a_s, b_s = fit([r["n"] for r in big], [r["sweep_s"] for r in big])
    a_t, b_t = fit([r["n"] for r in big], [r["tables_s"] for r in big])
    a_m, b_m = fit([r["n"] for r in big], [r["mb"] for r in big])
    print(f"\nfit over {[r['n'] for r in big]}: sweep ~ N^{b_s:.2f}, tables ~ N^{b_t:.2f}, Parquet ~ N^{b_m:.2f}")
    measured = {r["n"]: r for r in rows}
    sweep_total = tables_total = mb_total = 0.0
    jobs = 0
    for n in range(3, args.upto + 1):
        r = measured.get(n)
        sweep_total += r["sweep_s"] if r else a_s * n**b_s
        tables_total += r["tables_s"] if r else a_t * n**b_t
        mb_total += r["mb"] if r else a_m * n**b_m
        jobs += len(SweepSpec(Board(n, n)).chunks()) + 2  # chunks, manifest, tables
    runs = sum(n * n for n in range(3, args.upto + 1)) * N_ORDERS
    longest = a_t * args.upto**b_t
    print(
        f"census 3..{args.upto}: {runs:,} runs, {jobs:,} jobs (chunk_runs {DEFAULT_CHUNK_RUNS:,}), "
        f"{sweep_total / 3600:.2f} core-hours of sweep + {tables_total / 3600:.2f} of tables, "
        f"about {mb_total / 1000:.0f} GB of Parquet; "
        f"the {args.upto}x{args.upto} tables job alone {longest / 60:.1f} min"
    )
    for p in args.cores:
        wall = max((sweep_total + tables_total + jobs * args.job_overhead) / p, longest)
        print(f"  on {p:4d} cores: about {wall / 3600:.2f} h wall ({wall / 60:.0f} min)")


if __name__ == "__main__":
    main()
