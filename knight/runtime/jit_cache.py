"""Numba's on-disk cache, one folder per version of the package's source.

Numba finds a cached kernel stale only when the kernel's own file changes, not when a
function it calls from another file does (numba's documentation, "Cache invalidation"):
after an edit of :func:`knight.engine.tiebreak.narrow`, the cached kernels of
``knight.engine.walk`` and ``knight.engine.tree`` would go on running the old step, and
print numbers the new code does not give. So ``import knight`` points numba's cache
(``NUMBA_CACHE_DIR``) at a folder named by a hash of every source file of the package:
any edit anywhere is a new folder, compiled afresh once; an unchanged checkout keeps
its folder and loads its kernels in well under a second.

The folders live under ``$KNIGHT_CACHE_DIR``, else ``$XDG_CACHE_HOME/knight/numba``,
else ``~/.cache/knight/numba``; folders of other versions unused for
:data:`KEEP_DAYS` days are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

#: Folders of other source versions are removed once unused for this many days.
KEEP_DAYS = 14
#: The package whose sources key the cache.
PACKAGE = Path(__file__).resolve().parents[1]


def source_hash(root: str | Path = PACKAGE) -> str:
    """16 hex digits of the SHA-256 of every ``*.py`` under ``root`` (relative paths and
    bytes, in path order)."""
    root = Path(root)
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_base(environ=os.environ) -> Path:
    """The folder that holds one cache folder per source version."""
    if environ.get("KNIGHT_CACHE_DIR"):
        return Path(environ["KNIGHT_CACHE_DIR"])
    xdg = environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "knight" / "numba"


def _prune(base: Path, keep: Path) -> None:
    cutoff = time.time() - KEEP_DAYS * 86400
    for old in base.iterdir():
        try:
            if old != keep and old.is_dir() and old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


def configure(root: str | Path = PACKAGE, environ=os.environ) -> Path:
    """Point numba's cache at the folder of ``root``'s source version and return it.

    Call before the first kernel of ``root`` is defined (``import knight`` does): numba
    reads ``NUMBA_CACHE_DIR`` when it is imported and its ``config.CACHE_DIR`` when a
    ``cache=True`` function is defined, so both are set. A folder that cannot be made
    leaves numba's own default (caches beside the sources).
    """
    base = cache_base(environ)
    folder = base / source_hash(root)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        _prune(base, folder)
    except OSError:
        return folder
    environ["NUMBA_CACHE_DIR"] = str(folder)
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.config.CACHE_DIR = str(folder)
    return folder


__all__ = ["configure", "source_hash", "cache_base", "KEEP_DAYS"]
