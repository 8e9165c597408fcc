"""Seals: what the writer of a file recorded about its bytes, at write time.

Every file written through :func:`knight.core.io.atomic_path` gets a *seal*, a small JSON
file ``.NAME.seal`` beside it (hidden, so a glob such as ``**/*.parquet`` never reads it),
written by the same process from the finished temporary file just before it is renamed
into place::

    {"format": 1, "name": "board=5x5/part-0000.parquet", "bytes": 5712,
     "sha256": "…", "from": {"results/runs/board=5x5/part-0000.parquet": "…"}}

- ``name`` is the file's folder and name: a file moved or swapped into another place
  (another part, another board) no longer matches its seal, even with the seal beside it.
- ``bytes`` and ``sha256`` (hex) describe the bytes written. A seal is never computed from
  a file found on disk: only its writer makes one (:func:`write_seal`), so a damaged file
  is never blessed again.
- ``from`` (workflow jobs only) maps each input the job read to the SHA-256 its seal had
  (``None`` for an input without a seal, e.g. a Snakemake benchmark file): what the file
  was made from, so a start-up check can tell which results were made from a file that
  has since been damaged or remade (:mod:`knight.pipeline.integrity`).
- ``made_by`` says what made the bytes. A workflow job records its Snakemake rule, its
  results version and the digest of its parameters (:func:`params_digest`), so a
  well-formed file that another plan made (other orders, another results version) is
  told apart from the one the current plan would make. Any other writer records
  ``{"by": WRITER}``: the ``knight`` command that ran, else the Python API. The
  workflow trusts only files its own jobs made (a seal without a rule is foreign to it:
  :mod:`knight.pipeline.integrity`).

``from`` and ``made_by`` come from the :class:`Provenance` in force where the file is
written: the one a ``with recording(provenance):`` block opened (a workflow job's, by
:func:`knight.runtime.logs.script_logging`; a command's, by :func:`knight.cli.main`),
else :data:`API`. It is held in a :class:`contextvars.ContextVar`, so a block in one
thread (or one asyncio task) never changes what another records; a thread starts
outside every block (it records :data:`API`) unless it runs in a copy of its starter's
context (:func:`contextvars.copy_context`).

:func:`check` compares a file with its seal (size first, then SHA-256), and raises
:class:`SealError` naming the file and how to recover.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import os
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

FORMAT = 1
SUFFIX = ".seal"
_BLOCK = 1 << 22

#: Files this process has checked against their seals: path -> (size, mtime_ns, ctime_ns,
#: inode). A cache that only spares hashing a file again while it is unchanged (a file
#: whose size, times or inode differ is hashed again); it never changes what a seal records.
_checked: dict[str, tuple[int, int, int, int]] = {}


class SealError(ValueError):
    """A file differs from what its writer recorded (or has no record); the message names it."""


def seal_path(path: str | os.PathLike) -> Path:
    """Path of the seal of ``path``: ``.NAME.seal`` in the same folder."""
    path = Path(path)
    return path.parent / f".{path.name}{SUFFIX}"


def sealed_file(seal: str | os.PathLike) -> Path:
    """The file a seal path ``.NAME.seal`` belongs to."""
    seal = Path(seal)
    return seal.parent / seal.name[1 : -len(SUFFIX)]


def is_seal(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a seal file."""
    name = Path(path).name
    return name.startswith(".") and name.endswith(SUFFIX) and len(name) > len(SUFFIX) + 1


def seal_name(path: str | os.PathLike) -> str:
    """What a seal records as the file's name: ``FOLDER/NAME``."""
    path = Path(path)
    return f"{path.parent.name}/{path.name}"


