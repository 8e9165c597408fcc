"""Queens speed figures (printed, not asserted). Run: python benchmarks/bench_queens.py [--heavy]

Targets (issue): domination n=8 k=5 under 0.1 s on one thread after compilation;
n=12 k=6 in minutes at most on 2 cores; N-queens n=16 under 10 s on one thread;
efficiency at 2 workers at least 0.85 on the heavy instances. ``--heavy`` adds
N-queens n=18 on 2 workers (several minutes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from knight.cluster import dask_client
from knight.queens import dominate, dominate_serial, place, place_serial
from knight.queens.search import warm_up


def best_of(fn, repeats):
    times, result = [], None
    for _ in range(repeats):
        result = fn()
        times.append(result.seconds)
    return min(times), statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--heavy", action="store_true", help="also N-queens n=18 on 2 workers")
    ap.add_argument("--parallel-only", action="store_true", help="skip the single-thread figures")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    t0 = time.perf_counter()
    warm_up()
    print(f"warm-up (compile or load numba cache): {time.perf_counter() - t0:.2f} s")

    print("\n# single thread, whole search in one kernel call (best / median of repeats)")
    for label, fn, reps in [] if args.parallel_only else [
        ("dominate n=8 k=5", lambda: dominate_serial(8, 5), 10),
        ("dominate n=12 k=6", lambda: dominate_serial(12, 6), args.repeats),
        ("dominate n=13 k=7", lambda: dominate_serial(13, 7), 1),
        ("place n=14", lambda: place_serial(14), args.repeats),
        ("place n=16", lambda: place_serial(16), args.repeats if args.repeats < 3 else 2),
    ]:
        best, med, r = best_of(fn, reps)
        print(f"{label:20s} {r.solutions:>12,} solutions {r.classes:>10,} classes "
              f"best {best:8.3f} s  median {med:8.3f} s  ({r.nodes:,} nodes)")

    print("\n# Dask: 64 tasks, T(p) medians, S(p) = T(1)/T(p), E(p) = S(p)/p")
    heavy = [("dominate n=12 k=6", lambda c: dominate(12, 6, client=c)),
             ("dominate n=11 k=7", lambda c: dominate(11, 7, client=c)),
             ("dominate n=13 k=7", lambda c: dominate(13, 7, client=c)),
             ("place n=16", lambda c: place(16, client=c))]
    times = {label: {} for label, _ in heavy}
    cpu = {label: {} for label, _ in heavy}
    imbalance = {}
    for rep in range(args.repeats):
        for p in (1, 2):
            with dask_client(p) as client:
                for label, fn in heavy:
                    c0 = time.process_time()
                    r = fn(client)
                    cpu[label].setdefault(p, []).append((time.process_time() - c0) / r.seconds)
                    times[label].setdefault(p, []).append(r.seconds)
                    imbalance.setdefault(label, []).append(r.imbalance)
    for label, by_p in times.items():
        t1, t2 = statistics.median(by_p[1]), statistics.median(by_p[2])
        s = t1 / t2
        print(f"{label:20s} T(1) {t1:7.3f} s  T(2) {t2:7.3f} s  S(2) {s:5.2f}  E(2) {s / 2:5.2f}  "
              f"task imbalance (max/mean) {statistics.median(imbalance[label]):.2f}  "
              f"CPU/wall at p=2 {statistics.median(cpu[label][2]):.2f}")

    print(f"load average after: {os.getloadavg()}")
    if args.heavy:
        print("\n# heavy: N-queens n=18 on 2 workers")
        with dask_client(2) as client:
            r = place(18, client=client, tasks=256)
        print(f"place n=18 {r.solutions:,} solutions {r.classes:,} classes {r.seconds:.1f} s "
              f"(2 workers, {r.tasks} tasks)")


if __name__ == "__main__":
    main()
