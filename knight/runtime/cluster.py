"""Dask clients for the pipeline: a local threaded cluster or an existing scheduler.

Numba kernels release the GIL, so a single-process cluster with one thread per
worker runs them side by side without pickling arrays between processes.

An existing scheduler is named by its address (``tcp://host:8786``) or by the
scheduler file that ``dask scheduler --scheduler-file F`` writes on a shared
filesystem (the way batch systems hand out addresses). Either is checked before
use: a scheduler that does not answer within ``timeout`` seconds fails with a
one-line ``ConnectionError`` naming it, instead of Dask's long wait and traceback.

A local cluster listens on loopback only (127.0.0.1): its scheduler and workers talk in
process, and each still opens an HTTP server, bound to 127.0.0.1 on a free port, that
answers no route unless a dashboard is asked for (:func:`dask_client`'s ``dashboard``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import warnings
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import dask
from dask.distributed import Client, LocalCluster

from knight.core.checks import Problems, integer

#: Seconds to wait for a scheduler (or its scheduler file) before giving up.
SCHEDULER_TIMEOUT = 10.0

log = logging.getLogger("knight.cluster")


def usable_cpus() -> int:
    """CPUs this process may run on: its affinity (a Slurm job's or ``taskset``'s share of
    the machine), else the machine's count; at least 1."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def _read_scheduler_file(path: str, deadline: float) -> str:
    """The address in a scheduler file, waiting until ``deadline`` for it to appear."""
    while True:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            text = None
        except OSError as exc:
            raise ValueError(f"dask scheduler file {path}: cannot be read ({exc.strerror})") from None
        if text:
            try:
                address = json.loads(text)["address"]
            except (ValueError, KeyError, TypeError):
                address = None  # being written, or not a scheduler file
            if isinstance(address, str) and address:
                return address
        if time.monotonic() >= deadline:
            if text is None:
                raise ValueError(f"dask scheduler file {path}: not found (is the Dask cluster running?)")
            raise ValueError(f"dask scheduler file {path}: no scheduler address in it")
        time.sleep(0.1)


def _probe_port(location: str, seconds: float, where: str, timeout: float) -> None:
    """Open and close a TCP connection to ``host:port``; ConnectionError naming ``where`` if none."""
    from distributed.comm.addressing import parse_host_port

    try:
        host, port = parse_host_port(location)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} out of range")
    except ValueError as exc:
        raise ValueError(f"{where}: not an address like tcp://host:8786 ({exc})") from None
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except ConnectionRefusedError:
        raise ConnectionError(f"{where}: connection refused (no scheduler listens there)") from None
    except socket.gaierror as exc:
        raise ConnectionError(f"{where}: unknown host {host!r} ({exc.strerror})") from None
    except TimeoutError:
        raise ConnectionError(f"{where}: no answer within {timeout:g} s") from None
    except OSError as exc:
        raise ConnectionError(f"{where}: not reachable ({exc.strerror or exc})") from None


async def _identity(address: str, timeout: float) -> dict:
    from distributed.core import rpc

    async with rpc(address, timeout=timeout) as remote:
        return await asyncio.wait_for(remote.identity(), timeout)


