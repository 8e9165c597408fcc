"""Public entry points: :func:`dominate` and :func:`place`, split over Dask workers.

Both return a :class:`SearchResult`. ``seconds`` is the wall time of the search itself
(plan, tasks, merge), without starting a cluster. Kept sets are sorted so the output
is identical for any number of workers.

:func:`dominate` searches one representative per symmetry class
(:mod:`knight.queens.orbits`) in work units (:mod:`knight.queens.units`), optionally
kept on disk so an interrupted search resumes; :func:`dominate_all` enumerates every
set with the independent engine (:mod:`knight.queens.domination`), the check.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from knight.queens import domination, nqueens, orbits, units
from knight.queens.checks import (
    MAX_DOMINATE_N,
    MAX_PLACE_N,
    check_k,
    check_n,
    check_tasks,
    check_workers,
)
from knight.queens.parallel import DEFAULT_TASKS, NODES_PER_TASK, deal, run
from knight.queens.symmetry import square_images


@dataclass
class SearchResult:
    """The outcome of one queens search: counts, timings and, when kept, the sets.

    Parameters
    ----------
    problem : str
        ``"dominate"`` or ``"place"``.
    n : int
        Board side (the n x n board).
    k : int
        Queens per set (``n`` for placements).
    solutions : int
        Sets found.
    classes : int
        Classes of sets under the 8 symmetries of the square.
    seconds : float
        Wall-clock seconds of the search.
    workers : int
        Dask worker threads it ran on.
    tasks : int
        Tasks (units) it covered.
    nodes : int
        Search nodes visited.
    task_seconds : numpy.ndarray
        ``float[tasks]``: seconds of each task.
    sets : numpy.ndarray or None
        ``int32[solutions, k]`` when kept: for domination the sorted squares
        (``r * n + c``) of each set, for placements the column of the queen in each row;
        rows sorted. None when not kept.
    representatives : numpy.ndarray or None
        ``int32[classes, k]`` from the class search: each class's smallest member as a
        sorted tuple of squares, rows sorted; None otherwise.
    orbits : numpy.ndarray or None
        ``int32[classes]`` from the class search: the size of each class; None otherwise.
    resumed : int
        Units read back from a store instead of searched.
    cpu_seconds : float
        CPU seconds of the class search's units, summed.

    See Also
    --------
    knight.queens.tables.solutions_frame : The kept sets as a table.
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
    representatives: np.ndarray | None = field(default=None, repr=False)
    orbits: np.ndarray | None = field(default=None, repr=False)
    resumed: int = 0  # units read back from a store instead of searched
    cpu_seconds: float = 0.0  # CPU seconds of the class search's units, summed

    def summary(self) -> dict:
        """The result as the command line prints it (``--json``).

        Returns
        -------
        dict
            ``n``, ``k`` (domination), ``solutions``, ``classes``, ``seconds`` and, for
            ``dominate``, ``units`` (covered) and ``read_back`` (of them, read back from a
            store: ``seconds`` did not search them).
        """
        out = {"n": self.n}
        if self.problem == "dominate":
            out["k"] = self.k
        out.update(solutions=self.solutions, classes=self.classes, seconds=round(self.seconds, 6))
        if self.problem == "dominate":
            out.update(units=self.tasks, read_back=self.resumed)
        return out

    @property
    def imbalance(self) -> float:
        """Longest task over the mean task (1.0 when perfectly even)."""
        ts = self.task_seconds
        return float(ts.max() / ts.mean()) if len(ts) and ts.mean() > 0 else 1.0


def orbit_sets(reps: np.ndarray, n: int) -> np.ndarray:
    """int32[m, k]: every image of every representative (sorted squares), rows sorted, distinct."""
    reps = np.asarray(reps, dtype=np.int64)
    if len(reps) == 0:
        return np.empty((0, reps.shape[1] if reps.ndim == 2 else 0), np.int32)
    images = square_images(n)
    stacked = np.sort(images[:, reps], axis=2).reshape(-1, reps.shape[1])
    return np.unique(stacked, axis=0).astype(np.int32)  # np.unique sorts the rows


def smallest_images(reps: np.ndarray, n: int) -> np.ndarray:
    """int32[m, k]: for each set (sorted squares), its image smallest as a sorted tuple.

    The class search picks its representatives by another key (:mod:`knight.queens.orbits`);
    reporting each class by its smallest member keeps one convention in every table."""
    reps = np.asarray(reps, dtype=np.int64)
    m = len(reps)
    if m == 0:
        return reps.astype(np.int32)
    images = square_images(n)
    g = images.shape[0]
    stacked = np.sort(images[:, reps], axis=2).transpose(1, 0, 2).reshape(m * g, -1)
    group = np.repeat(np.arange(m), g)
    order = np.lexsort([stacked[:, j] for j in range(stacked.shape[1] - 1, -1, -1)] + [group])
    return stacked[order[::g]].astype(np.int32)


