"""Tie-tree engine against brute force, side by side in one process.

Usage::

    python benchmarks/bench_tree.py                      # boards 8 12 16, e2e 12, scale 5..12, memory 32
    python benchmarks/bench_tree.py --boards 8 --e2e none --scale none --memory none
    python benchmarks/bench_tree.py --job 32 0           # one sweep job (chunk 0 of 32x32)
    python benchmarks/bench_tree.py --rules-only          # pohl, roth, corner against fixed
    python benchmarks/bench_tree.py --before 3881b74      # the tree at a commit against today's
    python benchmarks/bench_tree.py --rate 24 32 --before 3881b74   # steps per second: tree, brute, both then
    python benchmarks/bench_tree.py --pairs 601 1201      # few orders from (1, 1): tree against the pair kernel
    python benchmarks/bench_tree.py --lanes 32 64         # plain walks: one at a time against two side by side

For each board: a full sweep (every start x every order) computed by both engines,
one orbit task after another on one thread (``knight.engine.rows.orbit_rows``, no Dask, no
files), with the leaves of the tie trees and the knight steps walked by each. With
``--brute-sample K`` (default: 8 orbits on boards of 14 and more) brute force is
timed on one start of K random orbits and extrapolated linearly to the whole board
(every start of an orbit costs the same: mirror-image runs have the same lengths).
End to end (``--e2e``): ``knight.sweep.driver.sweep`` with Parquet written, no Dask client,
both engines. Scale (``--scale``): whole boards 5..12 swept by the tree engine on a
local Dask cluster (``--workers`` threads) with Parquet written, as ``knight sweep``
does. Memory (``--memory``): peak RSS of one sweep job (chunk 0, the first
``chunk_runs`` runs, on a 1-thread Dask cluster, written to Parquet, exactly what
``workflow/scripts/sweep_chunk.py`` does) measured by ``/usr/bin/time -v``.
Rules (``--rules``): full sweeps of ``pohl``, ``roth`` and ``corner`` by the tree
engine against ``fixed``, alternating, with leaves and steps. Before/after
(``--before [REF]``): the package at git ref REF (default HEAD; ``versions.py`` beside
this file builds it from git) against today's, full tree sweeps of ``--boards`` under
each rule of ``--before-rules`` (``--before-orders K``: K random orders, which the tree
searches in slice mode), alternating in one process, ``--repeats`` times (only
same-run ratios mean anything on a shared machine); thread CPU seconds; the rows of
both are compared (a digest of every column) and the knight steps each walked printed.
Step rate (``--rate BOARDS``): knight steps per CPU second of one thread, for the tie
tree (``search`` from ``--starts`` sampled orbit representatives, every order), the
brute-force kernel (the same starts, every order, ``brute_orbit``), and both as they
were at ``--before`` (default HEAD), in rotated order each round, ``--repeats`` rounds;
the ratios are taken round by round and their median, minimum and maximum printed.
Pairs (``--pairs
BOARDS``): the work of a claims scan, ``--pair-rule`` (roth) from (1, 1) under K random
orders (K = 4, 16, 64, 256), by the tie tree in slice mode and by the brute-force pair
kernel (``knight.engine.walk.pair_outcomes``), alternating, ``--repeats`` rounds: the
K below which a scan walks its orders one by one (``knight.claims.scan.PAIR_RANKS``).
Lanes (``--lanes BOARDS``): what two lanes can gain at most. Plain Warnsdorff walks
(the tie tree's step, the lowest move at a tie) from 1,000 random squares, one walk after
another against two walks advanced side by side in one loop, alternating, ``--repeats``
rounds; knight steps per CPU second.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numba as nb
import numpy as np
from versions import alternate, board_for, function, module, rotated, spread

from knight.core.board import Board, parse_board
from knight.core.orders import N_ORDERS
from knight.engine.brute import brute_orbit
from knight.engine.rows import orbit_rows
from knight.engine.step import LEVEL, enter
from knight.engine.tiebreak import ORDER_RULES
from knight.engine.tree import search, tree_orbit
from knight.sweep.driver import sweep
from knight.sweep.spec import DEFAULT_CHUNK_RUNS, SweepSpec


def warm_up() -> None:
    board = Board(5, 5)
    spec = SweepSpec(board)
    for engine in ("tree", "brute"):
        for orbit in spec.orbits()[:2]:
            orbit_rows(board, orbit, spec.ranks, engine)


class Clock:
    """Wall and CPU seconds (``time.process_time``: this process only) of a block."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def __enter__(self):
        self._w, self._c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall += time.perf_counter() - self._w
        self.cpu += time.process_time() - self._c


