"""Parquet datasets written in parts, whole only once their manifest is written.

A dataset folder (``results/runs/board=8x8/``, ``results/rules/runs/study=S/rule=R/``)
holds part files ``part-NNNN.parquet``, each written atomically and sealed by its writer
(:mod:`knight.core.io`, :mod:`knight.core.seal`: size and SHA-256 of the bytes written),
and a manifest ``_manifest.json`` written last that lists every part with its rows,
bytes and SHA-256 taken from the parts' seals. So:

- a folder without a manifest is unfinished (a run stopped before its end): readers
  refuse it, naming the folder;
- the manifest is built from the seals, after checking each part's bytes against its
  seal: a part damaged after it was written is refused, named, never recorded as good;
- a part that is missing, has another size or another checksum than its manifest says
  is refused by the readers (:func:`verify`, :func:`scan`: every byte is checked by
  default), naming the file;
- a writer starts by removing the manifest, leftover temporary files and stale parts,
  so a reused folder never holds rows of two runs; :func:`writing` keeps a second
  writer out of the folder while one runs;
- a writer never writes or clears through a symbolic link: a dataset folder that is a
  link (or, below the output root the caller named, has a link among its parents) is
  refused, naming the link (:func:`refuse_links`), so a link cannot make it delete or
  overwrite files elsewhere.

:func:`scan` is the reader the project ships (``pl.scan_parquet`` over the verified
parts, Hive partitions as columns).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from knight.core import seal
from knight.core.io import atomic_path

MANIFEST = "_manifest.json"
LOCK = ".writer.lock"
_TMP_GLOB = ".*.tmp"


class DatasetError(ValueError):
    """A dataset or one of its files cannot be trusted; the message names it."""


def part_name(k: int) -> str:
    """File name of part ``k``: ``part-0000.parquet`` (at least four digits)."""
    return f"part-{k:04d}.parquet"


def sha256(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of a file's bytes."""
    return seal.digest(path)[1]


def check_part(path: str | os.PathLike, *, rows: int | None = None, schema: pa.Schema | None = None) -> int:
    """Rows of a part file after checking its footer (and ``rows``, ``schema`` if given).

    Raises :class:`DatasetError` naming the file and what to do when it is not a
    readable Parquet file, or has other rows or columns than expected.
    """
    path = Path(path)
    try:
        meta = pq.read_metadata(path)
        have = meta.schema.to_arrow_schema()
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"{path}: not a readable Parquet file ({exc}); delete it and rerun to remake it") from None
    if rows is not None and meta.num_rows != rows:
        raise DatasetError(f"{path}: {meta.num_rows} rows where {rows} are expected; delete it and rerun to remake it")
    if schema is not None and not have.remove_metadata().equals(schema.remove_metadata()):
        raise DatasetError(f"{path}: its columns are not the expected ones; delete it and rerun to remake it")
    return meta.num_rows


