"""The task runner (knight.runtime.tasks): results in task order wherever the tasks run,
shared arguments, errors handed back, and a scheduler without workers named and given up on."""

import logging
import threading

import pytest
from dask.distributed import Client, LocalCluster

from knight.runtime import tasks
from knight.runtime.tasks import NoWorkersError, iter_task_groups, pool, run_tasks


def _slow_square(x, *, delay=0.0):
    threading.Event().wait(delay * (x % 3))
    return x * x


def _fail_on(x, *, bad):
    if x == bad:
        raise ValueError(f"task {x} failed")
    return x


class Counter:
    def __init__(self):
        self.done = 0

    def update(self, n=1):
        self.done += n


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_in_task_order_with_shared_arguments(workers):
    seen = []
    progress = Counter()
    out = run_tasks(
        _slow_square,
        [(x,) for x in range(7)],
        shared={"delay": 0.02},
        workers=workers,
        progress=progress,
        on_done=lambda i, r: seen.append(i),
    )
    assert out == [x * x for x in range(7)]
    assert sorted(seen) == list(range(7))
    assert progress.done == 7


def test_groups_come_in_order_and_whole():
    groups = [[(1,), (2,)], [], [(3,)]]
    assert list(iter_task_groups(_slow_square, groups, workers=2)) == [[1, 4], [], [9]]
    assert list(iter_task_groups(_slow_square, groups)) == [[1, 4], [], [9]]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_task_raises_its_own_error(workers):
    with pytest.raises(ValueError, match="task 3 failed"):
        run_tasks(_fail_on, [(x,) for x in range(6)], shared={"bad": 3}, workers=workers)


def test_pool_gives_the_callers_client_or_a_local_one():
    with pool(1) as none:
        assert none is None
    with pool(2) as client:
        assert len(client.scheduler_info(n_workers=-1)["workers"]) == 2
        with pool(5, client) as same:
            assert same is client


def test_a_scheduler_without_workers_is_named_then_given_up(monkeypatch, caplog):
    monkeypatch.setattr(tasks, "POLL_SECONDS", 0.2)
    monkeypatch.setattr(tasks, "NO_WORKERS_NOTICE", 0.5)
    with (
        LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster,
        Client(cluster, set_as_default=False) as client,
        caplog.at_level(logging.WARNING, logger="knight.tasks"),
    ):
        with pytest.raises(NoWorkersError, match=r"dask scheduler .*: no workers for \d+ s"):
            run_tasks(_slow_square, [(2,)], client=client, wait_for_workers=1.5)
    assert any("has no workers: waiting up to 2 s" in r.getMessage() for r in caplog.records)


def test_a_local_cluster_keeps_its_workers_when_the_process_was_suspended():
    """A run suspended (Ctrl-Z, SIGSTOP, a machine asleep) longer than Dask's worker
    time-to-live wakes with its heartbeats an hour late: the scheduler's check must not
    remove the in-process workers, or the run fails for want of workers (it did, on a
    dominate 20 11 run paused for ten minutes)."""
    from knight.runtime.cluster import dask_client

    with dask_client(2) as client:
        scheduler = client.cluster.scheduler
        for worker in scheduler.workers.values():
            worker.last_seen -= 3600
        check = scheduler.periodic_callbacks.get("worker-ttl")
        if check is not None:  # what the scheduler runs when the process resumes
            client.sync(check.callback)
        assert len(scheduler.workers) == 2
        assert run_tasks(_slow_square, [(i,) for i in range(6)], client=client) == [i * i for i in range(6)]
