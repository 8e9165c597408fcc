"""Throughput of the brute-force kernel on the full sweep of one board.

Prints knight steps per second and runs per second for: the bare kernel on one
thread (every start x every order, ``knight.engine.brute.brute_orbit``), and the sweep
through Dask with 1 and with W worker threads (default 2), all in one process so the
ratios compare like with like on a shared machine.

``--before [REF]`` instead times the bare kernel as it was at git ref REF (default
HEAD; ``versions.py`` builds it from git) against today's, alternating in one process
for ``--repeat`` rounds, thread CPU seconds, with the rows of both compared by digest;
``--rule`` picks the rule (fixed by default; pohl, roth and corner too).

``--two BOARDS`` times the same brute force with the runs walked two at a time against
one at a time (``knight.engine.walk.TWO_FROM`` set below and above the board's size),
alternating, thread CPU, on each board of the comma-separated list: where two at a time
starts to pay sets ``TWO_FROM``.

    python benchmarks/bench_kernel.py [--board 8] [--workers 2] [--repeat 3]
    python benchmarks/bench_kernel.py --before 3881b74 --board 7 --repeat 7
    python benchmarks/bench_kernel.py --two 5,6,7,8,9 --repeat 7
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

import numpy as np
from versions import alternate, board_for, function, spread

from knight.core.board import parse_board
from knight.core.orders import N_ORDERS
from knight.engine.rows import orbit_rows
from knight.runtime.cluster import dask_client
from knight.sweep.driver import sweep
from knight.sweep.spec import SweepSpec

COLUMNS = ("start", "order", "visited", "end", "complete", "closed", "ties")


def bare_kernel(board, rule="fixed", rows_fn=None) -> tuple[int, int, str]:
    """(runs, knight steps, digest of the rows) of every start x every order under
    ``rule``, one call of ``orbit_rows`` (``rows_fn``, default today's)."""
    fn = orbit_rows if rows_fn is None else rows_fn
    board = board if rows_fn is None else board_for(rows_fn, board)
    out = fn(board, np.arange(board.size), np.arange(N_ORDERS), "brute", rule)
    digest = hashlib.blake2b(digest_size=16)
    for name in COLUMNS:
        digest.update(np.ascontiguousarray(out[name]).data)
    return len(out["start"]), int(out["steps"][0]), digest.hexdigest()


def timed_kernel(board) -> tuple[float, int, int]:
    t0 = time.perf_counter()
    runs, steps, _ = bare_kernel(board)
    return time.perf_counter() - t0, runs, steps


def dask_sweep(board, workers: int) -> tuple[float, int, int]:
    spec = SweepSpec(board, engine="brute")
    with dask_client(workers) as client:
        t0 = time.perf_counter()
        s = sweep(spec, client=client)
        return time.perf_counter() - t0, s.runs, s.steps


def before_after(board, ref: str, rule: str, rounds: int) -> None:
    """The brute-force kernel at ``ref`` against today's, alternating (module docstring)."""
    old = function(ref, "orbit_rows", "engine.rows", "engine.sweep")
    fns = {"before": lambda: bare_kernel(board, rule, old), "after": lambda: bare_kernel(board, rule)}
    rows = {name: fn() for name, fn in fns.items()}
    secs = alternate(fns, rounds)
    runs, steps = rows["after"][:2]
    med = statistics.median
    print(
        f"brute force {rule} {board.name}, every start x every order ({runs:,} runs, {steps:,} knight steps): "
        f"before {med(secs['before']):.3f} s, after {med(secs['after']):.3f} s thread CPU "
        f"({steps / med(secs['after']) / 1e6:.1f} M steps/s); after / before {spread(secs['after'], secs['before'])} "
        f"over {rounds} rounds; steps before / after {rows['before'][1]:,} / {steps:,}; "
        f"rows equal: {rows['before'][2] == rows['after'][2]}",
        flush=True,
    )


def two_against_one(boards, rule: str, rounds: int) -> None:
    """Runs two at a time against one at a time, alternating (module docstring)."""
    from knight.engine import walk

    def with_two_from(board, two_from):
        def call():
            walk.TWO_FROM = two_from
            try:
                return bare_kernel(board, rule)
            finally:
                walk.TWO_FROM = default

        return call

    default = walk.TWO_FROM
    for board in boards:
        fns = {"one": with_two_from(board, board.size + 1), "two": with_two_from(board, 0)}
        equal = fns["one"]()[2] == fns["two"]()[2]
        secs = alternate(fns, rounds)
        print(
            f"brute force {rule} {board.name}, two runs at a time / one at a time: "
            f"{spread(secs['two'], secs['one'])} of the thread CPU over {rounds} rounds; rows equal: {equal}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="8")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", metavar="REF", nargs="?", const="HEAD", help="the kernel at REF against today's")
    ap.add_argument("--rule", default="fixed", help="rule of --before and --two: fixed, pohl, roth or corner")
    ap.add_argument("--two", metavar="BOARDS", help="two runs at a time against one, on these boards")
    args = ap.parse_args()
    if args.two:
        two_against_one([parse_board(b) for b in args.two.split(",")], args.rule, args.repeat)
        return
    board = parse_board(args.board)
    if args.before:
        before_after(board, args.before, args.rule, args.repeat)
        return
    small = parse_board(5)
    bare_kernel(small)  # compile (or load the cache) outside the timings
    with dask_client(1) as c:
        sweep(SweepSpec(small, engine="brute"), client=c)

    rows = []
    for label, fn in (
        ("kernel, 1 thread", lambda: timed_kernel(board)),
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