def write_manifest(
    folder: str | os.PathLike,
    parts: Iterable[str | os.PathLike],
    *,
    rows: Iterable[int] | None = None,
    schema: pa.Schema | None = None,
    **info,
) -> dict:
    """Check every part and write the folder's manifest last, from the parts' seals.

    Each part must match the seal its writer recorded (bytes, SHA-256, name), be a
    readable Parquet file, and have the expected ``rows`` and ``schema``; otherwise
    :class:`DatasetError` names it. The manifest records what the seals say, never a
    checksum of whatever is on disk. ``info`` (plain JSON values) is stored beside the
    parts, e.g. the board or the rule.
    """
    folder = Path(folder)
    parts = [Path(p) for p in parts]
    expected = list(rows) if rows is not None else [None] * len(parts)
    entries = []
    for path, want in zip(parts, expected, strict=True):
        if path.parent.resolve() != folder.resolve():
            raise DatasetError(f"{path}: not in the dataset folder {folder}")
        try:
            sealed = seal.check(path, recover="delete it and rerun to remake it")
        except seal.SealError as exc:
            raise DatasetError(str(exc)) from None
        n = check_part(path, rows=want, schema=schema)
        entries.append({"file": path.name, "rows": n, "bytes": sealed["bytes"], "sha256": sealed["sha256"]})
    manifest = {"format": 1, "rows": sum(e["rows"] for e in entries), "parts": entries, **info}
    with atomic_path(folder / MANIFEST) as tmp:
        tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def read_manifest(folder: str | os.PathLike) -> dict:
    """The manifest of a finished dataset folder, checked against its seal when it has one;
    :class:`DatasetError` if unfinished or damaged."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise DatasetError(f"{folder}: no {MANIFEST}, so the run that wrote it did not finish; rerun it")
    try:
        seal.check(path, required=False, recover="rerun to remake it")
    except seal.SealError as exc:
        raise DatasetError(str(exc)) from None
    try:
        return json.loads(path.read_text())
    except ValueError as exc:
        raise DatasetError(f"{path}: unreadable manifest ({exc}); rerun to remake it") from None


def verify(folder: str | os.PathLike, *, deep: bool = True) -> list[Path]:
    """Paths of the parts of a finished folder after checking them against its manifest:
    existence and size, and, if ``deep`` (the default), every byte (SHA-256; a part
    already checked by this process and unchanged since is not read again). A part whose
    seal records other bytes than the manifest is refused too."""
    folder = Path(folder)
    out = []
    for entry in read_manifest(folder)["parts"]:
        path = folder / entry["file"]
        if not path.is_file():
            raise DatasetError(f"{path}: listed in {folder / MANIFEST} but missing; rerun to remake it")
        changed = f"{path}: changed since {folder / MANIFEST} was written; delete it and rerun to remake it"
        if path.stat().st_size != entry["bytes"]:
            raise DatasetError(changed)
        try:
            sealed = seal.read_seal(path)
        except seal.SealError:
            sealed = None
        if sealed is not None and sealed["sha256"] != entry["sha256"]:
            raise DatasetError(changed)
        if deep and not _same_bytes(path, sealed, entry["sha256"]):
            raise DatasetError(changed)
        out.append(path)
    return out


def _same_bytes(path: Path, sealed: dict | None, sha: str) -> bool:
    """Whether a part's bytes are the ones its manifest lists (through its seal if it has one)."""
    if sealed is None:
        return sha256(path) == sha
    try:
        seal.check(path)
    except seal.SealError:
        return False
    return True


def refuse_links(folder: str | os.PathLike, root: str | os.PathLike | None = None) -> None:
    """Raise a one-line :class:`DatasetError` naming the link when ``folder``, or a folder
    between ``root`` (excluded: the output root the caller named may be a link, e.g. to a
    scratch disk) and ``folder``, is a symbolic link; a link would send the writer's
    deletions and files into the folder it points to."""
    folder = Path(folder)
    chain = [folder]
    if root is not None:
        below = folder.relative_to(Path(root)).parts
        chain = [Path(root).joinpath(*below[: i + 1]) for i in range(len(below))][::-1]
    for path in chain:
        if path.is_symlink():
            raise DatasetError(
                f"output folder {folder}: {path} is a symbolic link (to {os.readlink(path)}); the writer never "
                "writes through a link: remove the link, or name the real folder"
            )


def begin(folder: str | os.PathLike) -> None:
    """Make ``folder`` ready for a fresh run: remove its manifest first (the folder is then
    unfinished), then every part, their seals and leftover temporary files. A folder that
    is a symbolic link is refused first (:func:`refuse_links`)."""
    folder = Path(folder)
    refuse_links(folder)
    if not folder.exists():
        return
    seal.remove(folder / MANIFEST)
    for path in folder.glob("part-*.parquet"):
        seal.remove(path)
    for path in [*folder.glob(f".part-*.parquet{seal.SUFFIX}"), *folder.glob(_TMP_GLOB)]:
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def writing(folder: str | os.PathLike) -> Iterator[Path]:
    """Hold ``folder`` for one writer: an exclusive lock on ``FOLDER/.writer.lock`` for as
    long as the block runs. A second writer is refused at once with a one-line
    :class:`DatasetError`. The lock is the operating system's (``flock``), so it ends with
    the process that holds it: a killed writer never leaves the folder blocked. A folder
    (or lock file) that is a symbolic link is refused."""
    folder = Path(folder)
    refuse_links(folder)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise DatasetError(f"output folder {folder}: {folder / LOCK} is a symbolic link; remove it") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            raise DatasetError(
                f"output folder {folder}: another process is writing there; wait for it to end or stop it"
            ) from None
        yield folder
    finally:
        os.close(fd)  # releases the lock


