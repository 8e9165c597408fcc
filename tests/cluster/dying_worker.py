"""Dask worker preload for the cluster tests: the worker process kills itself (SIGKILL)
as soon as it starts executing any task, as a worker lost to the OOM killer would.

    dask worker --preload tests/cluster/dying_worker.py ...

Its nanny restarts it, and it dies again on the next task: after
``distributed.scheduler.allowed-failures`` deaths the scheduler gives up on the task
(KilledWorker) instead of retrying forever.
"""

import os
import signal

from distributed.diagnostics.plugin import WorkerPlugin


class DieOnTask(WorkerPlugin):
    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            os.kill(os.getpid(), signal.SIGKILL)


async def dask_setup(worker):
    await worker.plugin_add(DieOnTask(), name="die-on-task")
