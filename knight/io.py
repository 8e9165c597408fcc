"""Atomic file output: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

_UMASK = os.umask(0)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike):
    """Yield a temporary path in the target's folder; rename it onto ``path`` on success.

    A failure (or a killed process) leaves the target untouched: either the old file
    or none, never a partial one a rerun would trust.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_parquet(table: pa.Table, path: str | os.PathLike, **kwargs) -> None:
    """Write a pyarrow table to Parquet atomically (zstd by default)."""
    kwargs.setdefault("compression", "zstd")
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, **kwargs)


def write_frame(frame, path: str | os.PathLike, *, csv: bool = True) -> None:
    """Write a polars DataFrame to Parquet atomically, and a CSV beside it if ``csv``."""
    write_parquet(frame.to_arrow(), path)
    if csv:
        with atomic_path(Path(path).with_suffix(".csv")) as tmp:
            frame.write_csv(tmp)
