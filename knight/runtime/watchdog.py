"""A job that notices its parent died and stops.

A workflow job is a Python process started by Snakemake. Killed with ``kill -9``,
Snakemake cannot stop its jobs, and they would go on computing for nobody, holding
cores and output folders. :func:`watch_parent` starts a daemon thread that looks every
:data:`INTERVAL` seconds whether the parent is gone: the process was reparented
(``os.getppid()`` changed), or, where the parent is a shell that started the job (its
``bash -c``), the shell's own parent ended (its pid gone, or reused by a process that
started later). Then it calls ``on_gone`` with one line, ``parent snakemake (pid N) is
gone: job stopped``, which the job's logging turns into a log line and an exit
(:func:`knight.runtime.logs.script_logging`).

A poll, not ``prctl(PR_SET_PDEATHSIG)``: that signal comes when the parent *thread*
that started the process ends, and Snakemake starts its jobs from threads of a pool,
which end while the job still runs.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

#: Seconds between two looks at the parent.
INTERVAL = 1.0
#: Parents that are a shell between Snakemake and the job: their parent is watched too.
SHELLS = {"bash", "sh", "dash", "zsh"}


def process_stat(pid: int) -> tuple[str, int, int] | None:
    """``(name, parent pid, start time in clock ticks)`` of process ``pid``, or None when
    there is none (or no ``/proc`` to ask)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            stat = f.read()
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    return name, int(fields[1]), int(fields[19])


def _watched(ppid: int) -> list[tuple[int, str, int]]:
    """``(pid, name, start time)`` of the parent, and of the shell's parent when the
    parent is a shell (the job's ``bash -c``)."""
    parent = process_stat(ppid)
    if parent is None:
        return [(ppid, "process", -1)]
    out = [(ppid, parent[0], parent[2])]
    if parent[0] in SHELLS and parent[1] > 1:
        above = process_stat(parent[1])
        if above is not None:
            out.append((parent[1], above[0], above[2]))
    return out


def _gone(ppid: int, watched: list[tuple[int, str, int]]) -> tuple[int, str] | None:
    """``(pid, name)`` of a watched process that is gone, or None while all live."""
    if os.getppid() != ppid:
        return watched[0][:2]
    for pid, name, started in watched[1:]:
        now = process_stat(pid)
        if now is None or now[2] != started:
            return pid, name
    return None


def watch_parent(on_gone: Callable[[str], None], *, interval: float = INTERVAL) -> threading.Thread | None:
    """Start the watchdog (module docstring); None when there is no parent to watch (a
    process whose parent is already init, pid 1). ``on_gone(line)`` runs on the watchdog's
    thread once, when the parent is gone; it is expected to end the process.

    >>> watch_parent(print, interval=3600).daemon
    True
    """
    ppid = os.getppid()
    if ppid <= 1:
        return None
    watched = _watched(ppid)

    def run() -> None:
        while True:
            time.sleep(interval)
            gone = _gone(ppid, watched)
            if gone is not None:
                on_gone(f"parent {gone[1]} (pid {gone[0]}) is gone: job stopped")
                return

    thread = threading.Thread(target=run, name="knight-parent-watch", daemon=True)
    thread.start()
    return thread