def compute(board: Board, brute_sample: int | None, seed: int = 0) -> dict:
    spec = SweepSpec(board)
    orbits = spec.orbits()
    runs = board.size * N_ORDERS
    # Tree: every orbit, every order.
    tree = Clock()
    tree_steps = 0
    with tree:
        for orbit in orbits:
            tree_steps += int(orbit_rows(board, orbit, spec.ranks, "tree")["steps"][0])
    leaves = sum(len(search(board, int(orbit[0]))["visited"]) for orbit in orbits)  # untimed
    # Brute: every orbit, or one start of a sample of orbits, extrapolated.
    brute = Clock()
    if brute_sample is None or brute_sample >= len(orbits):
        brute_steps = 0
        with brute:
            for orbit in orbits:
                brute_steps += int(brute_orbit(board, orbit, spec.ranks)["steps"][0])
        note = "measured"
    else:
        rng = np.random.default_rng(seed)
        sample = [orbits[i] for i in sorted(rng.choice(len(orbits), brute_sample, replace=False).tolist())]
        weight = sum(len(o) for o in sample)
        wall = cpu = steps = 0.0
        for orbit in sample:
            one = Clock()
            with one:
                s = int(brute_orbit(board, orbit[:1], spec.ranks)["steps"][0])
            wall += one.wall * len(orbit)
            cpu += one.cpu * len(orbit)
            steps += s * len(orbit)
        brute.wall = wall / weight * board.size
        brute.cpu = cpu / weight * board.size
        brute_steps = int(round(steps / weight * board.size))
        note = f"extrapolated from one start of {len(sample)}/{len(orbits)} orbits"
    return {
        "board": board.name,
        "runs": runs,
        "orbits": len(orbits),
        "tree": tree,
        "brute": brute,
        "leaves": leaves,
        "tree_steps": tree_steps,
        "brute_steps": brute_steps,
        "note": note,
    }


def end_to_end(board: Board) -> dict:
    out = {}
    for engine in ("tree", "brute"):
        tmp = tempfile.mkdtemp(prefix=f"bench_tree_{engine}_")
        try:
            clock = Clock()
            with clock:
                summary = sweep(SweepSpec(board, engine=engine), out_dir=tmp)
            out[engine] = clock
            out[f"{engine}_files"] = len(summary.files)
            out[f"{engine}_complete"] = summary.complete
            out[f"{engine}_bytes"] = sum(os.path.getsize(p) for p in summary.files)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if out["tree_complete"] != out["brute_complete"]:
        raise AssertionError("engines disagree on the number of complete runs")
    return out


def scale(names: list[str], workers: int) -> list[dict]:
    """Tree sweeps of whole boards on a local Dask cluster of ``workers`` threads, Parquet written."""
    from knight.runtime.cluster import dask_client

    rows = []
    with dask_client(workers) as client:
        for name in names:
            board = parse_board(name)
            tmp = tempfile.mkdtemp(prefix="bench_tree_scale_")
            try:
                t0 = time.perf_counter()
                summary = sweep(SweepSpec(board, engine="tree"), out_dir=tmp, client=client)
                rows.append(
                    {
                        "board": board.name,
                        "runs": summary.runs,
                        "files": len(summary.files),
                        "seconds": time.perf_counter() - t0,
                        "steps": summary.steps,
                    }
                )
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return rows


def job(board_name: str, chunk: int, chunk_runs: int, out_dir: str) -> None:
    """One sweep job, as workflow/scripts/sweep_chunk.py runs it (1 Dask worker thread)."""
    from knight.runtime.cluster import dask_client
    from knight.sweep.chunks import run_chunk
    from knight.sweep.driver import chunk_path, write_chunk
    from knight.sweep.spec import n_chunks

    board = parse_board(board_name)
    spec = SweepSpec(board, chunk_runs=chunk_runs, engine="tree")
    t0 = time.perf_counter()
    with dask_client(1) as client:
        result = run_chunk(spec, chunk, client=client)
    write_chunk(result, chunk_path(out_dir, board, chunk))
    print(
        f"job {board.name} chunk {chunk}/{n_chunks(spec)}: {result.table.num_rows} runs, "
        f"{result.steps} steps, {time.perf_counter() - t0:.1f} s"
    )


