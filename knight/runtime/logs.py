"""Logging of the workflow's scripts: one way, into the job's ``log:`` file.

:func:`script_logging` sends Python ``logging`` (INFO and up, with times) to the job's
log file and points the process's standard error there too, so warnings of libraries,
Dask's messages and a failing job's traceback all end up in that one file. The
traceback is also shown on the original standard error (Snakemake's console); a
Ctrl-C, a stored input that fails its check, or a resource fault (a full disk, memory
that ran out, a Dask scheduler that went away: :mod:`knight.runtime.faults`) is one
line there instead, ``RULE (LOG): CAUSE``, with the traceback in the log only. A log
file that cannot be written (its disk is full) ends the job the same way, in one line
naming the log, instead of Python's bare exit status 120.

A job stops, in one line in its log, when Snakemake above it is killed
(:mod:`knight.runtime.watchdog`), and ignores SIGXFSZ, so that a write past
``ulimit -f`` fails (one line) instead of killing it.

It also guards what the job reads and writes (:mod:`knight.core.seal`, :func:`job_seals`):
every input is checked against its seal before the script goes on (a damaged input
stops the job, named), the job's rule, parameters and inputs' checksums are what its
outputs' seals record, and an output the job wrote without :mod:`knight.core.io` is
sealed when the job succeeds.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterator

from knight.core import seal
from knight.runtime import faults
from knight.runtime.watchdog import watch_parent

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


#: Exceptions the job ended with (set by its excepthook): its outputs are then not sealed.
_failed: list[type] = []
#: One line for these failures, on the console and in the log: their message says it all.
_ONE_LINE = (KeyboardInterrupt, seal.SealError)
_RECOVER = "run the workflow again: its start-up check removes the file and remakes it"


#: Set when this process gets a Ctrl-C after :func:`note_interrupts`.
_SIGINT = threading.Event()


def note_interrupts() -> None:
    """Remember a Ctrl-C when it comes (it still raises ``KeyboardInterrupt``), so that an
    error it causes where Python cannot pass it on is told as the Ctrl-C it is: one that
    lands while numba compiles and caches a kernel is swallowed by a ctypes callback, and
    numba then fails with ``RuntimeError: no compiled object yet``. Only from the main
    thread, and only over Python's own handler."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return

    def handler(signum, frame):
        _SIGINT.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)


def sigterm_as_interrupt() -> None:
    """Take SIGTERM as a Ctrl-C from now on: ``KeyboardInterrupt`` in the main thread.

    For the workflow's ``onstart``, after Snakemake's scheduler has set its own SIGTERM
    handler: that handler takes the scheduler's lock, and a signal handler runs on the
    main thread, so a SIGTERM that lands while the main thread holds the lock waits for
    itself for ever. The scheduler's Ctrl-C path cancels the running jobs and ends."""
    if threading.current_thread() is not threading.main_thread():
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def interrupted(value: BaseException | None) -> bool:
    """True if ``value`` is a Ctrl-C (KeyboardInterrupt) or an error raised from one, or if
    this process got a Ctrl-C (:func:`note_interrupts`) before it.

    A Ctrl-C that lands inside an import can come out wrapped: one in a class body's
    ``__set_name__`` (dataclasses, while ``dask.distributed`` is imported) is re-raised as
    ``RuntimeError: Error calling __set_name__ ...`` with the KeyboardInterrupt as its cause.
    """
    return _SIGINT.is_set() or any(isinstance(exc, KeyboardInterrupt) for exc in faults.chain(value))


def one_line_interrupts(name: str) -> None:
    """Report a Ctrl-C that Python can only call "ignored" as one line on standard error,
    ``NAME: interrupted (Ctrl-C)``, not a traceback.

    That is a Ctrl-C landing while the interpreter, at exit, waits for its threads
    (``threading._shutdown``): Python hands it to :data:`sys.unraisablehook`. Other
    unraisable errors go to the hook that was in place.
    """
    previous = sys.unraisablehook

    def hook(unraisable):
        if interrupted(unraisable.exc_value):
            sys.stderr.write(f"{name}: interrupted (Ctrl-C)\n")
        else:
            previous(unraisable)

    sys.unraisablehook = hook


#: Exit status of a job stopped by its log file or its parent (not by an exception).
EXIT_STOPPED = 1


