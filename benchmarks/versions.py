"""The package as it was at a git commit, imported beside today's in one process.

A benchmark that measures old code against new builds the old code from a git ref at
run time, so that no frozen copy of a kernel lives in the tree::

    from versions import module
    old_tree = module("3881b74", "engine.tree")   # knight/engine/tree.py at 3881b74
    from knight.engine import tree as new_tree    # today's

:func:`package` extracts ``knight/`` at the ref (``git archive``) into a cache folder,
``$KNIGHT_REFS_DIR`` or else ``~/.cache/knight/refs`` (``$XDG_CACHE_HOME`` if set), one
folder per commit, under another top-level name, ``knight_<commit>``, with every absolute
reference to the package (``knight.x`` imports, lazy exports, ``importlib.resources``)
renamed: the old package then imports only itself, never today's modules.

Numba's on-disk cache: ``import knight`` points numba at a folder named by a hash of
today's sources (:mod:`knight.runtime.jit_cache`), and the old package's ``import``
points it at a folder of its own. Numba reads that setting when a kernel is defined, and
the package imports its kernel modules lazily, so whichever package was imported last
would own the folder of every kernel defined after it: today's kernels could be cached
in the old package's folder, where an edit of a function they call in another file does
not invalidate them. So today's setting is restored after the old package's import, and
the old package's kernels (and only they) are sent to its own folder by a numba cache
locator registered here: the two caches never mix.

Numba and two packages in one process: its dispatcher finds the types of a call's
arguments in C from a table of their layouts, filled by the first call with each
layout. A named tuple of the other package (``Outcomes``, the tie tree's ``Walk``...)
has the same layout and another type, so every call with one of them resolves its types
in Python instead: tens of microseconds a call, a few per cent of a tie-tree sweep of a
16 x 16 board done orbit by orbit (0.84 of the time between two copies of the same code
on roth's). The scripts therefore call the old code first, so that the bias, if any,
falls on today's code; its size shows in a comparison of a ref with itself (``--before
HEAD`` on a clean tree).
"""

from __future__ import annotations

import importlib
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numba
from numba.core import caching

import knight  # today's package first: it sets numba's cache folder
from knight.runtime import jit_cache

HERE = Path(__file__).resolve().parent