def _merge_classes(n, k, parts, workers, t0, keep, resumed) -> SearchResult:
    results = [p[0] for p in parts]
    seconds = np.asarray([p[1] for p in parts], dtype=float)
    solutions = sum(r["solutions"] for r in results)
    classes = sum(r["classes"] for r in results)
    nodes = sum(r["nodes"] for r in results)
    reps = [np.asarray(r["representatives"], dtype=np.int32).reshape(-1, k) for r in results]
    orbs = [np.asarray(r["orbits"], dtype=np.int32) for r in results]
    reps = np.concatenate(reps) if reps else np.empty((0, k), np.int32)
    orbs = np.concatenate(orbs) if orbs else np.empty(0, np.int32)
    reps = smallest_images(reps, n)
    order = np.lexsort(reps.T[::-1]) if len(reps) else np.zeros(0, np.int64)
    reps, orbs = reps[order], orbs[order]
    sets = None
    if keep:
        sets = orbit_sets(reps, n)
        if len(sets) != solutions:
            raise RuntimeError(f"dominate n={n} k={k}: orbits hold {len(sets)} sets, counted {solutions}")
    cpu = sum(float(r.get("cpu", 0.0)) for r in results)
    return SearchResult(
        "dominate",
        n,
        k,
        solutions,
        classes,
        time.perf_counter() - t0,
        workers,
        len(parts),
        nodes,
        seconds,
        sets,
        reps,
        orbs,
        resumed,
        cpu,
    )


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
        problem,
        n,
        k,
        solutions,
        classes,
        time.perf_counter() - t0,
        workers,
        len(results),
        nodes,
        np.asarray(seconds, dtype=float),
        sets,
    )


def _kept_units(plan, store, wanted, whole: bool):
    """``(Store or None, {unit: (result, seconds)})``: the units of ``wanted`` that ``store``
    (a folder or a :class:`knight.queens.units.Keeping`) holds or its records give."""
    if store is None:
        return None, {}
    how = store if isinstance(store, units.Keeping) else units.Keeping(store)
    # A whole search owns its store (it clears interrupted writes); a job running a few
    # units beside other jobs leaves their temporary files alone.
    keeper = units.Store(how.folder, plan, repair=how.repair, clean=whole, owned=how.owned)
    finished = keeper.finished(wanted)
    if how.records is not None:
        source = units.Store(how.records, plan, readonly=True)
        for i, part in source.finished(set(wanted) - set(finished)).items():
            keeper.put(i, source.record(i))
            finished[i] = part
    return keeper, finished


def dominate(
    n,
    k,
    *,
    workers=1,
    tasks=DEFAULT_TASKS,
    keep=False,
    client=None,
    progress=None,
    store=None,
    only=None,
    stop_at=None,
    report=None,
) -> SearchResult:
    """Every set of ``k`` queens that dominates the n x n board, searched by symmetry classes.

    Parameters
    ----------
    n : int
        Board side, 1 to 64.
    k : int
        Queens, 1 to ``n * n``.
    workers : int
        Dask worker threads; 1 runs in this thread (unless ``client`` is given).
    tasks : int
        Units of work the search is split into (at least 1).
    keep : bool
        Also list every set (the orbits of the representatives) in ``sets``.
    client : distributed.Client or None
        A Dask client to run the tasks on instead of ``workers`` local threads.
    progress : knight.runtime.progress.Progress or None
        Advanced once per finished unit; None for no progress.
    store : str, os.PathLike, knight.queens.units.Keeping or None
        A folder where finished units are written and read back, verified (resume), or a
        ``Keeping`` that also says how to treat damage, another plan, committed records.
    only : Iterable of int or None
        Unit indices to run (e.g. one per cluster job), the result covering just those.
    stop_at : float or None
        A deadline in ``time.time()`` seconds (needs ``store``): no unit starts after it.
    report : Callable or None
        Called as ``report(done, units, cpu)`` after the store is read and each unit ends.

    Returns
    -------
    SearchResult
        Counts (each class once, with its orbit size), ``representatives``, ``orbits``,
        ``sets`` with ``keep``, ``resumed`` (units read back); :func:`dominate_all` checks it.

    Raises
    ------
    ValueError
        A bad argument or unit index, ``stop_at`` without ``store``, a store of another search.
    knight.queens.units.Stopped
        Units were left at ``stop_at`` (the started ones are written; nothing is merged).

    Examples
    --------
    >>> r = dominate(5, 3, keep=True)
    >>> r.solutions, r.classes, r.sets[0].tolist()
    (186, 37, [0, 2, 17])
    """
    n = check_n(n, limit=MAX_DOMINATE_N)
    k = check_k(k, n)
    workers, tasks = check_workers(workers), check_tasks(tasks)
    t0 = time.perf_counter()
    plan = units.make_plan(n, k, tasks)
    wanted = range(plan.units) if only is None else sorted(set(only))
    for i in wanted:
        if not 0 <= i < plan.units:
            raise ValueError(f"unit {i} is not among the {plan.units} units of this search")
    if stop_at is not None and store is None:
        raise ValueError("a deadline (stop_at) needs a store, where the finished units are kept")
    keeper, finished = _kept_units(plan, store, wanted, whole=only is None)
    todo = [i for i in wanted if i not in finished]
    if progress is not None:
        progress.total = len(wanted)
        progress.update(len(finished))
    tally = {"done": len(finished), "cpu": sum(float(r.get("cpu", 0.0)) for r, _ in finished.values())}
    if report is not None:
        report(tally["done"], len(wanted), tally["cpu"])

    def save(j, part):
        if part[0] is None:  # not started: the deadline had passed
            return
        if keeper is not None:
            keeper.write(todo[j], part[0], part[1])
        tally["done"] += 1
        tally["cpu"] += float(part[0]["cpu"])
        if report is not None:
            report(tally["done"], len(wanted), tally["cpu"])

    batches = [(stop_at, n, k, *plan.batches[i]) for i in todo]
    parts = run(units.solve_unit_until, batches, workers=workers, client=client, progress=progress, on_done=save)
    left = sum(part[0] is None for part in parts)
    if left:
        raise units.Stopped(tally["done"], left, tally["cpu"])
    got = dict(finished)
    got.update(zip(todo, parts))
    return _merge_classes(n, k, [got[i] for i in wanted], workers, t0, keep, len(finished))


