"""Public entry points: :func:`dominate` and :func:`place`, split over Dask workers.

Both return a :class:`SearchResult`. ``seconds`` is the wall time of the search itself
(frontier, tasks, merge), without starting a cluster. Kept sets are sorted so the
output is identical for any number of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from knight.queens import domination, nqueens
from knight.queens.checks import (
    MAX_DOMINATE_N, MAX_PLACE_N, check_k, check_n, check_tasks, check_workers,
)
from knight.queens.parallel import DEFAULT_TASKS, NODES_PER_TASK, deal, run


@dataclass
class SearchResult:
    """Outcome of one search.

    ``sets``: int32[solutions, k] when kept: for domination the sorted squares of each
    set, for placements the column of the queen in each row; rows sorted.
    """

    problem: str  # "dominate" or "place"
    n: int
    k: int
    solutions: int
    classes: int
    seconds: float
    workers: int
    tasks: int
    nodes: int
    task_seconds: np.ndarray = field(repr=False)
    sets: np.ndarray | None = field(default=None, repr=False)

    def summary(self) -> dict:
        """The CLI's JSON object."""
        out = {"n": self.n}
        if self.problem == "dominate":
            out["k"] = self.k
        out.update(solutions=self.solutions, classes=self.classes, seconds=round(self.seconds, 6))
        return out

    @property
    def imbalance(self) -> float:
        """Longest task over the mean task (1.0 = perfectly even)."""
        ts = self.task_seconds
        return float(ts.max() / ts.mean()) if len(ts) and ts.mean() > 0 else 1.0


def _merge(problem, n, k, parts, workers, t0, keep) -> SearchResult:
    (results, seconds) = zip(*parts) if parts else ((), ())
    solutions = sum(int(r[0]) for r in results)
    classes = sum(int(r[1]) for r in results)
    nodes = sum(int(r[3]) for r in results)
    sets = None
    if keep:
        sets = np.concatenate([r[2] for r in results]) if results else np.empty((0, k), np.int32)
        if len(sets):
            sets = sets[np.lexsort(sets.T[::-1])]
    return SearchResult(
        problem, n, k, solutions, classes, time.perf_counter() - t0, workers,
        len(results), nodes, np.asarray(seconds, dtype=float), sets,
    )


def dominate(n, k, *, workers=1, tasks=DEFAULT_TASKS, keep=False, client=None, progress=None) -> SearchResult:
    """Every set of ``k`` queens dominating the ``n x n`` board, in ``tasks`` tasks.

    ``progress`` (a :class:`knight.progress.Progress`) is advanced once per finished task."""
    n = check_n(n, limit=MAX_DOMINATE_N)
    k = check_k(k, n)
    workers, tasks = check_workers(workers), check_tasks(tasks)
    t0 = time.perf_counter()
    chosen, forbidden = domination.frontier(n, k, tasks * NODES_PER_TASK)
    batches = [(n, k, chosen[i], forbidden[i], keep) for i in deal(len(chosen), tasks)]
    if len(chosen) == 0:
        batches = []
    parts = run(domination.solve, batches, workers=workers, client=client, progress=progress)
    return _merge("dominate", n, k, parts, workers, t0, keep)


def place(n, *, workers=1, tasks=DEFAULT_TASKS, keep=False, client=None, progress=None) -> SearchResult:
    """Every placement of ``n`` non-attacking queens on the ``n x n`` board, in ``tasks`` tasks.

    Without ``keep`` only the left half of row 0 is searched and mirrored. ``progress``
    is advanced once per finished task.
    """
    n = check_n(n, limit=MAX_PLACE_N)
    workers, tasks = check_workers(workers), check_tasks(tasks)
    mirror = not keep
    t0 = time.perf_counter()
    pre = nqueens.prefixes(n, tasks * NODES_PER_TASK, mirror)
    batches = [(n, pre[i], mirror, keep) for i in deal(len(pre), tasks)]
    if len(pre) == 0:
        batches = []
    parts = run(nqueens.solve, batches, workers=workers, client=client, progress=progress)
    return _merge("place", n, n, parts, workers, t0, keep)


def warm_up() -> None:
    """Compile (or load from the numba cache) every kernel, so timings exclude it."""
    dominate(4, 2, tasks=2, keep=True)
    dominate_serial(4, 2, keep=True)
    place(6, tasks=2, keep=True)
    place(6, tasks=2)
    place_serial(6)


def dominate_serial(n, k, keep=False) -> SearchResult:
    """The best single-thread code: the whole domination search in one kernel call."""
    n = check_n(n, limit=MAX_DOMINATE_N)
    k = check_k(k, n)
    t0 = time.perf_counter()
    part = domination.solve_all(n, k, keep)
    return _merge("dominate", n, k, [(part, time.perf_counter() - t0)], 1, t0, keep)


def place_serial(n, keep=False) -> SearchResult:
    """The best single-thread code: the whole N-queens search in one kernel call."""
    n = check_n(n, limit=MAX_PLACE_N)
    t0 = time.perf_counter()
    part = nqueens.solve_all(n, keep)
    return _merge("place", n, n, [(part, time.perf_counter() - t0)], 1, t0, keep)
