"""Logging of the workflow's scripts: one way, into the rule's ``log:`` file.

:func:`script_logging` sends Python ``logging`` (INFO and up, with times) to the job's
log file and points the process's standard error there too, so warnings of libraries,
Dask's messages and a failing job's traceback all end up in that one file. The
traceback is also shown on the original standard error (Snakemake's console).
"""

from __future__ import annotations

import logging
import os
import sys
import traceback

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def script_logging(sm, name: str = "knight") -> logging.Logger:
    """Logger for a Snakemake script ``sm`` (the injected ``snakemake`` object), writing
    to ``sm.log[0]``; a script without a log file logs to standard error."""
    logger = logging.getLogger(name)
    if not sm.log:
        logging.basicConfig(level=logging.INFO, format=FORMAT)
        return logger
    path = str(sm.log[0])
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    log_file = open(path, "a", buffering=1, encoding="utf-8")
    console = os.fdopen(os.dup(2), "w", buffering=1)
    os.dup2(log_file.fileno(), 2)  # C-level and Python writes to stderr land in the log
    sys.stderr = log_file
    logging.basicConfig(level=logging.INFO, format=FORMAT, stream=log_file, force=True)
    logging.captureWarnings(True)

    def excepthook(kind, value, tb):
        text = "".join(traceback.format_exception(kind, value, tb))
        logger.error("job failed:\n%s", text.rstrip())
        console.write(text)
        console.flush()

    sys.excepthook = excepthook
    return logger


class LineLogger:
    """A writable text stream that logs each line it is given (for code that prints
    progress to a file object, e.g. ``run_study(..., log=LineLogger(logger))``)."""

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