def remove_leftovers(root: str | os.PathLike, *, older_than: float = 0.0) -> list[Path]:
    """Delete temporary files left under ``root`` by killed writers (not younger than
    ``older_than`` seconds); return them."""
    root = Path(root)
    if not root.exists():
        return []
    now = time.time()
    gone = []
    for path in root.rglob(_TMP_GLOB):
        try:
            if now - path.stat().st_mtime >= older_than:
                path.unlink()
                gone.append(path)
        except FileNotFoundError:
            pass
    return gone


def dataset_folders(root: str | os.PathLike) -> list[Path]:
    """Folders under ``root`` (``root`` included) that hold parts or a manifest."""
    root = Path(root)
    found = {p.parent for p in root.rglob("part-*.parquet")} | {p.parent for p in root.rglob(MANIFEST)}
    return sorted(found)


def check_same_layout(root: str | os.PathLike, folders: Iterable[str | os.PathLike]) -> None:
    """Raise :class:`DatasetError` naming two of ``folders`` (under ``root``) that cannot be
    read as one table: other Hive partition keys in their paths (a fixed-order sweep beside
    a ``rule=roth`` one) or parts with other columns. Reads one part footer per folder."""
    root, first = Path(root), None
    for folder in map(Path, folders):
        keys = tuple(p.split("=", 1)[0] for p in folder.relative_to(root).parts if "=" in p)
        part = next(iter(sorted(folder.glob("part-*.parquet"))), None)
        schema = pq.read_schema(part).remove_metadata() if part is not None else None
        if first is None:
            first = (folder, keys, schema)
        elif keys != first[1]:
            raise DatasetError(
                f"{first[0]} and {folder}: datasets partitioned by {', '.join(first[1]) or 'nothing'} and by "
                f"{', '.join(keys) or 'nothing'} cannot be read as one table; scan each folder on its own"
            )
        elif schema is not None and first[2] is not None and not schema.equals(first[2]):
            raise DatasetError(
                f"{first[0]} and {folder}: parts with other columns cannot be read as one table; "
                "scan each folder on its own"
            )


def scan(root: str | os.PathLike, *, deep: bool = True, hive: bool = True):
    """A lazy polars frame over stored results, verified first.

    The project's one reader of stored results. A folder's datasets are each checked
    against their manifest; a table file is checked against its seal.

    Parameters
    ----------
    root : str or os.PathLike
        A folder holding dataset folders (``results/runs``, ``results/rules/runs``), or
        one sealed table file (``results/tables/completion.parquet``).
    deep : bool
        True checks every byte's SHA-256 (about 0.3 s per 100 MB); False checks sizes only.
    hive : bool
        Hive folder names such as ``board=8x8`` become columns (folders only).

    Returns
    -------
    polars.LazyFrame
        The rows of every part file under ``root`` (none collected).

    Raises
    ------
    knight.core.dataset.DatasetError
        In one line naming the missing path, a folder with no dataset, an unfinished
        folder or an untrustworthy file.

    See Also
    --------
    knight.sweep.tables, knight.rules.tables : Aggregates of the runs read.

    Examples
    --------
    >>> import tempfile, knight
    >>> out = tempfile.mkdtemp()
    >>> _ = knight.sweep.run(5, orders=["12345678", "87654321"], out=out)
    >>> runs = knight.scan(out)
    >>> runs.collect().shape, runs.collect_schema().names()[-1]
    ((50, 10), 'board')
    >>> knight.scan(out + "/nowhere")
    Traceback (most recent call last):
    knight.core.dataset.DatasetError: .../nowhere: no such file or folder
    """
    import polars as pl

    path = Path(root)
    if not path.exists():
        raise DatasetError(f"{root}: no such file or folder")
    if path.is_file():
        try:
            seal.check(path, recover="rerun the workflow to remake it")
        except seal.SealError as exc:
            raise DatasetError(str(exc)) from None
        check_part(path)
        return pl.scan_parquet(path)
    folders = dataset_folders(root)
    if not folders:
        raise DatasetError(f"{root}: no dataset here (no part files, no {MANIFEST})")
    files = [str(p) for folder in folders for p in verify(folder, deep=deep)]
    check_same_layout(root, folders)
    if not files:
        return pl.scan_parquet(str(Path(root) / "**" / "*.parquet")).head(0)
    return pl.scan_parquet(files, hive_partitioning=hive)
