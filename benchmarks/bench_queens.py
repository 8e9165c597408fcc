"""Queens speed figures (printed, not asserted). Run: python benchmarks/bench_queens.py [options]

Default: single-thread figures (class search against the enumeration of every set;
N-queens n=16 against a plain C bitmask solver, ``benchmarks/nqueens.c`` built with
gcc -O2) and the speed-up of the Dask split at 2 workers. CPU seconds of the thread
(``time.thread_time``) are quoted beside wall seconds: the machine is shared, and CPU
time is disturbed less by other load.

  --pruning        each pruning idea of the class search, on and off (dominate 13 7;
                   --pruning-of N:K for another instance)
  --frontier N     dominate N gamma(N) on --workers workers (default 2) with a store in
                   --store (default bench-queens/dominate-N): rerunning resumes it.
                   Issue targets: N=14 under 60 s and N=15 under one hour on 2 cores.
  --project LIST   project the wall time of dominate N gamma(N) on --cores cores (default
                   32; a list such as 32,256) from the measured cost of randomly sampled
                   search nodes, for each N of LIST (e.g. 15,16,17,18,19; N:K for K
                   queens, e.g. 20:11 beyond the published gamma); --budget seconds of
                   sampling per N
  --units-of N:K   draw --sample random units of the plan of dominate N K in --tasks
                   units (as the store and the workflow's frontier jobs deal it), search
                   each (thread CPU) and project the whole search: mean unit CPU times
                   the units, +- the standard error; with --check also count each drawn
                   unit's completions with the independent search of
                   tests/independent_queens.py and compare them, unit by unit
                   (--sample 0: every unit); --budget stops drawing after that many
                   seconds (at least 5 units); --skip S leaves out the first S units
                   drawn (they come in one fixed random order); --log FILE appends one
                   JSON line per unit
  --heavy          N-queens n=18 on 2 workers (issue target: under 3 minutes)
  --before REF:knight/queens/orbits.py
                   that module at a git ref (benchmarks/versions.py) against today's: the
                   class search of --nodes randomly drawn nodes of the plan of dominate 19
                   10 (64 units), alternating, --repeats rounds; counts and classes checked
                   equal, nodes visited printed. With --units-of N:K: each of --sample
                   units drawn as --units-of draws them, searched by the ref's module, then
                   today's (thread CPU); each unit's counts, classes and nodes printed and
                   checked equal; the ratio of the totals
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from knight.core.published import DOMINATING_CLASSES, DOMINATING_SETS, GAMMA, PLACEMENTS
from knight.queens import orbits
from knight.queens.search import (
    dominate,
    dominate_all_serial,
    dominate_serial,
    place,
    place_serial,
    warm_up,
)

HERE = Path(__file__).resolve().parent


def cpu_timed(fn):
    """``(result, wall seconds, thread CPU seconds)`` of ``fn()``."""
    w0, c0 = time.perf_counter(), time.thread_time()
    out = fn()
    return out, time.perf_counter() - w0, time.thread_time() - c0


def c_solver() -> Path | None:
    """Build ``nqueens.c`` with gcc -O2 into a temporary folder; None without gcc."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    exe = Path(tempfile.mkdtemp(prefix="bench-queens-")) / "nqueens"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(HERE / "nqueens.c")], check=True)
    return exe


def c_count(exe: Path, n: int) -> tuple[int, float]:
    out = subprocess.run([str(exe), str(n)], check=True, capture_output=True, text=True).stdout.split()
    return int(out[1]), float(out[2])