def dominate_all(n, k, *, workers=1, tasks=DEFAULT_TASKS, keep=False, client=None, progress=None) -> SearchResult:
    """Every set of ``k`` queens that dominates the n x n board, each one enumerated.

    The independent check of :func:`dominate` (another engine, no symmetry used); classes
    are counted by testing each set found.

    Parameters
    ----------
    n : int
        Board side, 1 to 64.
    k : int
        Queens, 1 to ``n * n``.
    workers : int
        Dask worker threads; 1 runs in this thread (unless ``client`` is given).
    tasks : int
        Units of work the search is split into (at least 1).
    keep : bool
        Also list every set in ``sets``.
    client : distributed.Client or None
        A Dask client to run the tasks on instead of ``workers`` local threads.
    progress : knight.runtime.progress.Progress or None
        Advanced once per finished task; None for no progress.

    Returns
    -------
    SearchResult
        Counts; ``sets`` with ``keep``.

    Raises
    ------
    ValueError
        A bad ``n``, ``k``, ``workers`` or ``tasks``, in one line.

    Examples
    --------
    >>> dominate_all(5, 3).solutions
    186
    """
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
    """Every placement of ``n`` non-attacking queens on the n x n board.

    Without ``keep`` only the left half of row 0 is searched and mirrored, and classes
    follow from Burnside's lemma.

    Parameters
    ----------
    n : int
        Board side, 1 to 32.
    workers : int
        Dask worker threads; 1 runs in this thread (unless ``client`` is given).
    tasks : int
        Units of work the search is split into (at least 1).
    keep : bool
        Also list every placement in ``sets`` (the whole row 0 is then searched).
    client : distributed.Client or None
        A Dask client to run the tasks on instead of ``workers`` local threads.
    progress : knight.runtime.progress.Progress or None
        Advanced once per finished task; None for no progress.

    Returns
    -------
    SearchResult
        Counts (``k`` is ``n``); ``sets`` with ``keep``.

    Raises
    ------
    ValueError
        A bad ``n``, ``workers`` or ``tasks``, in one line.

    Examples
    --------
    >>> r = place(6)
    >>> r.solutions, r.classes
    (4, 1)
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
    result = _merge("place", n, n, parts, workers, t0, keep)
    if not keep:
        result.classes = nqueens.classes(n, result.solutions)
        result.seconds = time.perf_counter() - t0
    return result


def warm_up(search: str | None = None, keep: bool = False) -> None:
    """Compile (or load from numba's cache) the kernels of ``search`` (``"place"`` or
    ``"dominate"``, keeping what it finds or not), or of every search when ``None``, so
    timings exclude it. Loading one search's kernels from the cache takes about 0.3 s,
    every search's about 0.5 s."""
    if search == "place":
        place(6, tasks=2, keep=keep)
        return
    if search == "dominate":
        dominate(4, 2, tasks=2, keep=keep)
        return
    if search is not None:
        raise ValueError(f"search {search!r} is not one of place, dominate")
    dominate(4, 2, tasks=2, keep=True)
    dominate_serial(4, 2, keep=True)
    dominate_all(4, 2, tasks=2, keep=True)
    dominate_all_serial(4, 2, keep=True)
    place(6, tasks=2, keep=True)
    place(6, tasks=2)
    place_serial(6)


