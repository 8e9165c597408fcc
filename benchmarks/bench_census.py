"""Cost of the census (every start x every order of every N x N board) against N, and a
projection of the whole census, 3 x 3 to 64 x 64, from measurements.

Usage::

    python benchmarks/bench_census.py                         # measure 16 24 32, sample 36..64
    python benchmarks/bench_census.py --boards 24 32 --sample 40 48 56 64 --orbits 3
    python benchmarks/bench_census.py --boards 12 --sample none --cores 2 32
    python benchmarks/bench_census.py --vs-c 24 --rounds 3   # whole processes against plain C

Measured boards (``--boards``), on one thread, no Dask, Parquet written as a sweep job
writes it: the whole tie-tree sweep (``knight.sweep.driver.sweep``: compute, rows,
table, Parquet), the census parts of the board (``knight.sweep.census.board_parts``),
the aggregate tables (``knight.sweep.tables.board_tables``), the Parquet bytes and the
knight steps. The compute alone (the tree searches and their rows) is timed again
separately, so that the cost of a row (table and Parquet) is known.

Sampled boards (``--sample``): the tree searches and rows of ``--orbits`` random start
orbits (every order), timed one by one; the board's compute is the mean cost of a start
times its squares. Boards neither measured nor sampled are filled in by power laws in N
fitted over the largest boards with figures (compute per square of board, bytes per
run). The wall time on P cores adds the jobs' start-up (``--job-overhead`` seconds a job:
Python, Snakemake's script, Dask; about 2.5 s measured on the 2-core machine) for one
sweep job per ``--chunk-runs`` runs (config/census.yaml) and a manifest, tables and
census job per board, and is bounded below by the compute of the largest sweep job on
at most 8 threads (the Slurm profile's --max-threads).

Against plain C (``--vs-c N``): ``knight sweep N --workers 1 --out DIR`` (every start x
every order on one worker, tie tree, Parquet written) and ``benchmarks/warnsdorff_sweep.c``
(compiled here with ``gcc -O2``: every pair walked, nothing written) run in turn as whole
processes, ``--rounds`` times each; each run's CPU seconds (user + system) and wall
seconds come from the operating system's accounting of the finished child
(``os.wait4``). Printed: the medians and the ratio C / knight, round by round (median,
min, max); the totals of both are checked to agree.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from knight.core.board import Board
from knight.core.orders import N_ORDERS
from knight.engine.rows import orbit_rows
from knight.sweep.census import board_parts
from knight.sweep.driver import sweep
from knight.sweep.spec import SweepSpec
from knight.sweep.tables import board_tables, scan_runs


def cpu() -> float:
    return time.process_time()


def measure(n: int, out: Path) -> dict:
    """Whole sweep of n x n with Parquet, its census parts and tables, and its compute alone."""
    board = Board(n, n)
    spec = SweepSpec(board)
    t0 = cpu()
    summary = sweep(spec, out)
    sweep_s = cpu() - t0
    runs = scan_runs([str(p) for p in summary.files])
    t0 = cpu()
    board_parts(runs, board)
    census_s = cpu() - t0
    t0 = cpu()
    board_tables(runs, board)
    tables_s = cpu() - t0
    t0 = cpu()
    for orbit in spec.orbits():
        orbit_rows(board, orbit, spec.ranks, "tree")
    compute_s = cpu() - t0
    size = sum(p.stat().st_size for p in summary.files)
    return dict(
        n=n,
        runs=summary.runs,
        sweep_s=sweep_s,
        compute_s=compute_s,
        census_s=census_s,
        tables_s=tables_s,
        steps=summary.steps,
        bytes_per_run=size / summary.runs,
    )


def sample(n: int, orbits: int, seed: int = 0) -> dict:
    """Tree searches and rows of ``orbits`` random start orbits of n x n (every order)."""
    board = Board(n, n)
    spec = SweepSpec(board)
    every = spec.orbits()
    rng = np.random.default_rng([seed, n])
    chosen = [every[i] for i in sorted(rng.choice(len(every), min(orbits, len(every)), replace=False).tolist())]
    t0 = cpu()
    steps = sum(int(orbit_rows(board, orbit, spec.ranks, "tree")["steps"][0]) for orbit in chosen)
    seconds = cpu() - t0
    squares = sum(len(o) for o in chosen)
    return dict(n=n, compute_s=seconds / squares * board.size, steps=steps / squares * board.size, orbits=len(chosen))


def fit(xs, ys):
    """Power law y = a * x**b through the points (least squares in log-log)."""
    b, log_a = np.polyfit(np.log(xs), np.log(ys), 1)
    return float(np.exp(log_a)), float(b)


def jobs_of(n: int, chunk_runs: int) -> tuple[int, int]:
    """(sweep jobs, runs of the largest) of the n x n board at ``chunk_runs``."""
    rows = SweepSpec(Board(n, n), chunk_runs=chunk_runs).chunk_rows()
    return len(rows), max(rows)


def child(cmd: list[str]) -> tuple[float, float, str]:
    """Run ``cmd`` as a whole process: (CPU seconds, wall seconds, its standard output)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)}: exit status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - t0, out


