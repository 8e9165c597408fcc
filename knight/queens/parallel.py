"""Split a search into tasks of similar work and run them (:mod:`knight.runtime.tasks`).

A search's frontier (its nodes at a fixed depth, in search order) is dealt round-robin
into ``tasks`` batches: neighbouring nodes have similar subtrees, so every batch gets
a like share of heavy and light ones. The batches depend only on the instance and
``tasks``, never on the number of workers, so every worker count does the same work.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from knight.runtime.tasks import run_tasks

#: Default number of tasks a search is split into.
DEFAULT_TASKS = 64
#: Frontier nodes wanted per task before dealing them out.
NODES_PER_TASK = 16


def deal(count: int, tasks: int) -> list[np.ndarray]:
    """Indices ``0..count-1`` dealt round-robin into ``min(tasks, count)`` batches (at least one)."""
    tasks = max(1, min(tasks, count))
    return [np.arange(t, count, tasks) for t in range(tasks)]


def timed(fn: Callable, *args):
    """``fn(*args)`` followed by its wall seconds on the worker thread."""
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def run(
    fn: Callable,
    batches: Sequence[tuple],
    *,
    workers: int = 1,
    client=None,
    progress=None,
    on_done: Callable | None = None,
) -> list:
    """``[timed(fn, *batch) for batch in batches]``, in batch order, run by
    :func:`knight.runtime.tasks.run_tasks` (on ``client``, or ``workers`` local threads).
    ``progress`` (a :class:`knight.runtime.progress.Progress`) counts finished batches;
    ``on_done(i, result)`` is called on this thread as each batch ``i`` finishes."""
    if progress is not None:
        progress.total = max(len(batches), 1) + progress.done
    tasks = [(fn, *batch) for batch in batches]
    return run_tasks(timed, tasks, client=client, workers=workers, progress=progress, on_done=on_done)
