"""Cost before work: a request whose memory cannot fit is refused before it allocates.

Each entry point estimates the peak memory of a request with a small function next to
what it estimates (:func:`knight.warnsdorff.tour_bytes`,
:func:`knight.sweep.spec.sweep_bytes`, :func:`knight.rules.driver.run_bytes`) and
hands it to :func:`check_fits`, which compares it with what this process can still get:
the machine's available memory (``MemAvailable`` of ``/proc/meminfo``) or, if lower,
what is left under an address-space limit (``ulimit -v``, ``RLIMIT_AS``). A request
that does not fit is refused with a one-line :class:`MemoryNeedError` giving both.
The estimates are upper bounds of the peaks, not exact (tests/faults/test_cost.py holds them
above what a run takes).
"""

from __future__ import annotations

import resource

GiB = 2**30


class MemoryNeedError(ValueError):
    """A request needs more memory than this process can get; the message gives both."""


def human(nbytes: float) -> str:
    """Bytes in a person's unit.

    >>> human(7.88 * 2**30), human(3 * 2**20), human(512)
    ('7.9 GiB', '3.0 MiB', '512 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.1f} {unit}"
    return f"{int(nbytes)} B"


def _meminfo(key: str, path: str = "/proc/meminfo") -> int | None:
    """A ``/proc/meminfo`` (or ``/proc/self/status``) line's value in bytes, if there is one."""
    try:
        with open(path, encoding="ascii") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def available() -> tuple[int | None, str]:
    """``(bytes, what they are)``: the least of the machine's available memory and what is
    left under this process's address-space limit; ``(None, ...)`` when neither is known."""
    found = []
    free = _meminfo("MemAvailable")
    if free is not None:
        found.append((free, "available"))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        used = _meminfo("VmSize", "/proc/self/status") or 0
        found.append((max(soft - used, 0), "left under the address-space limit (ulimit -v)"))
    return min(found) if found else (None, "unknown")


def check_fits(what: str, need: int) -> None:
    """Raise :class:`MemoryNeedError` (one line: ``what``, the estimate ``need`` and what is
    available) when ``need`` bytes do not fit (:func:`available`); nothing when they do or
    when nothing is known.

    >>> check_fits("a small request", 1024)
    >>> check_fits("tour of 46000x46000", 2**50)
    Traceback (most recent call last):
    knight.runtime.memory.MemoryNeedError: tour of 46000x46000 needs about 1024.0 TiB of memory; ...
    """
    have, where = available()
    if have is not None and need > have:
        raise MemoryNeedError(
            f"{what} needs about {human(need)} of memory; {human(have)} {where}: choose a smaller request"
        )