def single_thread(repeats: int) -> None:
    print("\n# single thread, whole search in one kernel call: best of repeats (wall / thread CPU)")
    for n, k in [(8, 5), (12, 6), (11, 7), (13, 7)]:
        runs = {"classes": [], "every set": []}
        for _ in range(repeats):  # alternate the two engines
            for label, fn in (("classes", dominate_serial), ("every set", dominate_all_serial)):
                r, wall, cpu = cpu_timed(lambda: fn(n, k))
                runs[label].append((cpu, wall, r))
        for label, rows in runs.items():
            cpu, wall, r = min(rows, key=lambda x: x[0])
            print(
                f"dominate n={n:2d} k={k} {label:9s} {r.solutions:>8,} sets {r.classes:>7,} classes "
                f"CPU {cpu:8.3f} s  wall {wall:8.3f} s  {r.nodes:>12,} nodes"
            )
        a = min(x[0] for x in runs["every set"]) / min(x[0] for x in runs["classes"])
        print(f"dominate n={n:2d} k={k} classes vs every set: {a:.2f}x less CPU")

    exe = c_solver()
    print("\n# N-queens, one thread: ours (mirrored half, Burnside classes) against plain C (gcc -O2)")
    for n in (14, 16):
        ours, theirs = [], []
        for _ in range(repeats if n < 16 else max(2, repeats - 1)):
            r, wall, cpu = cpu_timed(lambda: place_serial(n))
            assert r.solutions == PLACEMENTS[n]
            ours.append(cpu)
            if exe is not None:
                count, c_cpu = c_count(exe, n)
                assert count == PLACEMENTS[n]
                theirs.append(c_cpu)
        line = f"place n={n}: ours CPU best {min(ours):.3f} s (median {statistics.median(ours):.3f})"
        if theirs:
            line += (
                f"; C best {min(theirs):.3f} s (median {statistics.median(theirs):.3f}); "
                f"ours / C = {min(ours) / min(theirs):.2f} "
                f"(medians {statistics.median(ours) / statistics.median(theirs):.2f})"
            )
        else:
            line += "; gcc not found: no C baseline"
        print(line)


def speedup(repeats: int) -> None:
    from knight.runtime.cluster import dask_client

    print("\n# Dask: 64 tasks, T(p) medians, S(p) = T(1)/T(p), E(p) = S(p)/p")
    heavy = [
        ("dominate n=11 k=7", lambda c: dominate(11, 7, client=c)),
        ("dominate n=13 k=7", lambda c: dominate(13, 7, client=c)),
        ("place n=16", lambda c: place(16, client=c)),
    ]
    times = {label: {} for label, _ in heavy}
    imbalance = {}
    for _ in range(repeats):
        for p in (1, 2):
            with dask_client(p) as client:
                for label, fn in heavy:
                    r = fn(client)
                    times[label].setdefault(p, []).append(r.seconds)
                    imbalance.setdefault(label, []).append(r.imbalance)
    for label, by_p in times.items():
        t1, t2 = statistics.median(by_p[1]), statistics.median(by_p[2])
        print(
            f"{label:20s} T(1) {t1:7.3f} s  T(2) {t2:7.3f} s  S(2) {t1 / t2:5.2f}  E(2) {t1 / t2 / 2:5.2f}  "
            f"task imbalance (max/mean) {statistics.median(imbalance[label]):.2f}"
        )


def pruning(repeats: int, n: int = 13, k: int = 7) -> None:
    """Each pruning idea of the class search on and off: whole searches, alternating."""
    print(f"\n# pruning ideas, class search dominate n={n} k={k}, one thread, best CPU of {repeats}")
    base = orbits.DEFAULT_OPTS
    variants = [("default (all that paid)", base, True)]
    for bit, name in [
        (orbits.FEWEST, "fewest-candidates branching"),
        (orbits.BOUND_TWO, "bound, 2 queens left"),
        (orbits.BOUND_MORE, "bound, 3+ queens left"),
        (orbits.CHILD_CUT, "child cut"),
        (orbits.CHILD_OVERLAP, "overlap in the child cut"),
        (orbits.SECOND, "symmetry below fixed root queens"),
        (orbits.USELESS, "forbidding the queens under the need"),
    ]:
        variants.append((f"without {name}", base & ~bit, True))
    variants.append(("with the line bound", base | orbits.BOUND_LINES, True))
    variants.append(("every set, no symmetry", base, False))
    tables = orbits.tables(n)
    root = orbits.root(n)
    best = {}
    for _ in range(repeats):
        for label, opts, sym in variants:
            out, wall, cpu = cpu_timed(lambda: orbits.run(tables, k, sym, *root, 0, False, opts))
            prev = best.get(label)
            if prev is None or cpu < prev[0]:
                best[label] = (cpu, out[2], out[0], out[1])
    ref = best[variants[0][0]][0]
    for label, _, _ in variants:
        cpu, nodes, sols, cls = best[label]
        print(
            f"{label:36s} CPU {cpu:7.3f} s ({cpu / ref:5.2f}x default)  {nodes:>12,} nodes  {sols} sets {cls} classes"
        )