def dominate_serial(n, k, keep=False) -> SearchResult:
    """The class search of :func:`dominate` in one kernel call, in this thread.

    Parameters
    ----------
    n : int
        Board side, 1 to 64.
    k : int
        Queens, 1 to ``n * n``.
    keep : bool
        Also list every set in ``sets``.

    Returns
    -------
    SearchResult
        As :func:`dominate` returns it (one task).

    Raises
    ------
    ValueError
        A bad ``n`` or ``k``, in one line.
    """
    n = check_n(n, limit=MAX_DOMINATE_N)
    k = check_k(k, n)
    t0 = time.perf_counter()
    part = units.solve_unit(n, k, *orbits.root(n))
    return _merge_classes(n, k, [(part, time.perf_counter() - t0)], 1, t0, keep, 0)


def dominate_all_serial(n, k, keep=False) -> SearchResult:
    """The enumeration of every set (:func:`dominate_all`) in one kernel call."""
    n = check_n(n, limit=MAX_DOMINATE_N)
    k = check_k(k, n)
    t0 = time.perf_counter()
    part = domination.solve_all(n, k, keep)
    return _merge("dominate", n, k, [(part, time.perf_counter() - t0)], 1, t0, keep)


def place_serial(n, keep=False) -> SearchResult:
    """The search of :func:`place` in one kernel call, in this thread.

    Parameters
    ----------
    n : int
        Board side, 1 to 32.
    keep : bool
        Also list every placement in ``sets``.

    Returns
    -------
    SearchResult
        As :func:`place` returns it (one task).

    Raises
    ------
    ValueError
        A bad ``n``, in one line.
    """
    n = check_n(n, limit=MAX_PLACE_N)
    t0 = time.perf_counter()
    part = nqueens.solve_all(n, keep)
    return _merge("place", n, n, [(part, time.perf_counter() - t0)], 1, t0, keep)


#: The largest n whose domination number :func:`domination_number` searches by default:
#: every smaller k is refuted in seconds up to here, and each further n costs far more.
GAMMA_SEARCH_UP_TO = 13


def domination_number(n, *, search="auto", workers=1) -> int:
    """gamma(n): the fewest queens that dominate (attack or occupy every square of) the n x n board.

    OEIS A075458. A search runs :func:`dominate` for k = ceil((n - 1) / 2) (a proven lower
    bound), k + 1, ... and returns the first k with a dominating set.

    Parameters
    ----------
    n : int
        Board side, 1 to 64.
    search : {"auto", True, False}
        ``"auto"`` searches for n <= 13 (``GAMMA_SEARCH_UP_TO``) and gives the published
        value above; True always searches, however long it takes; False gives the
        published value only.
    workers : int
        Dask worker threads of a search; 1 runs in this thread.

    Returns
    -------
    int
        gamma(n).

    Raises
    ------
    ValueError
        A bad argument, or an n with no published value and not searched (the message says
        how to search it).
    RuntimeError
        A searched value differs from the published one.

    Examples
    --------
    >>> import knight
    >>> knight.queens.domination_number(8)        # searched: no 4 queens do, 5 do
    5
    >>> [knight.queens.domination_number(n) for n in range(1, 8)]
    [1, 1, 1, 2, 3, 3, 4]
    >>> knight.queens.domination_number(25)       # published, not searched
    13
    >>> knight.queens.domination_number(30)
    Traceback (most recent call last):
    ValueError: gamma(30) is not published here (n <= 25); domination_number(30, search=True) searches k = 15, ...
    """
    from knight.core import published

    n = check_n(n, limit=MAX_DOMINATE_N)
    if search not in ("auto", True, False):
        raise ValueError(f"search must be 'auto', True or False, got {search!r}")
    known = published.gamma(n)
    lower = max(1, -(-(n - 1) // 2))
    if search is False or (search == "auto" and n > GAMMA_SEARCH_UP_TO):
        if known is None:
            last = max([*published.GAMMA, *published.GAMMA_BEYOND])
            raise ValueError(
                f"gamma({n}) is not published here (n <= {last}); domination_number({n}, search=True) "
                f"searches k = {lower}, {lower + 1}, ... (may take very long)"
            )
        return known
    workers = check_workers(workers)
    for k in range(lower, n + 1):
        if dominate(n, k, workers=workers).solutions:
            if known is not None and k != known:
                raise RuntimeError(f"gamma({n}): the search finds {k}, the published value is {known}")
            return k
    raise RuntimeError(f"gamma({n}): no k <= {n} dominates the board")  # n queens on the diagonal always do
