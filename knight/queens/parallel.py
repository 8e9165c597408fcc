"""Split a search into tasks of similar work and run them, on Dask workers or in turn.

A search's frontier (its nodes at a fixed depth, in search order) is dealt round-robin
into ``tasks`` batches: neighbouring nodes have similar subtrees, so every batch gets
a like share of heavy and light ones. The batches depend only on the instance and
``tasks``, never on the number of workers, so every worker count does the same work.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

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


def _in_turn(fn, batches, done) -> None:
    """Run the batches one after the other on a daemon thread; this thread collects.

    The kernels never run on the main thread, so Ctrl-C reaches Python at once as a
    KeyboardInterrupt here (a signal landing inside a numba call on the main thread
    surfaces as a SystemError instead). The daemon thread is abandoned on exit.
    """
    results: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work():
        for i, b in enumerate(batches):
            if stop.is_set():
                return
            try:
                results.put((i, timed(fn, *b), None))
            except BaseException as exc:  # handed to the caller's thread
                results.put((i, None, exc))
                return

    threading.Thread(target=work, name="queens-search", daemon=True).start()
    try:
        for _ in range(len(batches)):
            while True:
                try:
                    i, out, exc = results.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            if exc is not None:
                raise exc
            done(i, out)
    finally:
        stop.set()


def run(
    fn: Callable,
    batches: Sequence[tuple],
    *,
    workers: int = 1,
    client=None,
    progress=None,
    on_done: Callable | None = None,
) -> list:
    """``[timed(fn, *batch) for batch in batches]``, in batch order.

    With ``client`` the batches are Dask tasks on its workers; without one, ``workers``
    1 runs them in turn on a helper thread and more start a local threaded cluster.
    ``progress`` (a :class:`knight.runtime.progress.Progress`) counts finished batches;
    ``on_done(i, result)`` is called on this thread as each batch ``i`` finishes.
    """
    if progress is not None:
        progress.total = max(len(batches), 1) + progress.done
    out: list = [None] * len(batches)

    def done(i, result):
        out[i] = result
        if on_done is not None:
            on_done(i, result)
        if progress is not None:
            progress.update(1)

    if not batches:
        return out
    if client is None and workers == 1:
        _in_turn(fn, batches, done)
        return out
    if client is None:
        from knight.runtime.cluster import dask_client

        with dask_client(workers) as own:
            return run(fn, batches, client=own, progress=progress, on_done=on_done)
    from dask.distributed import as_completed

    futures = [client.submit(timed, fn, *b, pure=False) for b in batches]
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        for future in as_completed(futures, loop=client.loop):
            done(index[future.key], future.result())
    except BaseException:
        client.cancel(futures)
        raise
    return out
