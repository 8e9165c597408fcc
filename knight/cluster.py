"""Dask clients for the pipeline: a local threaded cluster or an existing scheduler.

Numba kernels release the GIL, so a single-process cluster with one thread per
worker runs them side by side without pickling arrays between processes.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator

from dask.distributed import Client, LocalCluster


@contextlib.contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator[Client]:
    """Yield a client: to ``scheduler`` if given, else a local cluster of ``workers`` threads.

    ``workers`` defaults to 1. The local cluster runs in-process (``processes=False``)
    with one thread per worker and no dashboard, so it starts in well under a second.
    """
    if scheduler:
        with Client(scheduler, set_as_default=False) as client:
            yield client
        return
    workers = 1 if workers is None else int(workers)
    if workers < 1:
        raise ValueError(f"dask workers must be at least 1, got {workers}")
    # The in-process scheduler always opens an HTTP port (8787, or a free one when that
    # is taken by another cluster, with a warning that means nothing here).
    warnings.filterwarnings("ignore", message="Port 8787 is already in use", category=UserWarning)
    with LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster, Client(cluster, set_as_default=False) as client:
        yield client
