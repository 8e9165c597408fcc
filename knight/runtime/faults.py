"""Resource faults in one line: a full disk, memory that ran out, a Dask scheduler that
went away. Each is a fault of the machine, not of the code, so a job or a command that
meets one ends with one line naming the cause (:func:`describe`) instead of a
traceback; a workflow job still writes the traceback into its log file.

The operating system's limit on file size (``ulimit -f``) kills a process that writes
past it with SIGXFSZ, unless the signal is ignored: :func:`ignore_file_size_signal`
makes such a write fail with ``[Errno 27] File too large`` instead, which then is one
line like a full disk.
"""

from __future__ import annotations

import errno
import re
import signal

#: errno values of a write that found no room: disk full, quota exceeded, file too large.
_NO_ROOM = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file too large (over the limit on file size, ulimit -f)",
}
#: The same faults as libraries word them where they wrap the OS error in their own
#: exception (polars: "No space left on device (os error 28)"; Arrow: "[errno 28] ...").
_NO_ROOM_TEXT = re.compile(r"(?:os error|errno) (28|122|27)\b", re.IGNORECASE)
#: Dask's exceptions for a scheduler (or the client's connection to it) that went away.
_LOST_SCHEDULER = {"FutureCancelledError", "FuturesCancelledError", "CommClosedError", "ClosedClientError"}


def chain(value: BaseException | None):
    """``value`` and the exceptions it was raised from or while handling, once each."""
    seen = set()
    while value is not None and id(value) not in seen:
        seen.add(id(value))
        yield value
        value = value.__cause__ or value.__context__


def _first_line(value: BaseException) -> str:
    """The first line of ``value``'s message, or its type's name when it has none."""
    text = str(value)
    return text.splitlines()[0] if text.strip() else type(value).__name__


def _where(value: BaseException) -> str:
    """`` writing PATH`` from the note :func:`knight.core.io.atomic_path` adds, or the
    exception's own file name; empty when neither says."""
    for note in getattr(value, "__notes__", ()):
        if note.startswith("writing "):
            return f" {note}"
    name = getattr(value, "filename", None)
    return f" at {name}" if name else ""


def _no_room(value: BaseException) -> str | None:
    code = getattr(value, "errno", None) if isinstance(value, OSError) else None
    if code not in _NO_ROOM:
        match = _NO_ROOM_TEXT.search(str(value))
        code = int(match.group(1)) if match else None
    if code not in _NO_ROOM:
        return None
    return f"{_NO_ROOM[code]}{_where(value)}: {_first_line(value)}"


def _lost_scheduler(value: BaseException) -> str | None:
    kind = type(value)
    dask = kind.__module__.startswith("distributed") and kind.__name__ in _LOST_SCHEDULER
    if not dask and not (isinstance(value, ConnectionError) and not isinstance(value, BrokenPipeError)):
        return None
    text = str(value).splitlines()[0] if str(value).strip() else ""
    if text.startswith("dask scheduler "):  # the project's own messages name the scheduler already
        return text
    return f"lost the Dask scheduler ({kind.__name__}{': ' + text if text else ''})"


def describe(value: BaseException | None) -> str | None:
    """The cause in a few words when ``value`` (or an exception it came from) is a
    resource fault, else None.

    >>> import errno
    >>> describe(OSError(errno.ENOSPC, "No space left on device"))
    'disk full: [Errno 28] No space left on device'
    >>> describe(MemoryError("Unable to allocate 7.88 GiB for an array"))
    'out of memory: Unable to allocate 7.88 GiB for an array'
    >>> describe(ValueError("bad")) is None
    True
    """
    for exc in chain(value):
        if isinstance(exc, MemoryError):  # numpy's _ArrayMemoryError, numba's, Arrow's too
            return f"out of memory{_where(exc)}: {_first_line(exc)}"
        found = _no_room(exc) or _lost_scheduler(exc)
        if found:
            return found
    return None


def ignore_file_size_signal() -> None:
    """Ignore SIGXFSZ in this process, so a write past ``ulimit -f`` fails with EFBIG (a
    one-line fault) instead of killing the process. Only the main thread may set it; from
    another thread this does nothing."""
    sigxfsz = getattr(signal, "SIGXFSZ", None)
    if sigxfsz is None:
        return
    try:
        signal.signal(sigxfsz, signal.SIG_IGN)
    except ValueError:  # not the main thread
        pass