def refs_dir() -> Path:
    """Where materialised commits are kept."""
    if os.environ.get("KNIGHT_REFS_DIR"):
        return Path(os.environ["KNIGHT_REFS_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "knight" / "refs"


def commit(ref: str) -> str:
    """The full commit id of ``ref`` in this repository."""
    out = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--verify", f"{ref}^{{commit}}"], capture_output=True, text=True
    )
    if out.returncode:
        raise ValueError(f"not a commit of this repository: {ref!r} ({out.stderr.strip()})")
    return out.stdout.strip()


def _rename(text: str, name: str) -> str:
    """``text`` with every absolute reference to the package ``knight`` made to ``name``."""
    text = re.sub(r"(?<![\w.])knight(?=\.[A-Za-z_])", name, text)
    text = re.sub(r"^(\s*)(from|import)(\s+)knight\b", rf"\1\2\3{name}", text, flags=re.M)
    return re.sub(r"""(files\(\s*["'])knight(["'])""", rf"\g<1>{name}\2", text)


def materialise(sha: str) -> tuple[Path, str]:
    """(folder to put on ``sys.path``, package name) of the package at commit ``sha``,
    extracted once into :func:`refs_dir`."""
    name = f"knight_{sha[:10]}"
    folder = refs_dir() / sha
    if (folder / name / "__init__.py").exists():
        return folder, name
    top = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    cmd = ["git", "-C", top.stdout.strip(), "archive", "--prefix=knight/", f"{sha}:knight"]
    archive = subprocess.run(cmd, capture_output=True, check=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{sha[:10]}-", dir=folder.parent))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(tmp, filter="data")
    for path in (tmp / "knight").rglob("*.py"):
        path.write_text(_rename(path.read_text(encoding="utf-8"), name), encoding="utf-8")
    (tmp / "knight").rename(tmp / name)
    try:
        tmp.rename(folder)
    except OSError:  # another process got there first
        shutil.rmtree(tmp, ignore_errors=True)
    return folder, name


#: numba's names (public from numba 0.61 on)
_LOCATOR = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class _RefLocator(_LOCATOR):
    """Numba's cache locator for the kernels of materialised packages: each package's
    kernels go to its own folder (:data:`FOLDERS`), whatever numba's setting is."""

    #: top-level package name -> its cache folder
    FOLDERS: dict[str, str] = {}

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        top = py_func.__module__.partition(".")[0]
        self._cache_path = os.path.join(self.FOLDERS[top], self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if (getattr(py_func, "__module__", None) or "").partition(".")[0] not in cls.FOLDERS:
            return None
        # The source-file locator's constructor check (the file exists, the folder is
        # writable), without numba's own setting.
        return caching._SourceFileBackedLocatorMixin.from_function.__func__(cls, py_func, py_file)


def _register(name: str, root: Path) -> None:
    folder = jit_cache.cache_base() / jit_cache.source_hash(root)
    folder.mkdir(parents=True, exist_ok=True)
    _RefLocator.FOLDERS[name] = str(folder)
    classes = _IMPL._locator_classes
    if _RefLocator not in classes:
        classes.insert(0, _RefLocator)


def package(ref: str = "HEAD"):
    """The package ``knight`` at git ref ``ref``, imported as ``knight_<commit>``."""
    folder, name = materialise(commit(ref))
    if name in sys.modules:
        return sys.modules[name]
    _register(name, folder / name)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    saved = os.environ.get("NUMBA_CACHE_DIR"), numba.config.CACHE_DIR
    try:
        return importlib.import_module(name)
    finally:
        if saved[0] is None:
            os.environ.pop("NUMBA_CACHE_DIR", None)
        else:
            os.environ["NUMBA_CACHE_DIR"] = saved[0]
        numba.config.CACHE_DIR = saved[1]


def module(ref: str, dotted: str):
    """Module ``knight.<dotted>`` (e.g. ``engine.tree``) as it was at ``ref``."""
    return importlib.import_module(f"{package(ref).__name__}.{dotted}")


def found_in(pkg: str, name: str, *homes: str):
    """``name`` from the first module ``<pkg>.<home>`` of ``homes`` that defines it, for
    ``pkg`` today's ``knight`` or a materialised one: a name that moved keeps every home
    it has had, today's first.

    >>> found_in("knight", "orbit_rows", "engine.rows", "engine.sweep").__module__
    'knight.engine.rows'
    """
    for home in homes:
        try:
            found = getattr(importlib.import_module(f"{pkg}.{home}"), name, None)
        except ModuleNotFoundError:
            continue
        if found is not None:
            return found
    raise ValueError(f"{name!r} is in none of {', '.join(homes)} of {pkg}")


def function(ref: str, name: str, *homes: str):
    """``name`` as it was at ``ref``, from the first of ``homes`` that defines it then
    (:func:`found_in`)."""
    return found_in(package(ref).__name__, name, *homes)


def load(what: str, name: str | None = None):
    """A module of the package at a commit, from ``REF:knight/x/y.py`` (as ``git show``
    names a file) or ``REF:knight.x.y``. ``name`` is ignored (kept for callers of the
    file loader this replaces). A bare file path is refused: its imports would resolve
    to today's package, not to the file's own commit."""
    ref, sep, path = what.partition(":")
    if not sep or os.path.exists(what):
        raise ValueError(f"{what!r}: give REF:knight/<module>.py (a git ref and a module of the package then)")
    dotted = path.removesuffix(".py").replace("/", ".")
    if not dotted.startswith("knight."):
        raise ValueError(f"{what!r}: the module must be under knight/")
    return module(ref, dotted.removeprefix("knight."))


def board_for(mod, board):
    """``board`` as a ``Board`` of the package of ``mod`` (a module or a function; a
    materialised package checks that a board is its own class)."""
    top = (getattr(mod, "__module__", None) or mod.__name__).partition(".")[0]
    return importlib.import_module(f"{top}.core.board").Board(board.rows, board.cols)


def rotated(names, rounds: int):
    """``names`` once a round for ``rounds`` rounds, the order rotated each round so that
    a drift of the machine's speed weighs on all of them."""
    names = list(names)
    for r in range(rounds):
        k = r % len(names)
        yield from names[k:] + names[:k]


def alternate(calls: dict, rounds: int, values: dict | None = None) -> dict[str, list[float]]:
    """Thread CPU seconds of each call of ``calls`` (name -> function of no argument),
    ``rounds`` rounds in :func:`rotated` order; each is called once first, untimed (numba
    compiles or loads its kernels), and what that call returns goes to ``values[name]``
    when ``values`` is given."""
    for name, fn in calls.items():
        value = fn()
        if values is not None:
            values[name] = value
    secs = {n: [] for n in calls}
    for n in rotated(calls, rounds):
        t0 = time.thread_time()
        calls[n]()
        secs[n].append(time.thread_time() - t0)
    return secs


def spread(num, den) -> str:
    """Round-by-round ratios ``num[i] / den[i]`` as ``median (min-max)``."""
    ratios = [a / b for a, b in zip(num, den)]
    return f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"


__all__ = [
    "alternate",
    "board_for",
    "commit",
    "found_in",
    "function",
    "load",
    "materialise",
    "module",
    "package",
    "refs_dir",
    "rotated",
    "spread",
]
_ = knight  # imported for its side effect (numba's cache folder of today's sources)
