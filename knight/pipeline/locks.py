"""Snakemake's lock of a working folder, told apart from a lock a dead run left behind.

Snakemake locks the files of a run in ``.snakemake/locks/`` and removes the lock when it
ends; killed (``kill -9``, a lost node), it leaves the lock, and the next run in the
folder stops with ``LockException`` until ``snakemake --unlock``. The lock does not say
who holds it, so a run that is about to take it records itself beside it
(:func:`claim`: its process id and start time, :data:`OWNER`); the next run clears the
lock only when that process is gone (:func:`clear_if_dead`), naming it. While the
recorded run lives, its lock stands and Snakemake refuses the second run as it should.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from knight.runtime.watchdog import process_stat

#: The record of the run that holds (or last held) the folder's lock, under ``.snakemake``.
OWNER = "knight-lock-owner.json"


def _started(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot, /proc), or None if it is gone."""
    stat = process_stat(pid)
    return None if stat is None else str(stat[2])


def claim(workdir: str | os.PathLike = ".", pid: int | None = None) -> None:
    """Record this process (or ``pid``) as the run about to lock ``workdir``."""
    pid = os.getpid() if pid is None else pid
    folder = Path(workdir, ".snakemake")
    folder.mkdir(exist_ok=True)
    tmp = folder / f".{OWNER}.{pid}.tmp"
    try:
        tmp.write_text(json.dumps({"pid": pid, "started": _started(pid)}) + "\n")
        os.replace(tmp, folder / OWNER)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)  # a full disk leaves an empty file otherwise
        if isinstance(exc, OSError):
            exc.add_note(f"writing {folder / OWNER}")  # named by knight.runtime.faults.describe
        raise


#: Bytes :func:`check_room` writes: Snakemake's log, lock and metadata of a run start with
#: a few kilobytes.
ROOM = 65_536


def check_room(workdir: str | os.PathLike = ".") -> None:
    """Write (and remove) :data:`ROOM` bytes in ``workdir``'s ``.snakemake`` folder: an
    ``OSError`` naming the file when the disk is full (or the folder cannot be written)
    before a run starts, instead of a traceback from the first of Snakemake's files."""
    folder = Path(workdir, ".snakemake")
    probe = folder / f".knight-room.{os.getpid()}.tmp"
    try:
        folder.mkdir(exist_ok=True)
        with open(probe, "wb") as f:
            f.write(bytes(ROOM))
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        exc.add_note(f"writing {os.path.abspath(probe)}")
        raise
    finally:
        with contextlib.suppress(OSError):
            probe.unlink(missing_ok=True)


def clear_if_dead(workdir: str | os.PathLike = ".") -> str | None:
    """Remove ``workdir``'s Snakemake lock if the run that took it is gone; return one
    line saying so, or None (no lock, or its run lives, or nothing says who holds it)."""
    locks = Path(workdir, ".snakemake", "locks")
    held = sorted(locks.glob("*.lock")) if locks.is_dir() else []
    if not held:
        return None
    try:
        owner = json.loads(Path(workdir, ".snakemake", OWNER).read_text())
        pid, started = int(owner["pid"]), owner["started"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if started is not None and _started(pid) == started:
        return None  # that run is still going: its lock stands
    for path in held:
        path.unlink(missing_ok=True)
    return (
        f"snakemake: removed the lock of a run that is gone (pid {pid}, killed or lost): "
        f"{len(held)} lock file(s) in {locks}; its unfinished jobs are redone"
    )
