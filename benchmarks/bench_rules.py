"""Speed of the tie-break rule kernel (knight.engine.walk), all figures in one run.

1. One 1000 x 1000 run per rule from square 0, in process (median of 3, compiled).
2. Knight steps per second per rule beside the brute-force pair kernel under ``fixed``
   (knight.engine.walk.pair_outcomes, order 12345678) on the same workload: every start of a 50 x 50 board,
   and 200,000 runs on 8 x 8 (every start, repeated) for the small-board case. The
   timings alternate kernel by kernel; medians of 3.
3. The table-57 workload (every start of an N x N board under ``fixed``, order
   12345678): a sample of starts of N = 100, 150, ..., 300 on 1 thread, and the N = 300
   sample split over 2 threads. Extrapolation: an upper bound of sum N^4 steps (every
   run complete) over even N <= 300, divided by the slowest measured rate.
4. Squirrel-Cull for every m = 5..M (default 2000) on T threads (default 2), largest
   boards first; lists every m without a full tour.
5. Peak RSS of one 10,000 x 10,000 ``fixed`` run in a subprocess (``/usr/bin/time -v``
   when present, else the child's getrusage), beside the same process on a 5 x 5 board.

``--layouts RULES`` instead runs each rule of RULES (e.g. ``squirrel-cull,roth``) from
(1, 1) on each board of ``--boards`` with the board row by row and in tiles
(:mod:`knight.engine.layout`; the kernel itself tiles from ``TILED_ROWS`` rows), alternating
for ``--rounds`` rounds, rows checked equal: thread CPU (setting up the board included).

``--two RULES`` instead times runs two at a time (knight.engine.walk's ``_walk_two``)
against one at a time, alternating for ``--rounds`` rounds, rows checked equal, thread
CPU: for each board of ``--boards``, two runs from (1, 1) of each rule (trials 0 and 1,
one board: a second degree array) and one run on this board beside one on the next
smaller board (``two_board_outcomes``, as the studies pair one-run boards).

``--before [REF]`` instead runs the rule kernel as it was at git ref REF (default HEAD;
``versions.py`` builds it from git) against today's, in one process: per rule, one run
from (1, 1) on each board of ``--boards`` (``big``), every start of 50 x 50 under trials 0
and 1 (``50``), 200,000 runs on 8 x 8 (``8``), and for the rules of a tie order 160,000
(start, order) pairs on 8 x 8 (``pairs``: ``pair_outcomes``, the brute-force pair kernel);
``--workloads`` picks among them. The two alternate for ``--rounds`` rounds, each timing
repeated to last ``--least`` seconds, rows checked equal; thread CPU time, after / before
as a median and a range.

    python benchmarks/bench_rules.py [--threads 2] [--sc-max 2000] [--big 10000]
    python benchmarks/bench_rules.py --before 3881b74 [--boards 2001,4001] [--rounds 5]
    python benchmarks/bench_rules.py --two squirrel-cull,roth-random,fixed,roth --boards 1001,2001,6001
    python benchmarks/bench_rules.py --layouts squirrel-cull,roth --boards 2001,6001,10000 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from versions import alternate, board_for, module, spread

from knight.core.board import Board
from knight.core.orders import all_orders
from knight.engine.layout import Outcomes
from knight.engine.tiebreak import ORDER_RULES
from knight.engine.walk import RULES, outcomes, pair_outcomes


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def brute(board: Board, starts: np.ndarray) -> int:
    """Knight steps of ``fixed`` from ``starts`` by the (start, order) pair kernel."""
    return int(pair_outcomes(board, "fixed", starts, np.zeros(len(starts), np.int64))["steps"][0])


def rule_steps(board: Board, rule: str, starts: np.ndarray) -> int:
    return int(outcomes(board, rule, starts, seed=1, retries=3)["steps"][0])


def warm(run=outcomes) -> None:
    """Compile (or load from numba's cache) every rule of ``run``, an ``outcomes``."""
    for rule in RULES:
        run(Board(8, 8), rule, [0, 1], seed=1, retries=2)
    brute(Board(5, 5), np.arange(2))


def big_runs() -> None:
    board = Board(1000, 1000)
    print("1. one 1000x1000 run from square 0 (median of 3)")
    print(f"   {'rule':14s} {'seconds':>8s} {'visited':>9s} {'Msteps/s':>9s}")
    for rule in RULES:
        times = []
        for _ in range(3):
            dt, out = timed(lambda: outcomes(board, rule, [0], seed=1, retries=1))
            times.append(dt)
        t = statistics.median(times)
        print(f"   {rule:14s} {t:8.4f} {int(out['visited'][0]):9d} {int(out['steps'][0]) / t / 1e6:9.1f}")


def throughput(board: Board, starts: np.ndarray, label: str) -> None:
    print(f"2. {label}: {len(starts):,} runs, million knight steps per second (median of 3)")
    names = ["brute pairs (fixed)"] + list(RULES)
    fns = [lambda: brute(board, starts)] + [(lambda r=r: rule_steps(board, r, starts)) for r in RULES]
    times = {n: [] for n in names}
    steps = {}
    for _ in range(3):
        for name, fn in zip(names, fns):
            dt, s = timed(fn)
            times[name].append(dt)
            steps[name] = s
    base = steps[names[0]] / statistics.median(times[names[0]])
    for name in names:
        rate = steps[name] / statistics.median(times[name])
        print(f"   {name:24s} {rate / 1e6:7.1f}   x{rate / base:4.2f} of brute")


def table57(threads: int) -> None:
    gen = np.random.default_rng(57)
    print("3. table-57 workload: every start of N x N under fixed (sample of 64 starts a board)")
    rates = {}
    for n in (100, 150, 200, 250, 300):
        board = Board(n, n)
        starts = gen.choice(board.size, 64, replace=False)
        brute_dt, brute_steps = timed(lambda: brute(board, starts))
        dt, out = timed(lambda: outcomes(board, "fixed", starts))
        steps = int(out["steps"][0])
        rates[n] = steps / dt
        print(
            f"   N={n}: {steps / dt / 1e6:6.1f} M steps/s (brute {brute_steps / brute_dt / 1e6:5.1f}), "
            f"mean visited {out['visited'].mean() / n**2:.3f} of the board"
        )
    board = Board(300, 300)
    starts = gen.choice(board.size, 64 * threads, replace=False)
    parts = np.array_split(starts, threads)
    with ThreadPoolExecutor(threads) as ex:
        dt, res = timed(lambda: list(ex.map(lambda s: outcomes(board, "fixed", s)["steps"][0], parts)))
    rate2 = int(sum(res)) / dt
    print(f"   N=300 on {threads} threads: {rate2 / 1e6:.1f} M steps/s together")
    total = sum(n**4 for n in range(6, 301, 2))
    slow = min(rates.values())
    print(
        f"   all starts of every even N in 6..300: at most {total:.3g} steps; "
        f"at the slowest 1-thread rate {slow / 1e6:.1f} M/s: {total / slow / 60:.1f} min on 1 core, "
        f"{total / slow / threads / 60:.1f} min on {threads} cores if threads scale; "
        f"at the measured {threads}-thread rate: {total / rate2 / 60:.1f} min"
    )


def squirrel_cull(sc_max: int, threads: int) -> None:
    def one(m):
        out = outcomes(Board(m, m), "squirrel-cull", [0])
        return m, int(out["visited"][0]), int(out["steps"][0])

    ms = list(range(sc_max, 4, -1))
    with ThreadPoolExecutor(threads) as ex:
        dt, res = timed(lambda: list(ex.map(one, ms)))
    steps = sum(r[2] for r in res)
    bad = sorted((m, v) for m, v, _ in res if v != m * m)
    print(
        f"4. squirrel-cull, every m = 5..{sc_max} from (1, 1) on {threads} threads: "
        f"{dt:.1f} s wall, {steps:.3g} steps, {steps / dt / 1e6:.1f} M steps/s together"
    )
    if bad:
        for m, v in bad:
            print(f"   m={m}: no full tour, {v} of {m * m} squares covered ({m * m - v} left)")
    else:
        print("   every m gives a full tour")


def peak_rss(n: int) -> None:
    code = (
        "import sys, time; from knight.core.board import Board; from knight.engine.walk import outcomes; "
        "n = int(sys.argv[1]); t = time.perf_counter(); "
        "o = outcomes(Board(n, n), 'fixed', [0]); "
        "print('RESULT', time.perf_counter() - t, int(o['visited'][0]))"
    )
    print(f"5. one {n}x{n} fixed run from square 0 in a subprocess")
    timer = shutil.which("time") if os.path.exists("/usr/bin/time") else None
    for size in (5, n):
        cmd = [sys.executable, "-c", code, str(size)]
        if timer:
            proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
            rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
        else:
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            proc = subprocess.run(cmd, capture_output=True, text=True)
            rss_kb = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
        m = re.search(r"RESULT (\S+) (\d+)", proc.stdout)
        if not m:
            print(proc.stdout, proc.stderr)
            raise SystemExit(f"the {size}x{size} subprocess failed")
        print(
            f"   {size}x{size}: peak RSS {rss_kb / 1024:.0f} MiB, run {float(m.group(1)):.2f} s, "
            f"{int(m.group(2)):,} of {size * size:,} squares visited"
        )


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def _compare(label: str, calls: dict, rounds: int, least: float) -> float:
    """Time ``calls["before"]`` and ``calls["after"]`` alternating (rows checked equal),
    each timing repeating its call to last about ``least`` seconds; print and return the
    median ratio after / before."""
    rows = {name: fn() for name, fn in calls.items()}
    if not _same(rows["before"], rows["after"]):
        raise SystemExit(f"{label}: before and after give different rows")
    t0 = time.thread_time()
    calls["before"]()
    repeat = max(1, int(np.ceil(least / max(time.thread_time() - t0, 1e-6))))
    secs = alternate({n: (lambda fn=fn: [fn() for _ in range(repeat)]) for n, fn in calls.items()}, rounds)
    steps = int(rows["after"]["steps"][0]) * repeat
    med = statistics.median
    print(
        f"{label:44s} before {med(secs['before']):7.3f} s  after {med(secs['after']):7.3f} s "
        f"({steps / med(secs['after']) / 1e6:6.1f} M steps/s)  after / before {spread(secs['after'], secs['before'])}"
        f"  x{repeat}",
        flush=True,
    )
    return med(a / b for a, b in zip(secs["after"], secs["before"]))


WORKLOADS = ("big", "50", "8", "pairs")


def before(ref: str, sides: list[int], rounds: int, least: float, workloads=WORKLOADS, rules=RULES) -> None:
    """The rule kernel at git ref ``ref`` against today's, alternating, same rows: one run
    from (1, 1) per rule on each board of ``sides`` (big), every start of 50 x 50 under
    trials 0 and 1 (50), 200,000 runs on 8 x 8 (8), and 160,000 (start, order) pairs on 8 x 8
    per rule of a tie order (pairs)."""
    from knight.engine import walk as kernel

    kernels = {"before": module(ref, "engine.walk"), "after": kernel}
    print(f"\n# rule kernel at {ref} / today, thread CPU, {rounds} rounds alternating; after / before median (min-max)")
    ratios = []

    def both(fn):
        return {name: (lambda mod=mod: fn(mod)) for name, mod in kernels.items()}

    b50, b8 = Board(50, 50), Board(8, 8)
    many8 = np.tile(np.arange(64), 200_000 // 64)
    for rule in rules:
        run = dict(seed=1, retries=3)
        for side in sides if "big" in workloads else []:
            board = Board(side, side)
            calls = both(lambda m, b=board, r=rule: m.outcomes(board_for(m, b), r, [0], **run))
            ratios.append(_compare(f"{rule}, one {side}x{side} run", calls, rounds, least))
        if "50" in workloads:
            calls = both(lambda m, r=rule: m.outcomes(board_for(m, b50), r, np.arange(b50.size), 2, **run))
            ratios.append(_compare(f"{rule}, 50x50 every start x 2 trials", calls, rounds, least))
        if "8" in workloads and rule != "squirrel-cull":
            calls = both(lambda m, r=rule: m.outcomes(board_for(m, b8), r, many8, **run))
            ratios.append(_compare(f"{rule}, 8x8 x 200,000 runs", calls, rounds, least))
    gen = np.random.default_rng(8)
    for rule in [r for r in ORDER_RULES if r in rules] if "pairs" in workloads else ():
        starts = np.repeat(np.arange(64), 2500)
        ranks = gen.integers(0, 40320, len(starts))
        calls = both(lambda m, r=rule, s=starts, k=ranks: m.pair_outcomes(board_for(m, b8), r, s, k))
        ratios.append(_compare(f"{rule} pairs, 8x8 x 160,000", calls, rounds, least))
    print(
        f"\nper-workload median ratios after / before: median {statistics.median(ratios):.3f}, "
        f"min {min(ratios):.3f}, max {max(ratios):.3f} over {len(ratios)} workloads"
    )


def _cells(board: Board, code: int, in_tiles: bool):
    """The rule kernel's Cells of ``board`` in the layout asked for, whatever its size."""
    from knight.engine import walk as kernel
    from knight.engine.layout import cell_count, tile_steps
    from knight.engine.tiebreak import rule_code

    n = cell_count(board.rows, board.cols, in_tiles)
    tiles = tile_steps(board.cols) if in_tiles else np.empty(0, np.int64)
    roth = code in (rule_code("roth"), rule_code("roth-random"))
    return kernel.Cells(np.empty(n, np.int8), np.zeros(n if roth else 0, np.int8), tiles, np.empty(0, np.int8))


def _layout_run(board: Board, rule: str, in_tiles: bool):
    """One run from square 0 with the board row by row or in tiles: (thread seconds, row)."""
    from knight.engine import walk as kernel
    from knight.engine.layout import tile_cols, tiled_cell
    from knight.engine.squirrel_cull import schedule
    from knight.engine.tiebreak import rule_code

    code = rule_code(rule)
    if rule == "squirrel-cull":
        orders, switches = schedule(board.rows)
        on = switches >= 0
        r, c = np.divmod(switches[on], board.cols)
        switches[on] = (
            tiled_cell.py_func(r + 2, c + 2, tile_cols(board.cols)) if in_tiles else (r + 2) * (board.cols + 4) + c + 2
        )
    else:
        orders, switches = np.arange(8, dtype=np.uint8)[None, :], np.full(1, -1, np.int64)
    spec = kernel.Rule(code, kernel.Schedule(orders, switches), all_orders(), np.uint64(1), 3)
    out = Outcomes.empty(1, np.uint32)
    t0 = time.thread_time()
    cells = _cells(board, code, in_tiles)
    steps = kernel.run_batch(
        spec,
        board.rows,
        board.cols,
        np.zeros(1, np.uint32),
        np.zeros(1, np.uint32),
        cells,
        np.empty(0, np.int32),
        out,
        np.empty(1, np.uint16),
        np.empty(1, np.int32),
    )
    return time.thread_time() - t0, (int(out.visited[0]), int(out.end[0]), int(out.ties[0]), int(steps))


def layouts(sides: list[int], rounds: int, rules: list[str]) -> None:
    """The board row by row against in tiles (knight.engine.layout), whatever the board's size."""
    for rule in rules:
        _layout_run(Board(8, 8), rule, False), _layout_run(Board(8, 8), rule, True)
    print(f"\n# rule kernel, board in tiles / row by row, thread CPU, one run from (1, 1), {rounds} rounds alternating")
    for side in sides:
        board = Board(side, side)
        for rule in rules:
            secs = {False: [], True: []}
            rows = {}
            for r in range(rounds):
                for in_tiles in (False, True) if r % 2 == 0 else (True, False):
                    dt, rows[in_tiles] = _layout_run(board, rule, in_tiles)
                    secs[in_tiles].append(dt)
            if rows[False] != rows[True]:
                raise SystemExit(f"{rule} on {side}x{side}: the two layouts give different rows")
            rate = {k: rows[k][3] / statistics.median(v) / 1e6 for k, v in secs.items()}
            ratios = [a / b for a, b in zip(secs[False], secs[True])]
            print(
                f"{rule:>14} {side}x{side}: row by row {rate[False]:.1f} M steps/s, in tiles {rate[True]:.1f}; "
                f"speed-up {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
            )


def _one_board(board: Board, rule: str, two: bool):
    """Trials 0 and 1 from square 0, two at a time or one at a time: (thread seconds, rows, steps)."""
    from knight.engine import walk as kernel

    code = kernel.rule_code(rule)
    orders, switches, _ = kernel._schedule(board, code, "12345678")
    spec = kernel.Rule(code, kernel.Schedule(orders, switches), all_orders(), np.uint64(1), 1)
    out = Outcomes.empty(2, np.uint32)
    t0 = time.thread_time()
    cells = kernel.board_cells(board, code, 2 if two else 1)
    trials = np.arange(2, dtype=np.uint32)
    no_path, attempts, used = np.empty(0, np.int32), np.empty(2, np.uint16), np.empty(2, np.int32)
    steps = kernel.run_batch(
        spec, board.rows, board.cols, np.zeros(1, np.uint32), trials, cells, no_path, out, attempts, used
    )
    return time.thread_time() - t0, [(int(out.visited[i]), int(out.end[i]), int(out.ties[i])) for i in range(2)], steps


def _two_boards(boards: list[Board], rule: str, two: bool):
    """One run from square 0 on each board, side by side or in turn: (thread seconds, rows, steps)."""
    from knight.engine.walk import outcomes, two_board_outcomes

    t0 = time.thread_time()
    if two:
        res = two_board_outcomes(boards, rule, [0, 0], seed=1)
    else:
        res = [outcomes(b, rule, [0], seed=1) for b in boards]
    rows = [(int(r["visited"][0]), int(r["end"][0]), int(r["ties"][0])) for r in res]
    return time.thread_time() - t0, rows, sum(int(r["steps"][0]) for r in res)


def two_at_a_time(sides: list[int], rounds: int, rules: list[str]) -> None:
    """Runs two at a time against one at a time, alternating; rows checked equal."""
    for rule in rules:
        _one_board(Board(8, 8), rule, True), _one_board(Board(8, 8), rule, False)
        _two_boards([Board(8, 8), Board(7, 7)], rule, True)
    print(f"\n# rule kernel, two runs at a time / one at a time, thread CPU, {rounds} rounds alternating")
    for side in sides:
        for rule in rules:
            for what, fn, arg in (
                ("one board, trials 0 and 1", _one_board, Board(side, side)),
                (
                    f"{side}x{side} beside {side - 1}x{side - 1}",
                    _two_boards,
                    [Board(side, side), Board(side - 1, side - 1)],
                ),
            ):
                secs = {False: [], True: []}
                rows = {}
                for r in range(rounds):
                    for two in (False, True) if r % 2 == 0 else (True, False):
                        dt, rows[two], steps = fn(arg, rule, two)
                        secs[two].append(dt)
                if rows[False] != rows[True]:
                    raise SystemExit(f"{rule} on {side}x{side}: two at a time gives different rows")
                ratios = [a / b for a, b in zip(secs[False], secs[True])]
                print(
                    f"{rule:>14} {side}x{side} {what}: {steps / statistics.median(secs[True]) / 1e6:.1f} M steps/s "
                    f"two at a time, {steps / statistics.median(secs[False]) / 1e6:.1f} one at a time; speed-up "
                    f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sc-max", type=int, default=2000)
    ap.add_argument("--big", type=int, default=10000, help="side of the peak-RSS board (0: skip)")
    ap.add_argument(
        "--before", metavar="REF", nargs="?", const="HEAD", help="the kernel at git ref REF against today's"
    )
    ap.add_argument("--boards", default="2001,4001", help="board sides for --before, e.g. 2001,4001")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds for --before")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="workloads of --before (module docstring)")
    ap.add_argument("--least", type=float, default=0.3, help="--before: seconds a timing lasts at least")
    ap.add_argument("--rules", default=",".join(RULES), help="--before: the rules timed (a,b,...)")
    ap.add_argument("--layouts", metavar="RULES", help="row by row against in tiles for these rules (a,b,...)")
    ap.add_argument("--two", metavar="RULES", help="two runs at a time against one at a time (a,b,...)")
    args = ap.parse_args()
    if args.two:
        two_at_a_time([int(x) for x in args.boards.split(",")], args.rounds, args.two.split(","))
        return
    if args.layouts:
        layouts([int(x) for x in args.boards.split(",")], args.rounds, args.layouts.split(","))
        return
    if args.before:
        sides = [int(x) for x in args.boards.split(",") if x]
        before(args.before, sides, args.rounds, args.least, args.workloads.split(","), args.rules.split(","))
        return
    warm()
    big_runs()
    b50 = Board(50, 50)
    throughput(b50, np.arange(b50.size), "every start of 50x50")
    b8 = Board(8, 8)
    throughput(b8, np.tile(np.arange(64), 200_000 // 64), "8x8, every start repeated")
    table57(args.threads)
    squirrel_cull(args.sc_max, args.threads)
    if args.big:
        peak_rss(args.big)


if __name__ == "__main__":
    main()