def digest(path: str | os.PathLike) -> tuple[int, str]:
    """Size (bytes) and SHA-256 (hex) of a file, read in 4 MB blocks (hashlib releases the
    GIL on large blocks, so threads hash files in parallel)."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_BLOCK), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def params_digest(params) -> str:
    """16 hex digits of the SHA-256 of a job's parameters (a mapping) in one canonical
    JSON form: keys sorted, tuples as lists.

    >>> params_digest({"b": (1, 2), "a": "x"}) == params_digest({"a": "x", "b": [1, 2]})
    True
    """
    text = json.dumps(dict(params), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Provenance:
    """What the seals of the files written under it record besides their bytes.

    ``by`` names the writer outside a workflow job (``"knight sweep"``); a job sets
    ``rule`` (its Snakemake rule), ``version`` (its results version) and ``params`` (the
    digest of its parameters, :func:`params_digest`) instead. ``sources`` pairs each
    input the job read with its seal's SHA-256 (hex, or None for an input without a
    seal), sorted by path."""

    by: str = "the knight Python API"
    rule: str | None = None
    version: str = ""
    params: str = ""
    sources: tuple[tuple[str, str | None], ...] = ()

    @classmethod
    def of_job(cls, rule: str, params: Mapping, sources: Mapping[str, str | None]) -> Provenance:
        """A workflow job's: its ``rule``, its ``params`` (a mapping, with its results
        ``version`` among them) and ``sources`` (input path -> its seal's SHA-256 or None)."""
        params = dict(params)
        return cls(
            rule=str(rule),
            version=str(params.get("version", "")),
            params=params_digest(params),
            sources=tuple(sorted(sources.items())),
        )

    def made_by(self) -> dict[str, str]:
        """The seal's ``made_by``: the job's rule, version and parameters, or ``{"by": ...}``."""
        if self.rule is None:
            return {"by": self.by}
        return {"rule": self.rule, "version": self.version, "params": self.params}


#: What seals record outside every :func:`recording` block.
API = Provenance()
_current: contextvars.ContextVar[Provenance] = contextvars.ContextVar("knight_seal_provenance", default=API)


def current() -> Provenance:
    """The :class:`Provenance` in force here (:data:`API` outside every :func:`recording`)."""
    return _current.get()


@contextlib.contextmanager
def recording(provenance: Provenance) -> Iterator[Provenance]:
    """Seals written inside the block, in this thread or task, record ``provenance``;
    what was in force before returns at its end (blocks nest)."""
    if not isinstance(provenance, Provenance):
        raise TypeError(f"recording: {provenance!r} is not a seal.Provenance")
    token = _current.set(provenance)
    try:
        yield provenance
    finally:
        _current.reset(token)


def write_seal(path: str | os.PathLike, written: str | os.PathLike, made: Provenance | None = None) -> dict:
    """Seal ``path`` with the bytes of ``written``, the finished temporary file its writer
    is about to rename onto ``path`` (only a writer calls this), recording ``made`` (by
    default the :class:`Provenance` in force, :func:`current`). The seal itself is
    written atomically and flushed to disk. Returns the seal."""
    path = Path(path)
    made = current() if made is None else made
    size, sha = digest(written)
    seal = {"format": FORMAT, "name": seal_name(path), "bytes": size, "sha256": sha}
    if made.sources:
        seal["from"] = dict(made.sources)
    seal["made_by"] = made.made_by()
    target = seal_path(path)
    tmp = target.parent / f"{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(json.dumps(seal) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return seal


def read_seal(path: str | os.PathLike) -> dict | None:
    """The seal of ``path``, or None if it has none; :class:`SealError` if the seal itself
    cannot be read."""
    target = seal_path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SealError(f"{path}: its seal {target.name} cannot be read ({exc})") from None
    try:
        seal = json.loads(text)
        if not (isinstance(seal, dict) and isinstance(seal["bytes"], int) and isinstance(seal["sha256"], str)):
            raise ValueError("not a seal")
    except (ValueError, KeyError, TypeError) as exc:
        raise SealError(f"{path}: its seal {target.name} is damaged ({exc})") from None
    return seal


def mismatch(path: str | os.PathLike, seal: dict) -> str | None:
    """Why ``path`` does not match ``seal`` (a short phrase), or None if it matches."""
    path = Path(path)
    if seal.get("name") != seal_name(path):
        return f"its seal was written for {seal.get('name')}"
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    if size != seal["bytes"]:
        return f"{size} bytes where its writer wrote {seal['bytes']}"
    if digest(path)[1] != seal["sha256"]:
        return "bytes differ from what its writer recorded"
    return None


def _stamp(path: str | os.PathLike) -> tuple[int, int, int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def check(path: str | os.PathLike, *, required: bool = True, recover: str = "rerun to remake it") -> dict | None:
    """Check ``path`` against its seal; return the seal (None for an unsealed file when not
    ``required``). Raises :class:`SealError` naming the file, what is wrong and ``recover``.

    A file already checked by this process and not changed since (same size, times and
    inode) is not hashed again.
    """
    key = os.fspath(path)
    try:
        seal = read_seal(path)
    except SealError as exc:
        raise SealError(f"{exc}; {recover}") from None
    if seal is None:
        if required:
            raise SealError(f"{path}: no seal, so nothing says its bytes are the ones its writer wrote; {recover}")
        return None
    if key in _checked and os.path.exists(path) and _checked[key] == _stamp(path):
        return seal
    why = mismatch(path, seal)
    if why is not None:
        raise SealError(f"{path}: {why}; {recover}")
    _checked[key] = _stamp(path)
    return seal


def matches(path: str | os.PathLike) -> bool:
    """Whether ``path`` has a seal and matches it (see :func:`check`)."""
    try:
        return check(path) is not None
    except SealError:
        return False


def remember(path: str | os.PathLike) -> None:
    """Note that this process has just written ``path`` and its seal (no need to hash it
    again in this process while it is unchanged)."""
    _checked[os.fspath(path)] = _stamp(path)


def remove(path: str | os.PathLike) -> None:
    """Delete a file and its seal (either may be missing)."""
    for p in (Path(path), seal_path(path)):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    _checked.pop(os.fspath(path), None)
