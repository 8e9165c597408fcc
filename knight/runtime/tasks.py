"""The one way the library runs its tasks: tasks -> workers -> progress -> results.

A stage cuts its work into tasks (a function and the arguments of each call) and hands
them to :func:`run_tasks`, which returns their results in task order, whatever ran them:

- no client and one worker: a helper thread runs the tasks in turn while this thread
  waits, so Ctrl-C reaches Python at once (a signal that lands inside a numba call on
  the main thread surfaces as a ``SystemError`` instead);
- no client and more workers: a local threaded Dask cluster for the call
  (:func:`knight.runtime.cluster.dask_client`; the kernels release the GIL);
- a client (the caller's, e.g. to a scheduler of a batch system): its workers.

``shared`` keyword arguments go to every call; on Dask each is a task of its own, sent
once, which the scheduler recomputes if a worker dies, where scattered data would be
lost. ``progress`` (:class:`knight.runtime.progress.Progress`) counts finished tasks.
While a scheduler has no worker at all, :func:`run_tasks` says so in the log within
:data:`NO_WORKERS_NOTICE` seconds and fails after ``wait_for_workers`` seconds with a
one-line :class:`NoWorkersError` (default: Dask's config key ``knight.wait-for-workers``,
else :data:`WAIT_FOR_WORKERS`).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

#: Seconds between checks of a Dask scheduler's workers while no task finishes.
POLL_SECONDS = 5.0
#: A scheduler without workers is named in the log after this many seconds.
NO_WORKERS_NOTICE = 30.0
#: Default seconds a run waits for a scheduler that has no workers before it fails.
WAIT_FOR_WORKERS = 300.0

log = logging.getLogger("knight.tasks")


class NoWorkersError(ConnectionError):
    """The Dask scheduler had no worker for longer than the run may wait; names it."""


@contextlib.contextmanager
def pool(workers: int = 1, client=None) -> Iterator:
    """The client a call's tasks go to: ``client`` if given, else a local threaded Dask
    cluster of ``workers`` threads for the duration of the block, or None for one worker
    (tasks in turn on a helper thread). A call that runs several batches of tasks opens
    one pool for all of them.

    >>> with pool(1) as client:
    ...     print(client)
    None
    """
    if client is not None or workers <= 1:
        yield client
        return
    from knight.runtime.cluster import dask_client

    with dask_client(workers) as own:
        yield own


def run_tasks(
    fn: Callable,
    tasks: Sequence[tuple],
    *,
    shared: Mapping | None = None,
    client=None,
    workers: int = 1,
    progress=None,
    on_done: Callable | None = None,
    wait_for_workers: float | None = None,
) -> list:
    """``[fn(*task, **shared) for task in tasks]``, in task order (module docstring: where
    they run). ``on_done(i, result)`` is called on this thread as task ``i`` finishes.

    >>> run_tasks(pow, [(2, 3), (3, 2)])
    [8, 9]
    """
    return next(
        iter_task_groups(
            fn,
            [tasks],
            shared=shared,
            client=client,
            workers=workers,
            progress=progress,
            on_done=on_done,
            wait_for_workers=wait_for_workers,
        )
    )


def iter_task_groups(
    fn: Callable,
    groups: Iterable[Sequence[tuple]],
    *,
    shared: Mapping | None = None,
    client=None,
    workers: int = 1,
    progress=None,
    on_done: Callable | None = None,
    ahead: int = 1,
    wait_for_workers: float | None = None,
) -> Iterator[list]:
    """The results of each group of tasks (as :func:`run_tasks`), group by group; on Dask
    the tasks of the next ``ahead`` groups are already queued while one group is
    gathered, so workers never idle between groups. ``on_done(i, result)`` numbers the
    tasks within their group.

    >>> [r for r in iter_task_groups(abs, [[(-1,)], [(-2,), (3,)]])]
    [[1], [2, 3]]
    """
    shared = dict(shared or {})
    groups = iter(groups)
    if wait_for_workers is None:
        import dask

        wait_for_workers = float(dask.config.get("knight.wait-for-workers", WAIT_FOR_WORKERS))
    with pool(workers, client) as client:
        if client is None:
            for group in groups:
                yield _in_turn(fn, list(group), shared, progress, on_done)
        else:
            yield from _on_dask(fn, groups, shared, client, progress, on_done, ahead, wait_for_workers)


def _in_turn(fn, tasks, shared, progress, on_done) -> list:
    """Run ``tasks`` one after the other on a daemon thread while this thread collects
    (module docstring); the daemon thread is abandoned if this thread stops."""
    out: list = [None] * len(tasks)
    results: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work():
        for i, task in enumerate(tasks):
            if stop.is_set():
                return
            try:
                results.put((i, fn(*task, **shared), None))
            except BaseException as exc:  # handed to the caller's thread
                results.put((i, None, exc))
                return

    threading.Thread(target=work, name="knight-tasks", daemon=True).start()
    try:
        for _ in range(len(tasks)):
            while True:
                try:
                    i, result, exc = results.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            if exc is not None:
                raise exc
            _done(out, i, result, progress, on_done)
    finally:
        stop.set()
    return out


def _done(out, i, result, progress, on_done) -> None:
    out[i] = result
    if on_done is not None:
        on_done(i, result)
    if progress is not None:
        progress.update(1)


def _value(x):
    return x


def _on_dask(fn, groups, shared, client, progress, on_done, ahead, wait_for_workers) -> Iterator[list]:
    futures_of_shared = {k: client.submit(_value, v, pure=False) for k, v in shared.items()}
    pending: list[list] = []

    def submit_next() -> bool:
        group = next(groups, None)
        if group is None:
            return False
        pending.append([client.submit(fn, *task, **futures_of_shared, pure=False) for task in group])
        return True

    more = True
    while more and len(pending) <= ahead:
        more = submit_next()
    try:
        while pending:
            futures = pending.pop(0)
            out = _gather(futures, client, progress, on_done, wait_for_workers)
            while more and len(pending) <= ahead - 1:
                more = submit_next()
            yield out
    except BaseException:
        client.cancel([f for group in pending for f in group] + list(futures_of_shared.values()))
        raise


def _gather(futures, client, progress, on_done, wait_for_workers) -> list:
    """The results of ``futures`` in order, reporting each as it finishes; cancels them all
    on any failure (a task's error, Ctrl-C, a scheduler without workers)."""
    from distributed import as_completed

    out: list = [None] * len(futures)
    index = {f.key: i for i, f in enumerate(futures)}
    watch = _WorkerWatch(client, futures, wait_for_workers)
    try:
        for future in as_completed(futures, loop=client.loop):
            if watch.error is not None:
                raise watch.error
            _done(out, index[future.key], future.result(), progress, on_done)
    except BaseException:
        client.cancel(futures)
        if watch.error is not None:
            raise watch.error from None
        raise
    finally:
        watch.stop()
    return out


class _WorkerWatch:
    """A daemon thread that checks, every :data:`POLL_SECONDS`, whether the scheduler has
    workers while ``futures`` wait: after :data:`NO_WORKERS_NOTICE` seconds without one it
    says so in the log, after ``limit`` seconds it cancels the futures and keeps the
    :class:`NoWorkersError` for the waiting thread (module docstring)."""

    def __init__(self, client, futures, limit: float):
        self.client, self.futures, self.limit = client, futures, limit
        self.error: NoWorkersError | None = None
        self._stop = threading.Event()
        threading.Thread(target=self._run, name="knight-worker-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        since = None
        told = False
        while not self._stop.wait(POLL_SECONDS):
            try:
                workers = self.client.scheduler_info(n_workers=-1).get("workers")
            except Exception:  # the scheduler itself is gone: the futures fail on their own
                return
            if workers:
                since, told = None, False
                continue
            now = time.monotonic()
            since = now - POLL_SECONDS if since is None else since
            idle = now - since
            where = self.client.scheduler.address
            if idle >= NO_WORKERS_NOTICE and not told:
                log.warning("dask scheduler %s has no workers: waiting up to %.0f s for one", where, self.limit)
                told = True
            if idle >= self.limit:
                why = f"no workers for {idle:.0f} s (dask.wait_for_workers)"
                self.error = NoWorkersError(f"dask scheduler {where}: {why}")
                self.client.cancel(self.futures)
                return