class LogFile:
    """The job's log file as a text stream that never raises: a write or flush that fails
    (the disk is full) is kept as :attr:`error`, and what follows is dropped, so that
    logging, warnings and the interpreter's last flush at exit do not turn the fault
    into tracebacks nobody can read or Python's bare exit status 120."""

    def __init__(self, path: str):
        self.path = path
        self._file = open(path, "a", buffering=1, encoding="utf-8")
        self.error: OSError | None = None

    def fileno(self) -> int:
        return self._file.fileno()

    def write(self, text: str) -> int:
        if self.error is None:
            try:
                self._file.write(text)
            except OSError as exc:
                self.error = exc
        return len(text)

    def flush(self) -> None:
        if self.error is None:
            try:
                self._file.flush()
            except OSError as exc:
                self.error = exc

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str):  # encoding, errors, closed, ...: the file's own
        return getattr(self._file, name)

    def fault(self) -> str | None:
        """The failed write as one line (``disk full writing LOG: [Errno 28] ...``), or None."""
        if self.error is None:
            return None
        cause = faults.describe(self.error) or f"cannot write: {self.error}"
        return cause.replace(":", f" writing {self.path}:", 1) if " writing " not in cause else cause


def _say(console, line: str) -> None:
    """``line`` on the console (Snakemake's stderr), which may be gone too."""
    try:
        console.write(line + "\n")
        console.flush()
    except (OSError, ValueError):
        pass


def script_logging(sm, name: str = "knight") -> logging.Logger:
    """Logger for a Snakemake script ``sm`` (the injected ``snakemake`` object), writing
    to ``sm.log[0]``; a script without a log file logs to standard error. Checks the
    job's inputs against their seals first (:func:`guard_job`); starts the parent
    watchdog and ignores SIGXFSZ (module docstring)."""
    logger = logging.getLogger(name)
    faults.ignore_file_size_signal()
    note_interrupts()
    if not sm.log:
        logging.basicConfig(level=logging.INFO, format=FORMAT)
        guard_job(sm, logger)
        _watch(logger, sys.stderr, getattr(sm, "rule", "job"), None)
        return logger
    path = str(sm.log[0])
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    log_file = LogFile(path)
    console = os.fdopen(os.dup(2), "w", buffering=1)
    os.dup2(log_file.fileno(), 2)  # C-level and Python writes to stderr land in the log
    sys.stderr = log_file
    logging.basicConfig(level=logging.INFO, format=FORMAT, stream=log_file, force=True)
    logging.captureWarnings(True)
    job = f"{getattr(sm, 'rule', 'job')} ({path})"
    sys.excepthook = _excepthook(logger, console, job, log_file)
    guard_job(sm, logger)
    atexit.register(_log_check, console, job, log_file)  # after guard_job's: runs before its sealing
    _watch(logger, console, job, log_file)
    return logger


def _excepthook(logger: logging.Logger, console, job: str, log_file: LogFile):
    """The job's excepthook: one line for a Ctrl-C, a seal failure or a resource fault
    (the traceback of a fault still in the log), the traceback for anything else."""

    def excepthook(kind, value, tb):
        _failed.append(kind)
        stopped = interrupted(value)
        cause = None if stopped else faults.describe(value)
        text = "".join(traceback.format_exception(kind, value, tb))
        if stopped or issubclass(kind, _ONE_LINE):
            line = "interrupted (Ctrl-C)" if stopped else str(value)
            logger.error("job stopped: %s", line)
        elif cause is not None:
            line = cause
            logger.error("job failed: %s\n%s", line, text.rstrip())
        else:
            logger.error("job failed:\n%s", text.rstrip())
            line = None
        lost = log_file.fault()
        if line is None:
            _say(console, text.rstrip() if lost is None else f"{text.rstrip()}\n{job}: {lost}")
        else:
            _say(console, f"{job}: {line}" if lost is None or cause is not None else f"{job}: {lost}")

    return excepthook


def _log_check(console, job: str, log_file: LogFile) -> None:
    """At exit of a job that raised nothing: a log that could not be written fails the
    job in one line, before its outputs are sealed (``os._exit``: nothing else runs)."""
    lost = log_file.fault()
    if lost is None or _failed:
        return
    _say(console, f"{job}: {lost}")
    os._exit(EXIT_STOPPED)


def _watch(logger: logging.Logger, console, job: str, log_file: LogFile | None) -> None:
    """Stop the job when its parent (Snakemake) is gone: one line in the log (and on the
    console, if anyone still reads it), exit :data:`EXIT_STOPPED`, outputs not sealed."""

    def stop(line: str) -> None:
        _failed.append(SystemExit)
        logger.error(line)
        if log_file is not None:
            log_file.flush()
        _say(console, f"{job}: {line}")
        os._exit(EXIT_STOPPED)

    watch_parent(stop)