def peak_rss(board_name: str, chunk_runs: int) -> dict:
    tmp = tempfile.mkdtemp(prefix="bench_tree_mem_")
    try:
        cmd = [
            "/usr/bin/time",
            "-v",
            sys.executable,
            os.path.abspath(__file__),
            "--job",
            board_name,
            "0",
            "--chunk-runs",
            str(chunk_runs),
            "--out",
            tmp,
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    return {"board": board_name, "max_rss_mb": kb / 1024, "wall_s": wall, "job": proc.stdout.strip()}


ROW_COLUMNS = ("start", "order", "visited", "end", "complete", "closed", "ties")


def sweep_cpu(tree_orbit_fn, board: Board, orbits, ranks, **kw) -> tuple[float, int, str]:
    """Thread CPU seconds and knight steps of a full tree sweep with ``tree_orbit_fn``,
    and a digest of its rows (computed outside the timed calls)."""
    cpu = 0.0
    steps = 0
    digest = hashlib.blake2b(digest_size=16)
    board = board_for(sys.modules[tree_orbit_fn.__module__], board)  # the Board of the function's package
    for orbit in orbits:
        t0 = time.thread_time()
        out = tree_orbit_fn(board, orbit, ranks, **kw)
        cpu += time.thread_time() - t0
        steps += int(out["steps"][0])
        for name in ROW_COLUMNS:
            digest.update(np.ascontiguousarray(out[name]).data)
    return cpu, steps, digest.hexdigest()


def alternate_sweeps(board: Board, variants: dict, repeats: int, orders: int = 0) -> dict:
    """Median CPU seconds of each variant (name -> (tree_orbit, kwargs)) and the median
    over rounds of each one's ratio to the first, run alternately (order rotated); every
    order, or ``orders`` random ones (the tree's slice mode)."""
    ranks = None if not orders else np.sort(np.random.default_rng(orders).choice(N_ORDERS, orders, replace=False))
    spec = SweepSpec(board, ranks=ranks)
    orbits = spec.orbits()
    names = list(variants)
    for fn, kw in variants.values():  # compile, warm caches
        sweep_cpu(fn, board, orbits[:1], spec.ranks, **kw)
    secs = {n: [] for n in names}
    steps, rows = {}, {}
    for n in rotated(names, repeats):
        fn, kw = variants[n]
        t, steps[n], rows[n] = sweep_cpu(fn, board, orbits, spec.ranks, **kw)
        secs[n].append(t)
    first = names[0]
    return {
        n: {
            "s": statistics.median(secs[n]),
            "steps": steps[n],
            "rows": rows[n],
            "ratio": statistics.median(b / a for a, b in zip(secs[first], secs[n])),
            "spread": spread(secs[n], secs[first]),
        }
        for n in names
    }


def step_rates(board: Board, starts: int, repeats: int, ref: str, seed: int = 0) -> dict:
    """Knight steps per CPU second (this thread) of the tie tree and brute force, today's
    and at git ref ``ref``, alternating (module docstring); per variant the rates of
    every round."""
    import knight.engine.tree as tree

    old_tree = module(ref, "engine.tree")
    old_brute_orbit = function(ref, "brute_orbit", "engine.brute", "engine.sweep")
    old_board = board_for(old_tree, board)
    reps = [int(o[0]) for o in SweepSpec(board).orbits()]
    rng = np.random.default_rng(seed)
    sample = sorted(rng.choice(reps, min(starts, len(reps)), replace=False).tolist())
    ranks = np.arange(N_ORDERS)
    variants = {
        "tree": lambda: sum(tree.search(board, s)["steps"] for s in sample),
        "brute": lambda: sum(int(brute_orbit(board, np.array([s]), ranks)["steps"][0]) for s in sample),
        "tree before": lambda: sum(old_tree.search(old_board, s)["steps"] for s in sample),
        "brute before": lambda: sum(int(old_brute_orbit(old_board, np.array([s]), ranks)["steps"][0]) for s in sample),
    }
    steps: dict = {}  # each variant's knight steps, the same in every round
    secs = alternate(variants, repeats, values=steps)
    return {"sample": sample, **{n: [steps[n] / s for s in secs[n]] for n in variants}}


@nb.njit(nogil=True, cache=True)
def _plain_walks(deg0, starts, steps, offsets, level, lanes):
    """Knight steps of plain walks from padded squares ``starts`` (the lowest move at a
    tie), one at a time (``lanes`` 1) or two side by side in one loop (``lanes`` 2)."""
    steps = 0
    for i in range(0, len(starts), lanes):
        da = deg0.copy()
        db = deg0.copy()
        a = starts[i]
        b = starts[i + lanes - 1]
        ma, va = enter(da, a, steps, level)
        mb, vb = enter(db, b, steps, level) if lanes == 2 else (0, 0)
        while ma != 0 and mb != 0:
            a += offsets[np.uint64(va)]
            b += offsets[np.uint64(vb)]
            ma, va = enter(da, a, steps, level)
            mb, vb = enter(db, b, steps, level)
            steps += 2
        while ma != 0:
            a += offsets[np.uint64(va)]
            ma, va = enter(da, a, steps, level)
            steps += 1
        while mb != 0:
            b += offsets[np.uint64(vb)]
            mb, vb = enter(db, b, steps, level)
            steps += 1
    return steps


def lane_rates(board: Board, repeats: int) -> dict:
    """Knight steps per CPU second of plain walks, one lane and two (module docstring)."""
    from knight.engine.layout import BLOCKED, padded

    deg0, offsets, index = padded(board)
    deg = np.full(-(-len(deg0) // 8) * 8, BLOCKED, np.int8)
    deg[: len(deg0)] = deg0
    starts = index[np.random.default_rng(0).integers(0, board.size, 1000)].astype(np.int64)
    cell_steps = tuple(int(o) for o in offsets)
    for lanes in (1, 2):  # compiled (or loaded from numba's cache) before the clock runs
        _plain_walks(deg, starts[:2], cell_steps, offsets, LEVEL, lanes)
    rates = {1: [], 2: []}
    for r in range(repeats):
        for lanes in (1, 2) if r % 2 == 0 else (2, 1):
            t0 = time.thread_time()
            steps = _plain_walks(deg, starts, cell_steps, offsets, LEVEL, lanes)
            rates[lanes].append(steps / (time.thread_time() - t0))
    return rates


def pairs_vs_tree(board: Board, rule: str, repeats: int) -> None:
    """Print tree / pair-kernel CPU time for K random orders from (1, 1) on ``board``."""
    from knight.engine.walk import pair_outcomes

    rng = np.random.default_rng(board.rows)
    for k in (4, 16, 64, 256):
        ranks = np.sort(rng.choice(N_ORDERS, k, replace=False))
        calls = {
            "tree": lambda: search(board, 0, ranks, rule=rule)["steps"],
            "pairs": lambda: int(pair_outcomes(board, rule, np.zeros(k, np.int64), ranks)["steps"][0]),
        }
        times = {name: [] for name in calls}
        for r in range(repeats):
            for name in sorted(calls, reverse=r % 2 == 1):
                t0 = time.thread_time()
                calls[name]()
                times[name].append(time.thread_time() - t0)
        ratios = [a / b for a, b in zip(times["tree"], times["pairs"])]
        print(
            f"| {board.name} | {rule} | {k} | {statistics.median(times['tree']):.3f} "
            f"| {statistics.median(times['pairs']):.3f} | {statistics.median(ratios):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) |",
            flush=True,
        )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", nargs="*", default=["8", "12", "16"], help="boards for the compute comparison")
    p.add_argument(
        "--brute-sample",
        type=int,
        default=8,
        help="orbits sampled for brute force on boards of 14 squares a side or more (0: all)",
    )
    p.add_argument("--e2e", default="12", help="board for the end-to-end comparison ('none' to skip)")
    p.add_argument("--memory", default="32", help="board for the one-job peak RSS ('none' to skip)")
    p.add_argument(
        "--scale",
        nargs="*",
        default=[str(n) for n in range(5, 13)],
        help="boards swept whole by the tree engine on --workers Dask threads (none: skip)",
    )
    p.add_argument("--workers", type=int, default=2, help="Dask threads for --scale")
    p.add_argument(
        "--rules",
        nargs="*",
        default=["8", "12"],
        help="boards for the pohl/roth/corner against fixed comparison (none: skip)",
    )
    p.add_argument("--rules-only", action="store_true", help="only the rules comparison")
    p.add_argument(
        "--before",
        metavar="REF",
        nargs="?",
        const="HEAD",
        help="only the tree at this git ref (default HEAD) against today's (boards: --boards); with --rate, "
        "the ref of the 'before' rates",
    )
    p.add_argument("--before-rules", default="fixed", help="rules of --before (a,b,...)")
    p.add_argument("--before-orders", type=int, default=0, help="--before: this many random orders (0: all)")
    p.add_argument("--repeats", type=int, default=5, help="rounds for --rules, --before and --rate")
    p.add_argument("--rate", nargs="*", metavar="BOARD", help="only the step rates of tree, brute and tree before")
    p.add_argument("--starts", type=int, default=4, help="sampled orbit representatives for --rate")
    p.add_argument("--pairs", nargs="*", metavar="BOARD", help="only the tree against the pair kernel, few orders")
    p.add_argument("--pair-rule", default="roth", help="rule for --pairs")
    p.add_argument("--lanes", nargs="*", metavar="BOARD", help="only plain walks, one lane against two")
    p.add_argument("--chunk-runs", type=int, default=DEFAULT_CHUNK_RUNS)
    p.add_argument("--job", nargs=2, metavar=("BOARD", "CHUNK"), help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.job:
        job(args.job[0], int(args.job[1]), args.chunk_runs, args.out)
        return 0

    if args.before or args.rate:
        # The code at the ref is called first (numba's note in versions.py): any bias from
        # the order falls on today's code.
        old_rows = function(args.before or "HEAD", "orbit_rows", "engine.rows", "engine.sweep")
        for engine in ("tree", "brute"):
            old_rows(board_for(old_rows, Board(5, 5)), np.array([0]), np.arange(N_ORDERS), engine)
    warm_up()
    if args.pairs:
        print(f"## Tie tree against the pair kernel from (1, 1), CPU seconds, median of {args.repeats} rounds\n")
        print("| board | rule | orders | tree s | pairs s | tree / pairs: median (min-max) |")
        print("|---|---|---|---|---|---|")
        for name in args.pairs:
            pairs_vs_tree(parse_board(name), args.pair_rule, args.repeats)
        return 0
    if args.lanes:
        print(f"## Plain walks, knight steps per CPU second of one thread ({args.repeats} alternating rounds)\n")
        print("| board | one lane M/s | two lanes M/s | two / one: median (min-max) |")
        print("|---|---|---|---|")
        for name in args.lanes:
            r = lane_rates(parse_board(name), args.repeats)
            ratio = [b / a for a, b in zip(r[1], r[2])]
            med = statistics.median
            print(
                f"| {name} | {med(r[1]) / 1e6:.1f} | {med(r[2]) / 1e6:.1f} "
                f"| {med(ratio):.2f} ({min(ratio):.2f}-{max(ratio):.2f}) |",
                flush=True,
            )
        return 0
    if args.rate:
        ref = args.before or "HEAD"
        print(f"## Knight steps per CPU second of one thread ({args.repeats} rounds, order rotated; before: {ref})\n")
        print(
            "| board | starts | tree M/s | brute M/s | tree / brute | tree before M/s | tree / before "
            "| brute before M/s | brute / before |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for name in args.rate:
            r = step_rates(parse_board(name), args.starts, args.repeats, ref)
            med = statistics.median
            print(
                f"| {name} | {len(r['sample'])} | {med(r['tree']) / 1e6:.1f} | {med(r['brute']) / 1e6:.1f} "
                f"| {spread(r['tree'], r['brute'])} | {med(r['tree before']) / 1e6:.1f} "
                f"| {spread(r['tree'], r['tree before'])} | {med(r['brute before']) / 1e6:.1f} "
                f"| {spread(r['brute'], r['brute before'])} |",
                flush=True,
            )
        return 0
    if args.before:
        old = module(args.before, "engine.tree")
        print(f"## Before ({args.before}) / after (knight.engine.tree), full sweeps, compute only\n")
        print(f"Thread CPU seconds, median of {args.repeats} alternating rounds; ratio = after / before per round.\n")
        print("| board | rule | before s | after s | after / before: median (min-max) | knight steps before / after "
              "| rows equal |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        for name in args.boards:
            for rule in args.before_rules.split(","):
                variants = {"before": (old.tree_orbit, {"rule": rule}), "after": (tree_orbit, {"rule": rule})}
                r = alternate_sweeps(parse_board(name), variants, args.repeats, args.before_orders)
                print(
                    f"| {name} | {rule} | {r['before']['s']:.3f} | {r['after']['s']:.3f} | {r['after']['spread']} "
                    f"| {r['before']['steps']:,} / {r['after']['steps']:,} "
                    f"| {r['before']['rows'] == r['after']['rows']} |",
                    flush=True,
                )
        return 0
    if args.rules_only:
        args.boards, args.e2e, args.scale, args.memory = [], "none", ["none"], "none"
    if args.boards:
        print("## Full sweep, compute only (one thread, every start x every order)\n")
        print("Seconds as wall / CPU (this process); the ratio is brute CPU over tree CPU.\n")
        print(
            "| board | runs | tree s | brute s | brute/tree | leaves | tree steps | brute steps | steps ratio | brute |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name in args.boards:
            board = parse_board(name)
            sample = args.brute_sample if args.brute_sample and min(board.rows, board.cols) >= 14 else None
            r = compute(board, sample)
            t, b = r["tree"], r["brute"]
            print(
                f"| {r['board']} | {r['runs']:,} | {t.wall:.2f} / {t.cpu:.2f} | {b.wall:.1f} / {b.cpu:.1f} "
                f"| {b.cpu / t.cpu:.0f}x | {r['leaves']:,} | {r['tree_steps']:,} | {r['brute_steps']:,} "
                f"| {r['brute_steps'] / r['tree_steps']:.0f}x | {r['note']} |",
                flush=True,
            )
    if args.rules and args.rules != ["none"]:
        print(f"\n## Rules, tree engine, full sweeps (CPU seconds, median of {args.repeats} alternating rounds)\n")
        print("| board | rule | leaves | tree steps | seconds | / fixed (s) | / fixed (leaves) |")
        print("|---|---|---|---|---|---|---|")
        for name in args.rules:
            board = parse_board(name)
            rules = ORDER_RULES
            r = alternate_sweeps(board, {rule: (tree_orbit, {"rule": rule}) for rule in rules}, args.repeats)
            orbits = SweepSpec(board).orbits()
            leaves = {rule: sum(len(search(board, int(o[0]), rule=rule)["visited"]) for o in orbits) for rule in rules}
            for rule in rules:
                print(
                    f"| {board.name} | {rule} | {leaves[rule]:,} | {r[rule]['steps']:,} | {r[rule]['s']:.3f} "
                    f"| {r[rule]['ratio']:.2f} | {leaves[rule] / leaves['fixed']:.2f} |",
                    flush=True,
                )
    if args.e2e.lower() != "none":
        board = parse_board(args.e2e)
        r = end_to_end(board)
        t, b = r["tree"], r["brute"]
        print(f"\n## End to end, Parquet written ({board.name}, knight.sweep.driver.sweep, no Dask)\n")
        print("| board | tree s (wall / CPU) | brute s (wall / CPU) | brute/tree (wall, CPU) | files | Parquet MB |")
        print("|---|---|---|---|---|---|")
        print(
            f"| {board.name} | {t.wall:.2f} / {t.cpu:.2f} | {b.wall:.1f} / {b.cpu:.1f} "
            f"| {b.wall / t.wall:.1f}x, {b.cpu / t.cpu:.1f}x | {r['tree_files']} "
            f"| {r['tree_bytes'] / 2**20:.1f} |",
            flush=True,
        )
    if args.scale and args.scale != ["none"]:
        rows = scale(args.scale, args.workers)
        print(f"\n## Whole boards, tree engine, {args.workers} Dask threads, Parquet written\n")
        print("| board | runs | files | tree steps | seconds |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['board']} | {r['runs']:,} | {r['files']} | {r['steps']:,} | {r['seconds']:.2f} |")
        total = sum(r["seconds"] for r in rows)
        print(
            f"| total | {sum(r['runs'] for r in rows):,} | {sum(r['files'] for r in rows)} | "
            f"{sum(r['steps'] for r in rows):,} | {total:.1f} |",
            flush=True,
        )
    if args.memory.lower() != "none":
        r = peak_rss(args.memory, args.chunk_runs)
        print(f"\n## Peak memory of one job ({r['board']}, chunk 0, {args.chunk_runs:,} runs per chunk)\n")
        print(f"{r['job']}; max RSS {r['max_rss_mb']:.0f} MB (/usr/bin/time -v), wall {r['wall_s']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