def _ask_scheduler(address: str, timeout: float) -> dict:
    """The scheduler's identity, asked in a private event loop, so callers may be async."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _identity(address, timeout)).result()


def check_scheduler_choice(address, scheduler_file) -> None:
    """``ValueError`` when both a scheduler address and a scheduler file are given (the
    config's ``dask.scheduler`` and ``dask.scheduler_file``, the commands' options)."""
    if address and scheduler_file:
        raise ValueError("give dask.scheduler or dask.scheduler_file, not both")


def check_scheduler(
    address: str | None = None,
    scheduler_file: str | os.PathLike | None = None,
    timeout: float = SCHEDULER_TIMEOUT,
) -> str:
    """Check that a Dask scheduler answers; return its address.

    Give exactly one of ``address`` (``tcp://host:port``) and ``scheduler_file`` (JSON
    written by ``dask scheduler --scheduler-file``; waited for up to ``timeout`` s).
    Raises ``ValueError`` (bad or missing file, malformed address, both or neither
    given) or ``ConnectionError`` (nothing answering as a Dask scheduler), each with a
    one-line message naming the address or file; returns within about ``timeout`` s.
    """
    check_scheduler_choice(address, scheduler_file)
    if address is None and scheduler_file is None:
        raise ValueError("give a dask scheduler address or a scheduler file")
    deadline = time.monotonic() + timeout
    where = f"dask scheduler {address}"
    if scheduler_file is not None:
        scheduler_file = os.fspath(scheduler_file)
        address = _read_scheduler_file(scheduler_file, deadline)
        where = f"dask scheduler {address} (from scheduler file {scheduler_file})"
    from distributed.comm import parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: not an address like tcp://host:8786 ({exc})") from None
    if scheme in ("tcp", "tls"):  # fail at once where nothing listens (Dask would retry until timeout)
        _probe_port(location, max(deadline - time.monotonic(), 1.0), where, timeout)
    left = max(deadline - time.monotonic(), 1.0)
    try:
        with _logger_level("distributed", logging.CRITICAL):  # failed connects log tracebacks of their own
            info = _ask_scheduler(address, left)
    except TimeoutError:
        raise ConnectionError(f"{where}: no answer within {timeout:g} s") from None
    except OSError as exc:  # refused or unreachable: Dask retries until its timeout
        if str(exc).startswith("Timed out"):
            raise ConnectionError(f"{where}: no answer within {timeout:g} s") from None
        raise ConnectionError(f"{where}: not reachable ({str(exc).splitlines()[0]})") from None
    except Exception as exc:  # something else listens on that port
        raise ConnectionError(f"{where}: not a Dask scheduler (unexpected reply: {type(exc).__name__})") from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        raise ConnectionError(f"{where}: answered, but is not a Dask scheduler")
    return address


class _TimeoutNeverRetrieved(logging.Filter):
    """Drops asyncio's "Future exception was never retrieved" when the exception is a
    ``TimeoutError("Timeout")`` (what ``tornado.gen.with_timeout`` raises): a timed-out
    wait left behind as a local cluster closes. It is logged when the future is
    garbage-collected, after the job's work is done; Dask's own tests list the line among
    the spurious ones of a quiet close. Every other asyncio record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (
            str(record.msg).startswith("Future exception was never retrieved")
            and isinstance(exc, TimeoutError)
            and str(exc) == "Timeout"
        )


_CLOSE_TIMEOUT = _TimeoutNeverRetrieved()


@contextlib.contextmanager
def _logger_level(name: str, level: int) -> Iterator[None]:
    """Hold logger ``name`` at ``level`` or above until the block ends."""
    logger = logging.getLogger(name)
    before = logger.level
    logger.setLevel(max(level, logger.getEffectiveLevel()))
    try:
        yield
    finally:
        logger.setLevel(before)


#: Where a local cluster's HTTP servers listen when no dashboard is asked for: loopback,
#: a free port. (Dask starts them whatever ``dashboard_address`` says; None means port
#: 8787 on every interface.)
LOOPBACK_HTTP = "127.0.0.1:0"
#: Dask's HTTP routes, emptied for a local cluster without a dashboard: its servers then
#: answer 404 to everything (no identity, no worker list, no metrics).
_NO_ROUTES = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}


def check_dashboard(address: str | None) -> str | None:
    """``address`` (``HOST:PORT``, e.g. ``127.0.0.1:8787``; port 0 for a free one) if it is
    one, None for none; otherwise a one-line ``ValueError`` naming it.

    >>> check_dashboard("127.0.0.1:8787"), check_dashboard(None)
    ('127.0.0.1:8787', None)
    >>> check_dashboard("8787")
    Traceback (most recent call last):
    ValueError: dask dashboard '8787': not an address like 127.0.0.1:8787
    """
    if address is None:
        return None
    host, sep, port = str(address).rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535 or any(c.isspace() for c in host):
        raise ValueError(f"dask dashboard {address!r}: not an address like 127.0.0.1:8787")
    return str(address)