def vs_c(n: int, rounds: int) -> None:
    """knight sweep n (one worker, Parquet written) against the plain C sweep, in turn."""
    here = Path(__file__).resolve().parent
    knight = shutil.which("knight") or str(Path(sys.executable).with_name("knight"))
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "warnsdorff_sweep"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(here / "warnsdorff_sweep.c")], check=True)
        ours = [knight, "sweep", str(n), "--workers", "1", "--out", str(Path(tmp) / "runs")]
        plain = [str(binary), str(n)]
        child([knight, "sweep", "5", "--workers", "1"])  # loads (or compiles) the kernels
        times = {"knight": [], "C": []}
        for r in range(rounds):
            for name, cmd in sorted({"knight": ours, "C": plain}.items(), reverse=r % 2 == 1):
                cpu, wall, out = child(cmd)
                times[name].append((cpu, wall))
                if name == "C":  # "RxC runs complete closed ties steps cpu_seconds"
                    c_runs, c_complete, c_closed, _, c_steps = (int(x) for x in out.split()[1:6])
                else:
                    got = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
                    k_totals = tuple(int(got[key].replace(",", "")) for key in ("runs", "complete", "closed"))
                    k_steps = int(got["steps"])
        if k_totals != (c_runs, c_complete, c_closed):
            raise SystemExit(f"totals differ: knight {k_totals}, C {(c_runs, c_complete, c_closed)}")
    med = statistics.median
    for i, label in ((0, "CPU"), (1, "wall")):
        ratios = [c[i] / k[i] for k, c in zip(times["knight"], times["C"])]
        ours, theirs = med(t[i] for t in times["knight"]), med(t[i] for t in times["C"])
        print(
            f"{n}x{n} {label}: knight {ours:.2f} s, C {theirs:.2f} s, "
            f"C / knight {med(ratios):.1f} ({min(ratios):.1f}-{max(ratios):.1f}), {rounds} rounds",
            flush=True,
        )
    print(f"totals equal: {c_runs:,} runs, {c_complete:,} complete, {c_closed:,} closed")
    print(f"knight steps walked: knight {k_steps:,}, C {c_steps:,} ({c_steps / k_steps:.1f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, nargs="+", default=[16, 24, 32])
    ap.add_argument("--sample", nargs="+", default=[str(n) for n in range(36, 65, 4)], help="'none' to skip")
    ap.add_argument("--orbits", type=int, default=4, help="orbits timed per sampled board")
    ap.add_argument("--upto", type=int, default=64)
    ap.add_argument("--cores", type=int, nargs="+", default=[2, 32, 256])
    ap.add_argument("--chunk-runs", type=int, default=24_000_000, help="runs per sweep job (config/census.yaml)")
    ap.add_argument("--job-overhead", type=float, default=2.5, help="seconds a job spends starting")
    ap.add_argument("--vs-c", type=int, metavar="N", help="only: knight sweep N against the plain C sweep")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --vs-c")
    args = ap.parse_args()
    if args.vs_c:
        vs_c(args.vs_c, args.rounds)
        return
    sampled = [] if args.sample == ["none"] else [int(n) for n in args.sample]

    warm = SweepSpec(Board(5, 5))  # compile the kernels before timing
    sweep(warm, None)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.boards:
            r = measure(n, Path(tmp) / str(n))
            rows.append(r)
            print(
                f"{n:3d}x{n:<3d} runs {r['runs']:>12,}  sweep {r['sweep_s']:7.2f} s (compute {r['compute_s']:6.2f} s)  "
                f"census {r['census_s']:5.2f} s  tables {r['tables_s']:5.2f} s  "
                f"{r['bytes_per_run']:.2f} B/run  steps {r['steps']:,}  {r['steps'] / r['compute_s'] / 1e6:.0f} M/s",
                flush=True,
            )
    samples = []
    for n in sampled:
        s = sample(n, args.orbits)
        samples.append(s)
        print(
            f"{n:3d}x{n:<3d} sampled {s['orbits']} orbits: compute {s['compute_s']:8.1f} s for the board, "
            f"steps {s['steps']:.3g}, {s['steps'] / s['compute_s'] / 1e6:.0f} M/s",
            flush=True,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    row_s = max(np.mean([(r["sweep_s"] - r["compute_s"]) / r["runs"] for r in rows]), 0.0)
    census_per_run = np.mean([r["census_s"] / r["runs"] for r in rows])
    tables_per_run = np.mean([r["tables_s"] / r["runs"] for r in rows])
    known = {r["n"]: r["compute_s"] for r in rows} | {s["n"]: s["compute_s"] for s in samples}
    big = sorted(known)[-4:]
    a_c, b_c = fit(big, [known[n] / n**2 for n in big])
    a_b, b_b = fit([r["n"] for r in rows], [r["bytes_per_run"] for r in rows])
    print(
        f"\nrow cost (table, Parquet) {row_s * 1e9:.0f} ns/run, census parts {census_per_run * 1e9:.0f} ns/run, "
        f"tables {tables_per_run * 1e9:.0f} ns/run; compute per square ~ N^{b_c:.2f} over {big}; "
        f"Parquet ~ {a_b:.2f} * N^{b_b:.2f} B/run; this process's peak RSS {peak:.0f} MB"
    )
    compute = write = census = tables = disk = 0.0
    jobs = largest = 0
    for n in range(3, args.upto + 1):
        runs = n * n * N_ORDERS
        c = known.get(n, a_c * n ** (b_c + 2))
        compute += c
        write += runs * row_s
        census += runs * census_per_run
        tables += runs * tables_per_run
        disk += runs * a_b * n**b_b
        k, most = jobs_of(n, args.chunk_runs)
        jobs += k + 3
        largest = max(largest, most)
    total = compute + write + census + tables
    print(
        f"census 3..{args.upto}: {sum(n * n for n in range(3, args.upto + 1)) * N_ORDERS:,} runs; "
        f"{compute / 3600:.2f} core-hours of tree compute + {write / 3600:.2f} of tables and Parquet + "
        f"{(census + tables) / 3600:.2f} of census parts and board tables; about {disk / 1e9:.1f} GB of Parquet; "
        f"{jobs} jobs (largest sweep job {largest:,} runs)"
    )
    top = known.get(args.upto, a_c * args.upto ** (b_c + 2)) * largest / (args.upto**2 * N_ORDERS)
    for p in args.cores:
        wall = max((total + jobs * args.job_overhead) / p, top / min(p, 8))
        print(f"  on {p:4d} cores: about {wall / 3600:.2f} h wall ({wall / 60:.0f} min)")


if __name__ == "__main__":
    main()
