"""Numba's cache is keyed by the package's source: a cached kernel never outlives an
edit of a function it calls from another file (numba itself checks only the kernel's
own file), so no stale compiled code gives numbers the current code does not."""

import os
import subprocess
import sys
import textwrap
import time

from knight.runtime import jit_cache

CALLEE = """
from numba import njit

@njit(cache=True)
def step(x):
    return x + {k}
"""
CALLER = """
from numba import njit
from pkg.callee import step

@njit(cache=True)
def kernel(x):
    return step(x) * 10
"""


def _package(tmp_path, k):
    pkg = tmp_path / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "callee.py").write_text(CALLEE.format(k=k))
    (pkg / "caller.py").write_text(CALLER)
    return pkg


def _run(tmp_path, configure: bool) -> int:
    """kernel(1) in a new process; with ``configure``, the cache keyed as knight keys its own."""
    setup = f"jit_cache.configure({str(tmp_path / 'pkg')!r})" if configure else "pass"
    code = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from knight.runtime import jit_cache
        {setup}
        from pkg.caller import kernel
        print(kernel(1))
        """
    )
    env = {**os.environ, "KNIGHT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


def test_an_edit_of_a_called_function_recompiles_its_callers(tmp_path):
    pkg = _package(tmp_path, 1)
    assert _run(tmp_path, configure=True) == 20  # compiled and cached
    assert _run(tmp_path, configure=True) == 20  # loaded from the cache
    time.sleep(0.01)
    (pkg / "callee.py").write_text(CALLEE.format(k=2))  # the callee's file only
    assert _run(tmp_path, configure=True) == 30  # the caller was not taken from the old cache
    versions = {jit_cache.source_hash(pkg)} | {p.name for p in (tmp_path / "cache").iterdir()}
    assert len(versions - {jit_cache.source_hash()}) == 2  # pkg before and after (and knight's own)


def test_without_the_keyed_cache_numba_keeps_the_stale_caller(tmp_path):
    """The fault the keyed cache prevents, as numba's documentation describes it."""
    pkg = _package(tmp_path, 1)
    assert _run(tmp_path, configure=False) == 20
    (pkg / "callee.py").write_text(CALLEE.format(k=2))
    assert _run(tmp_path, configure=False) == 20  # stale: the callee now adds 2


def test_hash_follows_every_source_file(tmp_path):
    pkg = _package(tmp_path, 1)
    before = jit_cache.source_hash(pkg)
    assert jit_cache.source_hash(pkg) == before
    (pkg / "callee.py").write_text(CALLEE.format(k=3))
    assert jit_cache.source_hash(pkg) != before
    (pkg / "callee.py").write_text(CALLEE.format(k=1))
    assert jit_cache.source_hash(pkg) == before
    (pkg / "new.py").write_text("")
    assert jit_cache.source_hash(pkg) != before


def test_knight_points_numba_at_its_source_version(tmp_path):
    import knight  # noqa: F401

    folder = jit_cache.cache_base() / jit_cache.source_hash()
    assert os.environ["NUMBA_CACHE_DIR"] == str(folder)
    assert folder.is_dir()


def test_old_versions_are_pruned(tmp_path):
    base = tmp_path / "cache"
    old, recent = base / ("0" * 16), base / ("1" * 16)
    for d in (old, recent):
        d.mkdir(parents=True)
    stale = time.time() - (jit_cache.KEEP_DAYS + 1) * 86400
    os.utime(old, (stale, stale))
    pkg = _package(tmp_path, 1)
    env = {"KNIGHT_CACHE_DIR": str(base)}
    folder = jit_cache.configure(pkg, environ=env)
    assert env["NUMBA_CACHE_DIR"] == str(folder)
    assert sorted(p.name for p in base.iterdir()) == sorted([recent.name, folder.name])
