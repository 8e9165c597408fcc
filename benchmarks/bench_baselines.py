"""The refactored kernels against their copies from before (``baseline_walks.py``,
``baseline_orbits.py``), alternating in one process. Run: python benchmarks/bench_baselines.py

Each workload runs the old kernel and the new one in turn, ``--rounds`` times (the order
swapped every round, so a drift in the machine's speed weighs on both), after one untimed
call of each that compiles (or loads) them and checks that both give the same output,
array for array. Printed per workload: the median thread CPU seconds of each
(``time.thread_time``: disturbed less than wall time by the other load of a shared
machine), and the ratio new / old, median and spread (min .. max) of the per-round
ratios, and how many calls each timing made (``xK``, enough to last ``--least`` seconds).
A ratio of 1.00 is equal speed.

  --rounds R     timed rounds per workload (default 7)
  --only GROUP   walks (fixed-order and rule kernels) or orbits (the class search)
  --least S      seconds a timing lasts at least (default 0.3): short calls are repeated
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import baseline_orbits as old_orbits
import baseline_walks as old_walks
import numpy as np

from knight.core.board import Board
from knight.core.orders import all_orders
from knight.engine import brute
from knight.engine import walk as kernel
from knight.engine.layout import Outcomes, padded, padded_size
from knight.engine.squirrel_cull import schedule
from knight.engine.tiebreak import RULES, SQUIRREL_CULL, rule_code
from knight.queens import orbits


def _same(a, b, label):
    """Both outputs equal, array for array (tuples, dicts, arrays and numbers)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), label
        a, b = list(a.values()), list(b.values())
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b), label
        for x, y in zip(a, b):
            _same(x, y, label)
        return
    x, y = np.asarray(a), np.asarray(b)
    assert x.shape == y.shape and x.dtype == y.dtype and np.array_equal(x, y), label


def compare(label, old, new, rounds, least):
    """Time ``old()`` and ``new()`` in turn; print medians and the ratio new / old. Each
    timing repeats its call enough times to last about ``least`` seconds."""
    _same(old(), new(), label)  # compiles or loads both
    t0 = time.thread_time()
    old()
    repeat = max(1, int(np.ceil(least / max(time.thread_time() - t0, 1e-6))))
    times = {"old": [], "new": []}
    for r in range(rounds):
        pair = (("old", old), ("new", new)) if r % 2 == 0 else (("new", new), ("old", old))
        for name, fn in pair:
            t0 = time.thread_time()
            for _ in range(repeat):
                fn()
            times[name].append(time.thread_time() - t0)
    ratios = [n / o for n, o in zip(times["new"], times["old"])]
    print(
        f"{label:44s} old {statistics.median(times['old']):7.3f} s  new {statistics.median(times['new']):7.3f} s  "
        f"new/old {statistics.median(ratios):5.3f} ({min(ratios):5.3f} .. {max(ratios):5.3f})  x{repeat}",
        flush=True,
    )
    return statistics.median(ratios)


# --- the fixed-order kernel (knight.engine.brute) -----------------------------------
def brute_pair(board):
    starts = np.repeat(np.arange(board.size, dtype=np.uint32), 40320)
    ranks = np.tile(np.arange(40320, dtype=np.uint16), board.size)
    table = all_orders()

    def old():
        outs = Outcomes.empty(len(starts))
        steps = old_walks.brute_batch(*padded(board), starts, ranks, table, *outs)
        return steps, outs

    def new():
        outs = Outcomes.empty(len(starts))
        steps = brute.run_batch(*padded(board), starts, ranks, table, outs)
        return steps, outs

    return old, new


# --- the rule kernel (knight.engine.walk) -------------------------------------------
def _schedule(board, code):
    if code == SQUIRREL_CULL:
        orders, switches = schedule(board.rows)
        on = switches >= 0
        r, c = np.divmod(switches[on], board.cols)
        switches[on] = (r + 2) * (board.cols + 4) + c + 2
        return orders, switches
    return np.ascontiguousarray(all_orders()[:1]), np.full(1, -1, np.int64)


