"""Which library code a workflow script runs, and one hash of it.

A Snakemake rule whose script imports ``knight`` modules must rerun when their code changes, and
only then. :func:`code_version` follows the script's imports (static, from the source:
every ``import knight...`` / ``from knight... import ...``, also inside functions)
through the package, and hashes the sources it reaches plus the package data they
read. The workflow passes the hash as a Snakemake rule parameter, so a changed module
reruns exactly the jobs of the Snakemake rules that use it, and moving or copying the project changes nothing (no
absolute paths are recorded).

Modules that cannot change a result (where and how work runs: Dask clients, progress
lines, logging, the command line) are left out of the hash.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
#: Modules that decide where and how work runs, never what it computes.
NEUTRAL = frozenset(
    {"knight.runtime", "knight.runtime.cluster", "knight.runtime.progress", "knight.runtime.logs", "knight.cli"}
)
_DATA_MARK = "resources.files("


def module_file(name: str) -> Path | None:
    """Source file of module ``knight...`` (a package's ``__init__.py``), or None."""
    parts = name.split(".")
    if parts[0] != "knight":
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def lazy_exports(package: str) -> dict[str, str]:
    """The ``_EXPORTS`` table of a package's ``__init__`` (name -> module its value comes
    from on first use, :mod:`knight._lazy`), or {}."""
    path = module_file(package)
    if path is None or path.name != "__init__.py":
        return {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def _whole_package(package: str) -> list[str]:
    """Every module of a package: what ``import package`` reaches by attribute."""
    path = module_file(package)
    if path is None or path.name != "__init__.py":
        return []
    names = [".".join(["knight", *f.relative_to(PACKAGE).with_suffix("").parts]) for f in path.parent.rglob("*.py")]
    return sorted(n.removesuffix(".__init__") for n in names)


def imported_modules(source: str) -> set[str]:
    """``knight`` modules named by the import statements of ``source`` (any depth).

    ``from package import name`` of a name a package serves on first use adds the
    module it comes from; ``import package`` adds the whole package (its names and
    submodules are all one attribute away)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
            names += [m for a in node.names for m in _whole_package(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from knight.x import y": y may be a module of package knight.x
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            exports = lazy_exports(node.module)
            names += [exports[a.name] for a in node.names if a.name in exports]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] != "knight":
                continue
            for i in range(1, len(parts) + 1):  # parents run their __init__ first
                if module_file(".".join(parts[:i])) is not None:
                    found.add(".".join(parts[:i]))
    return found


@cache
def _imports_of_module(name: str) -> frozenset[str]:
    return frozenset(imported_modules(module_file(name).read_text()))


def closure(modules) -> set[str]:
    """``modules`` and every ``knight`` module they import, transitively."""
    todo, seen = list(modules), set()
    while todo:
        name = todo.pop()
        if name in seen or module_file(name) is None:
            continue
        seen.add(name)
        todo.extend(_imports_of_module(name) - seen)
    return seen


def code_files(*scripts: str | Path, modules=()) -> list[Path]:
    """Source files (and package data) the scripts and modules depend on, sorted."""
    names = set(modules)
    for script in scripts:
        names |= imported_modules(Path(script).read_text())
    names = closure(names) - NEUTRAL
    files = {module_file(n) for n in names}
    if any(_DATA_MARK in f.read_text() for f in files):
        files |= {p for p in (PACKAGE / "data").iterdir() if p.is_file()}
    return sorted(files)


def code_version(*scripts: str | Path, modules=()) -> str:
    """Short SHA-256 over the code the scripts and modules depend on (paths relative to
    the package, then contents), stable across checkouts and machines."""
    h = hashlib.sha256()
    for path in code_files(*scripts, modules=modules):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]