def job_provenance(sm) -> seal.Provenance:
    """What the seals of a job's outputs record (:class:`knight.core.seal.Provenance`),
    from the Snakemake job ``sm``: each input (``sm.input``) with its seal's SHA-256,
    after checking it against its seal (:class:`knight.core.seal.SealError`, one line
    naming the file, if it differs), and the job's ``sm.rule`` and ``sm.params``. A job
    lacking its rule or its params records its inputs and the Python API as its maker."""
    sources = {}
    for path in _files(getattr(sm, "input", ())):
        sealed = seal.check(path, required=False, recover=_RECOVER)
        sources[path] = sealed["sha256"] if sealed else None
    params = getattr(sm, "params", None)
    rule = getattr(sm, "rule", None)
    if params is not None and rule:
        return seal.Provenance.of_job(rule, dict(params.items()), sources)
    return seal.Provenance(sources=tuple(sorted(sources.items())))


@contextlib.contextmanager
def job_seals(sm, logger: logging.Logger) -> Iterator[seal.Provenance]:
    """The sealing of the Snakemake job ``sm``: inside the block, every file written through
    :mod:`knight.core.io` records the job's :func:`job_provenance` (its inputs are
    checked first); when the block ends without an error and the job has not failed
    (its excepthook ran), each output the job wrote without :mod:`knight.core.io` is
    sealed (the job wrote it: Snakemake removes a job's outputs before it runs)."""
    made = job_provenance(sm)
    outputs = _files(getattr(sm, "output", ()))
    with seal.recording(made):
        yield made
        if _failed or getattr(sys, "last_value", None) is not None:  # the script failed
            return
        for path in outputs:
            if os.path.isfile(path) and not seal.matches(path):
                seal.write_seal(path, path, made)
                logger.info("sealed %s (written outside knight.core.io)", path)


def guard_job(sm, logger: logging.Logger) -> None:
    """Open the job's sealing (:func:`job_seals`) for the rest of the script; it closes
    at exit (sealing the outputs written without :mod:`knight.core.io`)."""
    job = contextlib.ExitStack()
    job.enter_context(job_seals(sm, logger))
    atexit.register(job.close)


def _files(items) -> list[str]:
    """The file paths of a Snakemake input/output list (nested lists flattened)."""
    out = []
    for item in items:
        if isinstance(item, list | tuple):
            out.extend(_files(item))
        else:
            out.append(str(item))
    return out


#: Longest line a workflow run writes on the console (a job's input and reason lists are
#: cut to their first items and a count; the run's own log file keeps them whole).
CONSOLE_WIDTH = 240


def short_line(line: str, width: int = CONSOLE_WIDTH) -> str:
    """``line`` cut to about ``width`` characters: a ``key: a, b, c, ...`` list keeps its
    first items and says how many there are.

    >>> short_line("    input: " + ", ".join(f"results/part-{i}.parquet" for i in range(100)), 80)
    '    input: results/part-0.parquet, results/part-1.parquet, ... (100 files)'
    """
    if len(line) <= width:
        return line
    head, sep, rest = line.partition(": ")
    items = rest.split(", ") if sep else []
    if len(items) > 1:
        kept: list[str] = []
        for item in items:
            if len(head) + 2 + sum(len(k) + 2 for k in kept) + len(item) + 20 > width:
                break
            kept.append(item)
        return f"{head}: {', '.join(kept)}, ... ({len(items)} files)"
    return line[: width - 5] + " ..."


class _ShortLines(logging.Formatter):
    """A formatter whose text is another's with every line cut by :func:`short_line`."""

    def __init__(self, inner: logging.Formatter):
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        text = self.inner.format(record)
        if record.levelno >= logging.WARNING:
            return text  # a warning or an error is read whole: it names what to do
        return "\n".join(short_line(line) for line in text.split("\n"))


def short_console_lines(logger_name: str = "snakemake.logging") -> None:
    """Cut the long lines of a workflow run on the console (:func:`short_line`): the
    handlers of ``logger_name`` that write to a terminal stream, not to a file."""
    for handler in logging.getLogger(logger_name).handlers:
        if isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler):
            if handler.formatter is not None and not isinstance(handler.formatter, _ShortLines):
                handler.setFormatter(_ShortLines(handler.formatter))


class LineLogger:
    """A writable text stream that logs each line it is given (for code that prints
    progress to a file object, e.g. ``time_searches(..., log=LineLogger(logger))``)."""

    def __init__(self, logger: logging.Logger, level: int = logging.INFO):
        self.logger, self.level, self._buf = logger, level, ""

    def write(self, text: str) -> int:
        self._buf += text
        *lines, self._buf = self._buf.split("\n")
        for line in lines:
            if line.strip():
                self.logger.log(self.level, line)
        return len(text)

    def flush(self) -> None:
        if self._buf.strip():
            self.logger.log(self.level, self._buf)
        self._buf = ""
