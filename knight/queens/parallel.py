"""Split a search into tasks of similar work and run them, on Dask workers or in turn.

A search's frontier (its nodes at a fixed depth, in search order) is dealt round-robin
into ``tasks`` batches: neighbouring nodes have similar subtrees, so every batch gets
a like share of heavy and light ones. The batches depend only on the instance and
``tasks``, never on the number of workers, so every worker count does the same work.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from knight.cluster import dask_client

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


def run(fn: Callable, batches: Sequence[tuple], *, workers: int = 1, client=None, progress=None) -> list:
    """``[timed(fn, *batch) for batch in batches]``, in batch order.

    With ``client`` the batches are Dask tasks on its workers; without one, ``workers``
    1 runs them in turn on this thread and more start a local threaded cluster.
    ``progress`` (a :class:`knight.progress.Progress`) counts finished batches.
    """
    if progress is not None:
        progress.total = max(len(batches), 1)
    if client is None and workers == 1:
        out = []
        for b in batches:
            out.append(timed(fn, *b))
            if progress is not None:
                progress.update(1)
        return out
    if client is None:
        with dask_client(workers) as own:
            return run(fn, batches, client=own, progress=progress)
    futures = [client.submit(timed, fn, *b, pure=False) for b in batches]
    if progress is not None:
        from dask.distributed import as_completed

        for _ in as_completed(futures, loop=client.loop):
            progress.update(1)
    return client.gather(futures)