def frontier(n: int, workers: int, tasks: int, store: str | None) -> None:
    k = GAMMA[n]
    store = store or f"bench-queens/dominate-{n}"
    print(
        f"\n# dominate n={n} k={k} on {workers} worker(s), {tasks} units, store {store} "
        f"(load average {os.getloadavg()[0]:.2f})"
    )
    c0 = time.process_time()
    r = dominate(n, k, workers=workers, tasks=tasks, store=store)
    cpu = time.process_time() - c0
    want, want_classes = DOMINATING_SETS.get(n), DOMINATING_CLASSES.get(n)

    def check(got, published):
        return (
            "no published value"
            if published is None
            else (f"{'matches' if got == published else 'DIFFERS FROM'} {published:,}")
        )

    print(
        f"dominate n={n} k={k}: {r.solutions:,} sets (A002564: {check(r.solutions, want)}), "
        f"{r.classes:,} classes (A002563: {check(r.classes, want_classes)}), "
        f"{r.seconds:.1f} s wall, {cpu:.1f} s CPU of the process, "
        f"{r.resumed} unit(s) read back; units: {r.cpu_seconds:.1f} s CPU in all, wall seconds "
        f"mean {r.task_seconds.mean():.2f} max {r.task_seconds.max():.2f}; {r.nodes:,} nodes"
    )