def _local_cluster(workers: int, dashboard: str | None) -> LocalCluster:
    """A started in-process cluster of ``workers`` one-thread workers (:func:`dask_client`)."""
    # Read as the servers start. No time-to-live for workers: they are threads of this
    # process and cannot die apart from it, so a worker that missed its heartbeats was
    # only suspended with the process (Ctrl-Z, SIGSTOP, a machine asleep), and removing
    # it would leave the run with no worker when the process resumes.
    settings = {"distributed.scheduler.worker-ttl": None, **({} if dashboard else _NO_ROUTES)}
    with dask.config.set(settings):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=False,
            dashboard_address=dashboard or LOOPBACK_HTTP,
            worker_dashboard_address=LOOPBACK_HTTP,
            scheduler_kwargs={"dashboard": dashboard is not None},
            silence_logs=logging.ERROR,
            # Threads of one process: each worker would see the whole process's memory and
            # pause at 80 % of its share of the limit (a Slurm job's --mem reaches Dask as
            # RLIMIT_RSS), so a 2-thread job with a small --mem would wait for ever.
            memory_limit=0,
        )


@contextlib.contextmanager
def dask_client(
    workers: int | None = None,
    scheduler: str | None = None,
    scheduler_file: str | os.PathLike | None = None,
    timeout: float = SCHEDULER_TIMEOUT,
    dashboard: str | None = None,
    *,
    cap: bool = True,
) -> Iterator[Client]:
    """Yield a client: to an existing scheduler if named, else a local cluster of ``workers`` threads.

    A local cluster has at most :func:`usable_cpus` workers (with ``cap``, the default):
    more would only share those CPUs, and tens of thousands take minutes to start; the
    cap is said once, as a warning of the ``knight.cluster`` logger. ``cap=False`` starts
    as many as asked (a timing of ``workers`` workers, whatever the machine).

    ``scheduler`` (an address) and ``scheduler_file`` (a file written by
    ``dask scheduler --scheduler-file``) are exclusive; they are checked first with
    :func:`check_scheduler`, so an unreachable one fails within ``timeout`` s with a
    one-line message. Otherwise ``workers`` defaults to 1, and the local cluster runs
    in-process (``processes=False``) with one thread per worker, so it starts in well
    under a second, and listens on loopback only: its scheduler's and workers' HTTP
    servers are bound to 127.0.0.1 on free ports and answer no route. ``dashboard``
    (the config's ``dask.dashboard``), an address such as ``"127.0.0.1:8787"``, serves
    the scheduler's dashboard and Dask's HTTP routes there instead (``":8787"`` on every
    interface: the caller's choice); it does not apply to an existing scheduler, which
    serves what it was started with. Dask's logger (``distributed``) stays at ERROR
    (WARNING with a scheduler) until the client has closed: closing connections log
    their own tracebacks at INFO, and those would read as failures in a job's log. For
    the same reason the ``asyncio`` logger drops a closing cluster's timed-out wait that
    no one retrieved (:class:`_TimeoutNeverRetrieved`), an ERROR line otherwise.
    """
    if scheduler or scheduler_file:
        address = check_scheduler(scheduler or None, scheduler_file or None, timeout=timeout)
        try:
            client = Client(address, timeout=timeout, set_as_default=False)
        except Exception as exc:
            raise ConnectionError(f"dask scheduler {address}: cannot connect a client ({exc})") from None
        with _logger_level("distributed", logging.WARNING), client:
            yield client
        return
    workers = 1 if workers is None else integer("dask workers", workers)
    if workers < 1:
        raise ValueError(f"dask workers must be at least 1, got {workers}")
    if cap and workers > usable_cpus():
        started = usable_cpus()
        log.warning("dask: %d local workers asked for, %d started (the CPUs this process may use)", workers, started)
        workers = started
    dashboard = check_dashboard(dashboard)
    # A dashboard asked for on a port another cluster holds moves to a free one, with a
    # warning that means nothing in a job's log.
    warnings.filterwarnings("ignore", message="Port 8787 is already in use", category=UserWarning)
    logging.getLogger("asyncio").addFilter(_CLOSE_TIMEOUT)  # for good: logged at garbage collection
    with (
        _logger_level("distributed", logging.ERROR),
        _local_cluster(workers, dashboard) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        yield client


@dataclass(frozen=True)
class DaskSettings:
    """Where a job's tasks run (the workflow's ``dask`` section): ``workers`` threads of a
    local cluster (``"auto"``: the threads Snakemake gives the job), or an existing
    scheduler by address or scheduler file; a job waits at most ``wait_for_workers``
    seconds for a scheduler that has no workers; a local cluster serves its dashboard at
    ``dashboard`` (none by default). None of it can change a result.

    >>> DaskSettings.from_config({"workers": 2}).threads(cores=8)
    2
    >>> DaskSettings.from_config({"scheduler": "tcp://h:8786", "scheduler_file": "s.json"})
    Traceback (most recent call last):
    knight.core.checks.SettingError: scheduler_file: 's.json': give dask.scheduler or dask.scheduler_file, not both
    """

    workers: str | int = "auto"
    scheduler: str | None = None
    scheduler_file: str | None = None
    wait_for_workers: float = 300.0
    dashboard: str | None = None

    @classmethod
    def from_config(cls, section: Mapping) -> DaskSettings:
        found = Problems()
        workers = section.get("workers", "auto")
        if isinstance(workers, bool) or not (workers == "auto" or (isinstance(workers, int) and workers >= 1)):
            found.add("workers", f'{workers!r}: must be "auto" or an integer of at least 1')
        scheduler, scheduler_file = section.get("scheduler"), section.get("scheduler_file")
        try:
            check_scheduler_choice(scheduler, scheduler_file)
        except ValueError as exc:
            found.add("scheduler_file", f"{scheduler_file!r}: {exc}")
        wait = section.get("wait_for_workers", cls.wait_for_workers)
        if isinstance(wait, bool) or not isinstance(wait, int | float) or wait <= 0:
            found.add("wait_for_workers", f"{wait!r}: must be a number of seconds above 0")
        with found.under("dashboard"):
            dashboard = check_dashboard(section.get("dashboard"))
        found.raise_any()
        return cls(workers, scheduler or None, scheduler_file or None, float(wait), dashboard)

    @property
    def external(self) -> bool:
        """Whether the tasks go to an existing scheduler."""
        return bool(self.scheduler or self.scheduler_file)

    def threads(self, cores: int) -> int:
        """Threads a job asks of Snakemake: 1 when an existing scheduler does the work."""
        if self.external:
            return 1
        return cores if self.workers == "auto" else int(self.workers)

    def where(self, threads: int) -> str:
        """Where a job with ``threads`` threads runs its tasks, for its log line."""
        return self.scheduler or self.scheduler_file or f"{self.local_workers(threads)} local worker(s)"

    def _asked(self, threads: int) -> int:
        """The workers the config asks for (``"auto"``: the job's ``threads``)."""
        return threads if self.workers == "auto" else int(self.workers)

    def local_workers(self, threads: int) -> int:
        """Workers of a job's local cluster: ``workers`` (``"auto"``: ``threads``), but no
        more than the ``threads`` Snakemake gave the job, nor than :func:`usable_cpus`
        (``--cores`` above the machine's count gives a job more threads than CPUs)."""
        return max(1, min(self._asked(threads), threads, usable_cpus()))

    def cap_note(self, threads: int) -> str | None:
        """The line a job logs when its local cluster has fewer workers than asked, or None."""
        asked = self._asked(threads)
        started = self.local_workers(threads)
        if self.external or started >= asked:
            return None
        what = "dask.workers auto (the job's threads)" if self.workers == "auto" else f"dask.workers {asked}"
        return (
            f"{what}: {started} local worker(s) started, at most the job's {threads} thread(s) "
            f"and the {usable_cpus()} CPU(s) this job may use"
        )

    @contextlib.contextmanager
    def client(self, threads: int) -> Iterator[Client]:
        """The Dask client of a job given ``threads`` threads (:func:`dask_client`); tasks
        run through it wait ``wait_for_workers`` seconds at most for a worker
        (:mod:`knight.runtime.tasks`, through Dask's config key ``knight.wait-for-workers``)."""
        import dask

        note = self.cap_note(threads)
        if note:
            log.info(note)
        with (
            dask.config.set({"knight.wait-for-workers": self.wait_for_workers}),
            dask_client(
                self.local_workers(threads), self.scheduler, self.scheduler_file, dashboard=self.dashboard
            ) as client,
        ):
            yield client


__all__ = ["DaskSettings", "check_scheduler", "check_scheduler_choice", "dask_client"]