def rule_pair(board, rule, starts, trials, seed=1, retries=3):
    code = rule_code(rule)
    orders, switches = _schedule(board, code)
    starts = np.asarray(starts, np.uint32)
    trials = np.asarray(trials, np.uint32)
    n = len(starts) * len(trials)
    table = all_orders()
    path = np.empty(0, np.int32)

    def arrays():
        deg = np.empty(padded_size(board.rows, board.cols), np.int8)
        return deg, np.empty(n, np.uint16), np.zeros(n, np.int32), Outcomes.empty(n, np.uint32)

    def old():
        deg, attempts, used, outs = arrays()
        args = (code, board.rows, board.cols, starts, trials, orders, switches, table, np.uint64(seed), retries)
        steps = old_walks.run_batch(*args, deg, path, attempts, used, *outs)
        return steps, attempts, used, outs

    def new():
        _, attempts, used, outs = arrays()
        spec = kernel.Rule(code, kernel.Schedule(orders, switches), table, np.uint64(seed), retries)
        cells = kernel.board_cells(board, code)
        steps = kernel.run_batch(spec, board.rows, board.cols, starts, trials, cells, path, outs, attempts, used)
        return steps, attempts, used, outs

    return old, new


def pairs_pair(board, rule, starts, ranks):
    code = rule_code(rule)
    starts = np.asarray(starts, np.uint32)
    ranks = np.asarray(ranks, np.int64)
    table = all_orders()

    def arrays():
        return np.empty(padded_size(board.rows, board.cols), np.int8), Outcomes.empty(len(starts))

    def old():
        deg, outs = arrays()
        steps = old_walks.run_pairs(code, board.rows, board.cols, starts, ranks, table, deg, *outs)
        return steps, outs

    def new():
        _, outs = arrays()
        cells = kernel.board_cells(board, code)
        steps = kernel.run_pairs(code, board.rows, board.cols, starts, ranks, table, cells, outs)
        return steps, outs

    return old, new


def walks(rounds, least):
    print("\n# walks: thread CPU seconds, median of rounds; ratio new/old median (min .. max)")
    ratios = []
    b6 = Board(6, 6)
    ratios.append(compare("brute run_batch, 6x6 every (start, order)", *brute_pair(b6), rounds, least))
    b50, b8, big = Board(50, 50), Board(8, 8), Board(1000, 1000)
    many8 = np.tile(np.arange(64), 200_000 // 64)
    for rule in RULES:
        if rule != "squirrel-cull":
            old, new = rule_pair(b8, rule, many8, [0])
            ratios.append(compare(f"rules run_batch {rule}, 8x8 x 200,000", old, new, rounds, least))
        old, new = rule_pair(b50, rule, np.arange(b50.size), [0, 1])
        ratios.append(compare(f"rules run_batch {rule}, 50x50 x 2 trials", old, new, rounds, least))
        old, new = rule_pair(big, rule, [0], [0], retries=1)
        ratios.append(compare(f"rules run_batch {rule}, one 1000x1000 run", old, new, rounds, least))
    gen = np.random.default_rng(8)
    for rule in ("fixed", "pohl", "roth", "corner"):
        starts = np.repeat(np.arange(64), 2500)
        ranks = gen.integers(0, 40320, len(starts))
        ratios.append(
            compare(f"rules run_pairs {rule}, 8x8 x 160,000", *pairs_pair(b8, rule, starts, ranks), rounds, least)
        )
    return ratios


# --- the class search (knight.queens.orbits) -----------------------------------------
def orbits_pair(n, k, sym=True, stop=0, keep=False):
    old_tables = old_orbits.tables(n)
    new_tables = orbits.tables(n)
    chosen, forbidden = orbits.root(n)
    opts = orbits.DEFAULT_OPTS

    def old():
        return old_orbits.run(*old_tables, k, sym, chosen, forbidden, stop, keep, opts)

    def new():
        return orbits.run(new_tables, k, sym, chosen, forbidden, stop, keep, opts)

    return old, new


def queens(rounds, least):
    print("\n# class search: thread CPU seconds, median of rounds; ratio new/old median (min .. max)")
    ratios = []
    for n, k, sym, stop, keep in [
        (8, 5, True, 0, True),
        (11, 7, True, 0, False),
        (11, 7, False, 0, False),
        (12, 6, True, 0, True),
        (13, 7, True, 0, False),
        (14, 8, True, 3, False),
    ]:
        what = "nodes at depth 3" if stop else ("classes" if sym else "every set")
        label = f"orbits.run n={n} k={k} {what}{', kept' if keep else ''}"
        ratios.append(compare(label, *orbits_pair(n, k, sym, stop, keep), rounds, least))
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--least", type=float, default=0.3)
    ap.add_argument("--only", choices=("walks", "orbits"), default=None)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    ratios = []
    if args.only in (None, "walks"):
        ratios += walks(args.rounds, args.least)
    if args.only in (None, "orbits"):
        ratios += queens(args.rounds, args.least)
    print(
        f"\nper-workload median ratios new/old: median {statistics.median(ratios):.3f}, "
        f"min {min(ratios):.3f}, max {max(ratios):.3f} over {len(ratios)} workloads"
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