def _hms(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


def project(sizes: list[tuple[int, int]], cores: list[int], budget: float, depth: int | None) -> None:
    print(f"\n# projected wall time on {cores} cores from sampled node costs (thread CPU, one thread)")
    rng = np.random.default_rng(12)
    for n, k in sizes:
        d = depth or min(3, k - 2)
        chosen, forbidden = orbits.nodes_at(n, k, d)
        order = rng.permutation(len(chosen))
        costs = []
        t_end = time.perf_counter() + budget
        for i in order:
            _, _, cpu = cpu_timed(lambda: orbits.solve(n, k, chosen[i : i + 1], forbidden[i : i + 1]))
            costs.append(cpu)
            if time.perf_counter() > t_end and len(costs) >= 5:
                break
        costs = np.asarray(costs)
        total = costs.mean() * len(chosen)
        se = costs.std(ddof=1) / np.sqrt(len(costs)) * len(chosen) if len(costs) > 1 else float("nan")
        print(
            f"dominate n={n} k={k}: {len(chosen):,} nodes at depth {d}, {len(costs)} sampled "
            f"(mean {costs.mean():.3f} s, max {costs.max():.3f} s): total {total:,.0f} +- {se:,.0f} CPU s; "
            + "".join(f"wall on {c} cores {_hms(total / c)}, " for c in cores)
            + f"on 2 cores {_hms(total / 2)}"
        )


def units_of(
    n: int, k: int, tasks: int, sample: int, check: bool, budget: float, log: str | None, skip: int = 0
) -> None:
    """Project dominate N K from randomly drawn units of its plan; optionally check each
    drawn unit against the independent search (tests/independent_queens.py)."""
    import json
    import sys

    from knight.queens.units import make_plan, solve_unit

    t0 = time.thread_time()
    plan = make_plan(n, k, tasks)
    plan_cpu = time.thread_time() - t0
    order = np.random.default_rng(20).permutation(plan.units)[skip:]
    if sample:
        order = order[:sample]
    print(
        f"dominate n={n} k={k}: plan of {plan.units} units ({plan.nodes:,} nodes at depth {plan.depth}, "
        f"{plan_cpu:.1f} s CPU to make); drawing {len(order)} unit(s){' and checking each' if check else ''}",
        flush=True,
    )
    if check:
        sys.path.insert(0, str(HERE.parent / "tests"))
        import independent_queens as ind

        cover = ind.cover_table(n)
        second = ind.second_squares(n)
    costs, agree, sets, classes = [], 0, 0, 0
    t_end = time.perf_counter() + budget
    for i in order:
        chosen, forbidden = plan.batches[i]
        res = solve_unit(n, k, chosen, forbidden)
        costs.append(res["cpu"])
        sets += res["solutions"]
        classes += res["classes"]
        row = {"n": n, "k": k, "units": plan.units, "unit": int(i), "nodes": len(chosen), "cpu": round(res["cpu"], 3)}
        row.update(solutions=res["solutions"], classes=res["classes"])
        if check:
            c0 = time.thread_time()
            found = []
            for j in range(len(chosen)):
                found += ind.completions(n, k, chosen[j], forbidden[j], cover)
            reps = ind.representatives(n, found, second)
            engine = sorted((tuple(r), o) for r, o in zip(res["representatives"], res["orbits"]))
            same = engine == reps
            agree += same
            row.update(
                completions=len(found),
                independent_classes=len(reps),
                independent_solutions=sum(o for _, o in reps),
                independent_cpu=round(time.thread_time() - c0, 3),
                agree=same,
            )
            if not same:
                print(f"unit {i}: DIFFERS: engine {engine} against independent {reps}", flush=True)
        print(json.dumps(row), flush=True)
        if log:
            with open(log, "a") as fh:
                fh.write(json.dumps(row) + "\n")
        if sample == 0:
            continue
        if time.perf_counter() > t_end and len(costs) >= 5:
            break
    costs = np.asarray(costs)
    total = costs.mean() * plan.units
    se = costs.std(ddof=1) / np.sqrt(len(costs)) * plan.units if len(costs) > 1 else float("nan")
    print(
        f"dominate n={n} k={k}: {len(costs)} of {plan.units} units drawn, unit CPU mean {costs.mean():.2f} s "
        f"(max {costs.max():.2f} s): whole search {total:,.0f} +- {se:,.0f} CPU s ({total / 3600:.2f} +- "
        f"{se / 3600:.2f} CPU-hours); in them {sets} sets in {classes} classes"
        + (f"; independent count agrees on {agree} of {len(costs)} units" if check else "")
    )


def before(path: str, repeats: int, nodes: int, n: int = 19, k: int = 10) -> None:
    """Another version of the class search against this one, on sampled plan nodes."""
    from versions import load

    from knight.queens.units import make_plan

    old = load(path)
    plan = make_plan(n, k, 64)
    chosen = np.concatenate([b[0] for b in plan.batches])
    forbidden = np.concatenate([b[1] for b in plan.batches])
    pick = np.sort(np.random.default_rng(5).choice(len(chosen), nodes, replace=False))
    args = (n, k, chosen[pick], forbidden[pick])
    a, b = old.solve(*args, sym=True, keep=True), orbits.solve(*args, sym=True, keep=True)
    if a[:2] != b[:2] or not (np.array_equal(a[3], b[3]) and np.array_equal(a[4], b[4])):
        raise SystemExit(f"before and after differ: (solutions, classes) {a[:2]} against {b[:2]}, or their classes")
    times = {"before": [], "after": []}
    for r in range(repeats):
        for name, mod in sorted({"before": old, "after": orbits}.items(), reverse=r % 2 == 1):
            times[name].append(cpu_timed(lambda: mod.solve(*args, sym=True, keep=True))[2])
    ratios = [a / b for a, b in zip(times["after"], times["before"])]
    print(
        f"dominate {n} {k}, {nodes} of the plan's {plan.nodes} nodes at depth {plan.depth} (nodes visited: "
        f"before {a[2]:,}, after {b[2]:,}): before {statistics.median(times['before']):.2f} s, "
        f"after {statistics.median(times['after']):.2f} s CPU; "
        f"after / before {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
    )


def units_before(what: str, n: int, k: int, tasks: int, sample: int, skip: int = 0) -> None:
    """Drawn units of dominate N K searched by another version of the class search, then
    by today's, unit by unit; counts checked equal."""
    from versions import load

    from knight.queens.units import make_plan

    old = load(what)
    for mod in (old, orbits):  # compile, or load from the cache, outside the timings
        mod.solve(4, 2, *mod.root(4), sym=True, keep=True)
    plan = make_plan(n, k, tasks)
    drawn = np.random.default_rng(20).permutation(plan.units)[skip:][:sample]
    print(f"dominate n={n} k={k}: {len(drawn)} of the {plan.units} units, {what} then today's", flush=True)
    total = {"before": 0.0, "after": 0.0}
    ratios = []
    for i in drawn:
        args = (n, k, *plan.batches[i])
        # The ref's module first: a bias of calling two packages in one process falls on
        # today's code (benchmarks/versions.py).
        a, _, cpu_a = cpu_timed(lambda: old.solve(*args, sym=True, keep=True))
        b, _, cpu_b = cpu_timed(lambda: orbits.solve(*args, sym=True, keep=True))
        same = a[:2] == b[:2] and np.array_equal(a[3], b[3]) and np.array_equal(a[4], b[4])
        if not same:
            raise SystemExit(f"unit {i}: (solutions, classes) {a[:2]} before, {b[:2]} after, or their classes differ")
        total["before"] += cpu_a
        total["after"] += cpu_b
        ratios.append(cpu_b / cpu_a)
        print(
            f"unit {i}: {b[0]} sets, {b[1]} classes; nodes {a[2]:,} before, {b[2]:,} after; "
            f"CPU {cpu_a:.2f} s before, {cpu_b:.2f} s after ({cpu_b / cpu_a:.3f})",
            flush=True,
        )
    print(
        f"dominate n={n} k={k}, {len(drawn)} units, counts equal unit by unit: CPU after / before "
        f"{total['after'] / total['before']:.3f} of the totals ({total['before']:.1f} s before, "
        f"{total['after']:.1f} s after), units {min(ratios):.3f}-{max(ratios):.3f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pruning", action="store_true")
    ap.add_argument("--pruning-of", default=None, metavar="N:K", help="--pruning on dominate N K (default 13:7)")
    ap.add_argument("--frontier", type=int, default=None, metavar="N")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tasks", type=int, default=256)
    ap.add_argument("--store", default=None)
    ap.add_argument("--project", default=None, metavar="LIST")
    ap.add_argument("--cores", default="32", help="cores of the projected wall times, e.g. 32,256")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--depth", type=int, default=None)
    ap.add_argument("--heavy", action="store_true")
    ap.add_argument("--units-of", default=None, metavar="N:K")
    ap.add_argument("--sample", type=int, default=20, help="units drawn by --units-of (0: every unit)")
    ap.add_argument("--check", action="store_true", help="--units-of: check each unit independently")
    ap.add_argument("--skip", type=int, default=0, help="--units-of: leave out the first drawn units")
    ap.add_argument("--log", default=None, help="--units-of: append one JSON line per unit to this file")
    ap.add_argument("--before", metavar="REF:knight/queens/orbits.py", help="the class search at a ref against today's")
    ap.add_argument("--nodes", type=int, default=8, help="plan nodes sampled for --before")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    t0 = time.perf_counter()
    warm_up()
    print(f"warm-up (compile or load numba cache): {time.perf_counter() - t0:.2f} s")
    if args.before and args.units_of:
        n, k = (int(x) for x in args.units_of.split(":"))
        units_before(args.before, n, k, args.tasks, args.sample, args.skip)
    elif args.before:
        before(args.before, args.repeats, args.nodes)
    elif args.pruning:
        pruning(args.repeats, *([int(x) for x in args.pruning_of.split(":")] if args.pruning_of else []))
    elif args.frontier:
        frontier(args.frontier, args.workers, args.tasks, args.store)
    elif args.project:
        sizes = [
            (int(x.split(":")[0]), int(x.split(":")[1]) if ":" in x else GAMMA[int(x)]) for x in args.project.split(",")
        ]
        project(sizes, [int(c) for c in args.cores.split(",")], args.budget, args.depth)
    elif args.units_of:
        n, k = (int(x) for x in args.units_of.split(":"))
        budget = args.budget if args.sample else float("inf")
        units_of(n, k, args.tasks, args.sample, args.check, budget, args.log, args.skip)
    elif args.heavy:
        from knight.runtime.cluster import dask_client

        print("\n# heavy: N-queens n=18 on 2 workers")
        with dask_client(2) as client:
            c0 = time.process_time()
            r = place(18, client=client, tasks=256)
            cpu = time.process_time() - c0
        print(
            f"place n=18 {r.solutions:,} solutions {r.classes:,} classes {r.seconds:.1f} s wall, "
            f"{cpu:.1f} s CPU of the process ({cpu / r.seconds:.2f} cores on average; "
            f"{cpu / 2:.0f} s wall with 2 free cores) (2 workers, {r.tasks} tasks)"
        )
    else:
        single_thread(args.repeats)
        speedup(args.repeats)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
