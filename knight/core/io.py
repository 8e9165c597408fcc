"""Atomic, sealed file output: write to a temporary file beside the target, record its
seal (:mod:`knight.core.seal`), then rename."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from knight.core import seal


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, *, sealed: bool = True):
    """Yield a temporary path in the target's folder; on success, seal it and rename it
    onto ``path`` (``sealed=False``: a file a user asked for outside the workflow, renamed
    without a seal, and a seal left beside an older file of that name is removed).

    The seal (``.NAME.seal`` beside the file: size and SHA-256 of the bytes written, see
    :mod:`knight.core.seal`) is computed from the finished temporary file, flushed to disk,
    and written just before the rename. A failure (or a killed process, or a crashed
    machine) leaves the target untouched: either the old file or none, never a partial one
    a rerun would trust; a seal left without its file, or beside an older file, no longer
    matches, so the file is remade. A killed process may leave the temporary file
    (``.NAME.PID-XXXX.tmp``) behind: :func:`knight.core.dataset.remove_leftovers` clears those.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    # Created here (mode 0666 less the umask, like any new file) so nobody else takes the name.
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)  # the bytes are on disk before the name says the file is done
        finally:
            os.close(fd)
        if sealed:
            seal.write_seal(path, tmp)
        else:
            with contextlib.suppress(FileNotFoundError):
                seal.seal_path(path).unlink()  # it would describe the file being replaced
        os.replace(tmp, path)
        if sealed:
            seal.remember(path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, Exception) and not any(n.startswith("writing ") for n in getattr(exc, "__notes__", ())):
            exc.add_note(f"writing {path}")  # names the file in a one-line fault (knight.runtime.faults)
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
