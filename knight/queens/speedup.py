"""Speed-up measurement: time the same searches with 1, 2, 4 ... Dask workers.

T(p) is the wall time of a search with ``p`` worker threads (same tasks for every p);
S(p) = T(1) / T(p) and E(p) = S(p) / p use medians over repeats (docs/conventions.md).
Beside T(1) stands the best single-thread code (one kernel call, no Dask, no split):
the honest baseline.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import polars as pl

from knight.queens.checks import (
    MAX_DOMINATE_N,
    MAX_PLACE_N,
    check_k,
    check_n,
    check_tasks,
    check_workers,
)
from knight.queens.search import dominate, dominate_serial, place, place_serial, warm_up
from knight.runtime.cluster import dask_client

TIMING_SCHEMA = {
    "instance": pl.String,
    "problem": pl.String,
    "n": pl.Int32,
    "k": pl.Int32,
    "mode": pl.String,
    "workers": pl.Int32,
    "repeat": pl.Int32,
    "seconds": pl.Float64,
    "tasks": pl.Int32,
    "solutions": pl.Int64,
    "classes": pl.Int64,
    "nodes": pl.Int64,
    "imbalance": pl.Float64,
    "note": pl.String,
}


@dataclass(frozen=True)
class Instance:
    """One search: ``problem`` "dominate" (k queens) or "place" (n queens)."""

    problem: str
    n: int
    k: int

    @property
    def label(self) -> str:
        return f"dominate n={self.n} k={self.k}" if self.problem == "dominate" else f"place n={self.n}"

    def run(self, *, tasks: int, client=None):
        if self.problem == "dominate":
            return dominate(self.n, self.k, tasks=tasks, client=client)
        return place(self.n, tasks=tasks, client=client)

    def run_serial(self):
        return dominate_serial(self.n, self.k) if self.problem == "dominate" else place_serial(self.n)


def parse_instance(spec: dict) -> Instance:
    """``{"problem": "dominate", "n": 8, "k": 5}`` or ``{"problem": "place", "n": 16}``."""
    problem = spec.get("problem")
    if problem == "dominate":
        n = check_n(spec.get("n"), limit=MAX_DOMINATE_N)
        if "k" not in spec:
            raise ValueError(f"dominate instance {spec!r} needs k")
        return Instance("dominate", n, check_k(spec["k"], n))
    if problem == "place":
        if "k" in spec and spec["k"] != spec.get("n"):
            raise ValueError(f"place instance {spec!r}: k must be absent (it is n)")
        n = check_n(spec.get("n"), limit=MAX_PLACE_N)
        return Instance("place", n, n)
    raise ValueError(f"instance problem must be 'dominate' or 'place', got {problem!r}")


def worker_counts(workers, threads: int) -> tuple[list[int], list[int]]:
    """``(run, skipped)``: "auto" is 1, 2, 4 ... up to ``threads``; a list is split at ``threads``."""
    threads = check_workers(threads)
    if workers == "auto":
        counts, p = [], 1
        while p <= threads:
            counts.append(p)
            p *= 2
        if counts[-1] != threads:
            counts.append(threads)
        return counts, []
    counts = sorted({check_workers(p) for p in workers})
    if 1 not in counts:
        counts.insert(0, 1)  # S(p) needs T(1)
    return [p for p in counts if p <= threads], [p for p in counts if p > threads]


def time_searches(instances, workers, repeats: int, tasks: int, threads: int, log=sys.stderr) -> pl.DataFrame:
    """Time every instance: serial baseline and each worker count, ``repeats`` times.

    Rows of worker counts above ``threads`` are kept with null seconds and a note.
    Raises if any run's counts differ from the others' (they must not).
    """
    instances = [parse_instance(s) if isinstance(s, dict) else s for s in instances]
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got repeats={repeats}")
    tasks = check_tasks(tasks)
    run_counts, skipped = worker_counts(workers, threads)
    for p in skipped:
        print(f"queens speed-up: skipping {p} workers: the job has {threads} thread(s)", file=log)
    warm_up()
    rows, seen = [], {}

    def add(inst, mode, p, rep, res, note=None):
        key = (res.solutions, res.classes)
        if seen.setdefault(inst, key) != key:
            raise RuntimeError(f"{inst.label}: {mode} p={p} found {key}, earlier runs {seen[inst]}")
        rows.append(
            dict(
                instance=inst.label,
                problem=inst.problem,
                n=inst.n,
                k=inst.k,
                mode=mode,
                workers=p,
                repeat=rep,
                seconds=res.seconds,
                tasks=res.tasks,
                solutions=res.solutions,
                classes=res.classes,
                nodes=res.nodes,
                imbalance=res.imbalance,
                note=note,
            )
        )
        print(f"queens speed-up: {inst.label} {mode} p={p} repeat {rep}: {res.seconds:.3f} s", file=log)

    # Repeats outermost, so drifting load on a shared machine hits every p alike.
    for rep in range(repeats):
        for inst in instances:
            add(inst, "serial", 1, rep, inst.run_serial())
        for p in run_counts:
            with dask_client(p, cap=False) as client:  # the timing is of p workers, as its row says
                for inst in instances:
                    add(inst, "dask", p, rep, inst.run(tasks=tasks, client=client))
    for inst in instances:
        for p in skipped:
            rows.append(
                dict(
                    instance=inst.label,
                    problem=inst.problem,
                    n=inst.n,
                    k=inst.k,
                    mode="dask",
                    workers=p,
                    repeat=None,
                    seconds=None,
                    tasks=None,
                    solutions=None,
                    classes=None,
                    nodes=None,
                    imbalance=None,
                    note=f"skipped: the job has {threads} thread(s)",
                )
            )
    return pl.DataFrame(rows, schema=TIMING_SCHEMA, orient="row")


#: Repeats of one measurement that disagree by more than this (worst - best, over the
#: median) flag the instance as timed on a busy machine.
UNSTABLE_SPREAD = 0.10


def speedup_table(timings: pl.DataFrame) -> pl.DataFrame:
    """Per instance and worker count: median T(p), S(p) = T(1)/T(p), E(p) = S(p)/p.

    ``best_seconds`` / ``worst_seconds`` and ``spread`` ((worst - best) / median) show how
    far the repeats of one p disagree; ``unstable`` flags an instance any of whose worker
    counts (or serial runs) spread by more than :data:`UNSTABLE_SPREAD` (10 %): its
    speed-up then says as much about other load on the machine as about the search.
    ``speedup_best`` / ``efficiency_best`` use the best run of each p instead of the
    median. ``serial_seconds`` / ``serial_best_seconds``: median and best time of the
    single-thread code; ``serial_speedup`` = serial median / T(p).
    """
    keys = ["instance", "problem", "n", "k"]
    serial = (
        timings.filter(pl.col("mode") == "serial")
        .group_by(keys)
        .agg(
            serial_seconds=pl.col("seconds").median(),
            serial_best_seconds=pl.col("seconds").min(),
            serial_spread=(pl.col("seconds").max() - pl.col("seconds").min()) / pl.col("seconds").median(),
        )
    )
    dask = timings.filter(pl.col("mode") == "dask")
    per_p = dask.group_by([*keys, "workers"]).agg(
        seconds=pl.col("seconds").median(),
        best_seconds=pl.col("seconds").min(),
        worst_seconds=pl.col("seconds").max(),
        runs=pl.col("seconds").count(),
        tasks=pl.col("tasks").max(),
        solutions=pl.col("solutions").max(),
        imbalance=pl.col("imbalance").median(),
        note=pl.col("note").drop_nulls().first(),
    )
    t1 = per_p.filter(pl.col("workers") == 1).select(
        [*keys, pl.col("seconds").alias("t1"), pl.col("best_seconds").alias("t1_best")]
    )
    return (
        per_p.join(t1, on=keys, how="left")
        .join(serial, on=keys, how="left")
        .with_columns(
            speedup=pl.col("t1") / pl.col("seconds"),
            speedup_best=pl.col("t1_best") / pl.col("best_seconds"),
        )
        .with_columns(
            efficiency=pl.col("speedup") / pl.col("workers"),
            efficiency_best=pl.col("speedup_best") / pl.col("workers"),
            serial_speedup=pl.col("serial_seconds") / pl.col("seconds"),
        )
        .with_columns(spread=(pl.col("worst_seconds") - pl.col("best_seconds")) / pl.col("seconds"))
        .with_columns(
            unstable=(
                pl.max_horizontal(pl.col("spread").max().over(keys), pl.col("serial_spread")) > UNSTABLE_SPREAD
            ).fill_null(False)
        )
        .select(
            [
                *keys,
                "workers",
                "runs",
                "seconds",
                "best_seconds",
                "worst_seconds",
                "spread",
                "unstable",
                "speedup",
                "efficiency",
                "speedup_best",
                "efficiency_best",
                "serial_seconds",
                "serial_best_seconds",
                "serial_speedup",
                "tasks",
                "solutions",
                "imbalance",
                "note",
            ]
        )
        .sort(["instance", "workers"])
    )


class _Quiet:
    def write(self, text: str) -> int:
        return len(text)


def measure_speedup(searches, workers=(1, 2), *, repeats: int = 3, tasks: int = 32, log=None) -> pl.DataFrame:
    """Speed-up and efficiency of the parallel queens search, timed in this process.

    Timed as the workflow's queens stage times them: every worker count once per round,
    the rounds repeated ``repeats`` times (so drifting load hits every count alike); then
    medians, S(p) = T(1) / T(p), E(p) = S(p) / p, the ``spread`` of the repeats and the
    ``unstable`` flag.

    Parameters
    ----------
    searches : Iterable of dict
        Instances such as ``{"problem": "dominate", "n": 8, "k": 5}`` or
        ``{"problem": "place", "n": 12}``.
    workers : Iterable of int
        Dask worker thread counts; 1 is added when missing (S(p) needs T(1)). Counts above
        this machine's cores are kept as rows with null times and a note.
    repeats : int
        Rounds of timings.
    tasks : int
        Tasks per search, the same for every count.
    log : io.TextIOBase or None
        A text stream for one line per timed run; None for none.

    Returns
    -------
    polars.DataFrame
        One row per (instance, worker count): ``instance``, ``workers``, ``runs``,
        ``solutions``, the median times (seconds), ``speedup``, ``efficiency``, ``spread``,
        ``unstable``, ...

    Raises
    ------
    ValueError
        A bad search or setting, in one line.

    See Also
    --------
    dominate, place

    Examples
    --------
    >>> import knight
    >>> table = knight.queens.measure_speedup([{"problem": "place", "n": 6}], workers=[1, 2], repeats=2, tasks=4)
    >>> table.select("instance", "workers", "runs", "solutions").rows()
    [('place n=6', 1, 2, 4), ('place n=6', 2, 2, 4)]
    >>> {"speedup", "efficiency", "spread", "unstable"} <= set(table.columns)
    True
    """
    import os

    timings = time_searches(
        list(searches),
        list(workers),
        repeats,
        tasks,
        threads=os.cpu_count() or 1,
        log=_Quiet() if log is None else log,
    )
    return speedup_table(timings)
