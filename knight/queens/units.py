"""Work units of the dominating-set class search, and their results on disk.

A plan expands the search (:mod:`knight.queens.orbits`) to the shallowest depth with at
least ``NODES_PER_UNIT`` live nodes per unit and deals the nodes round-robin into the
units: neighbouring nodes have similar subtrees, so each unit gets a like mix of heavy
and light ones, and many nodes per unit keep the units' costs close. The plan depends
only on ``(n, k, units)`` and the code, never on the workers.

A store is a folder holding ``plan.json`` (the instance, the versions and a fingerprint
of the plan's nodes) and one ``unit-NNNNN.json`` per finished unit, each written
atomically: a killed run loses only the units it was searching. A unit file carries
its identity (problem, n, k, unit, units, plan fingerprint, sets version), the nodes
version it was searched with, its result (counts, wall and CPU seconds, class
representatives with their orbit sizes: the sets are the orbits of the representatives)
and the SHA-256 of all of that (:func:`unit_record`). Reading a unit back
(:meth:`Store.finished`) verifies it: the checksum, the identity, and the result itself
(every representative dominates the board, its orbit has the stated size, the counts
add up). A unit that does not verify is damaged: it is searched again, with one warning
naming the file (or, with ``repair=False``, refused with :class:`UnitError`). A unit, or
a ``plan.json``, of another instance, plan or sets version is refused
(:class:`ForeignStoreError`): a store is never mixed. A store its caller owns (``owned``:
the workflow's own, under ``results/``) is instead replaced: a ``plan.json`` of another
plan (say, from before an upgrade) is named in one warning and its files removed, under
a lock, so the units are searched again. Temporary files left by a killed writer are
removed when a whole search opens the store.

Three versions say which stored units are still good (docs/queens.md, "The store"):

- :data:`PLAN_VERSION`, hashed into the plan's fingerprint: a unit of another plan covers
  other nodes and is refused;
- :data:`SETS_VERSION`, in every unit's identity: what a unit of the same plan finds (its
  class representatives and orbit sizes); a unit of another sets version is refused;
- :data:`NODES_VERSION`, recorded for information only: the pruning, which decides the
  nodes a unit visits (its ``nodes`` count and CPU seconds) but not the sets it finds. A
  faster search bumps it and every stored unit stays good.

Committed records (``data/a002564/n20/``) are such a store; the workflow's frontier jobs
read a verified record instead of searching (:class:`Keeping`'s ``records``), and a
stopped run (:func:`knight.queens.search.dominate`'s ``stop_at``) raises :class:`Stopped`
after writing what finished.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knight.core import seal
from knight.core.io import atomic_path
from knight.queens import orbits
from knight.queens.parallel import deal

#: Frontier nodes wanted per unit before dealing them out.
NODES_PER_UNIT = 32
#: Version of the plan's cut (how the search is expanded and its nodes dealt into units),
#: hashed into the fingerprint: bumped only when the same ``(n, k, units)`` could deal
#: other nodes into a unit without the nodes themselves changing. Every unit of another
#: plan is refused.
PLAN_VERSION = 3
#: Version of what a unit finds: bumped by any change that could change the class
#: representatives or orbit sizes a unit of the same plan finds (the class key, a symmetry
#: cut below the plan's depth, a bound that might cut a solution). A unit or store of
#: another sets version is refused.
SETS_VERSION = 1
#: Version of the search's pruning: bumped by a change that alters the nodes a unit visits
#: (its ``nodes`` count and CPU seconds) but never what it finds, such as a tighter exact
#: bound or a cheaper node. Recorded in each unit for information; a unit searched under
#: another nodes version is read back like any other.
NODES_VERSION = 2
#: Version of the unit file layout (:func:`unit_record`).
UNIT_FORMAT = 3

_UNIT_RE = re.compile(r"^unit-(\d{5,})\.json$")
#: Temporary files of the store's atomic writes (``knight.core.io.atomic_path``).
_LEFTOVERS = (".unit-*.json.*.tmp", ".plan.json.*.tmp", ".classes.parquet.*.tmp", ".classes.csv.*.tmp")

log = logging.getLogger("knight.queens")


class UnitError(ValueError):
    """A unit file cannot be trusted (unreadable, checksum, content); the message names it."""


class ForeignStoreError(ValueError):
    """The store holds a unit or plan of another search; the message names the file."""


class Stopped(RuntimeError):
    """A search stopped at its deadline (``stop_at``) with units left; every unit that
    finished is in the store. ``done`` and ``left`` count the units of the search,
    ``cpu`` the CPU seconds of the done ones (as their files record them)."""

    def __init__(self, done: int, left: int, cpu: float):
        super().__init__(f"stopped at the deadline: {done} unit(s) done, {left} left, {cpu:,.1f} CPU s spent")
        self.done, self.left, self.cpu = done, left, cpu


@dataclass(frozen=True)
class Keeping:
    """Where and how a class search keeps its units (:func:`knight.queens.dominate`'s
    ``store``, which takes a plain folder for ``Keeping(folder)``).

    ``folder``: where each finished unit is written and read back from (:class:`Store`).
    ``repair``: a damaged unit is searched again after one warning (False: refused with
    :class:`UnitError`, for a merge that must not search). ``owned``: the caller owns the
    folder (the workflow's own under ``results/``), so a store of another plan there is
    replaced, not refused. ``records``: a folder of finished units of the same plan that
    is only read (committed records): a unit missing from ``folder`` whose record there
    verifies is copied into ``folder`` unchanged instead of searched."""

    folder: str | os.PathLike
    repair: bool = True
    owned: bool = False
    records: str | os.PathLike | None = None


@dataclass
class Plan:
    """The units of one search: ``batches[i] = (chosen int32[m, D], forbidden uint64[m, W])``."""

    n: int
    k: int
    depth: int
    nodes: int
    batches: list
    fingerprint: str

    @property
    def units(self) -> int:
        return len(self.batches)

    def manifest(self) -> dict:
        return {
            "problem": "dominate",
            "n": self.n,
            "k": self.k,
            "units": self.units,
            "depth": self.depth,
            "nodes": self.nodes,
            "fingerprint": self.fingerprint,
            "version": PLAN_VERSION,
            "sets_version": SETS_VERSION,
        }

    def identity(self, unit: int) -> dict:
        """What a unit file of unit ``unit`` of this plan must say it is."""
        return {
            "problem": "dominate",
            "n": self.n,
            "k": self.k,
            "unit": unit,
            "units": self.units,
            "plan": self.fingerprint,
            "sets_version": SETS_VERSION,
        }


def make_plan(n: int, k: int, units: int) -> Plan:
    """Split the class search for ``k`` queens on ``n x n`` into ``units`` units (empty
    ones when it has fewer nodes)."""
    chosen, forbidden = orbits.root(n)
    depth = 0
    target = units * NODES_PER_UNIT
    for d in range(1, k - 1):
        if len(chosen) >= target:
            break
        nxt = orbits.nodes_at(n, k, d)
        if len(nxt[0]) == 0:  # nothing survives at this depth: keep the shallower nodes
            break
        chosen, forbidden, depth = nxt[0], nxt[1], d
    digest = hashlib.sha256(f"{PLAN_VERSION} {n} {k} {depth}".encode())
    digest.update(np.ascontiguousarray(chosen).tobytes())
    digest.update(np.ascontiguousarray(forbidden).tobytes())
    batches = [(chosen[i], forbidden[i]) for i in deal(len(chosen), units)]
    # Exactly ``units`` units, some empty when the search has fewer nodes: the workflow
    # plans one job per unit from the config alone, without expanding the search.
    batches += [(chosen[:0], forbidden[:0])] * (units - len(batches))
    return Plan(n, k, depth, len(chosen), batches, digest.hexdigest()[:16])


def solve_unit(n: int, k: int, chosen: np.ndarray, forbidden: np.ndarray) -> dict:
    """Finish one unit: its counts, the CPU seconds of its thread (``cpu``) and its class
    representatives (sorted squares, orbit size)."""
    c0 = time.thread_time()
    solutions, classes, nodes, reps, orbit = orbits.solve(n, k, chosen, forbidden, sym=True, keep=True)
    return {
        "solutions": int(solutions),
        "classes": int(classes),
        "nodes": int(nodes),
        "cpu": time.thread_time() - c0,
        "representatives": reps.tolist(),
        "orbits": orbit.tolist(),
    }


def solve_unit_until(stop_at: float | None, n: int, k: int, chosen: np.ndarray, forbidden: np.ndarray) -> dict | None:
    """:func:`solve_unit`, or None without searching when the clock (``time.time()``, so
    that workers on other machines agree) has passed ``stop_at``: a unit started before
    the deadline is finished, none is started after it."""
    if stop_at is not None and time.time() >= stop_at:
        return None
    return solve_unit(n, k, chosen, forbidden)


# --- unit files --------------------------------------------------------------------------
def _digest(body: dict) -> str:
    """SHA-256 of a unit's fields in one canonical JSON form (keys sorted, no spaces)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def unit_record(plan: Plan, unit: int, result: dict, seconds: float) -> dict:
    """The JSON object of a unit file: ``format``, identity, ``nodes_version``, ``seconds``
    (wall), ``result`` (:func:`solve_unit`; ``cpu`` in CPU seconds) and their ``sha256``."""
    body = {
        "format": UNIT_FORMAT,
        **plan.identity(unit),
        "nodes_version": NODES_VERSION,
        "seconds": float(seconds),
        "result": result,
    }
    return {**body, "sha256": _digest(body)}


def result_problem(n: int, k: int, result: dict) -> str | None:
    """What is wrong with a unit's ``result`` for ``k`` queens on ``n x n``, or None.

    Checked without searching: the counts are integers that add up (one orbit size per
    representative, the orbits summing to the solutions), each representative is ``k``
    distinct squares of the board in increasing order that cover every square, and its
    orbit under the 8 symmetries has the size stated.
    """
    from knight.queens.symmetry import square_images

    try:
        reps = np.asarray(result["representatives"], dtype=np.int64).reshape(-1, k)
        orbs = np.asarray(result["orbits"], dtype=np.int64).reshape(-1)
        counts = [result[key] for key in ("solutions", "classes", "nodes")]
    except (KeyError, TypeError, ValueError) as exc:
        return f"malformed result ({type(exc).__name__}: {exc})"
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        return f"counts are not non-negative integers: {counts}"
    solutions, classes, _ = counts
    if len(reps) != classes or len(orbs) != classes:
        return f"{len(reps)} representatives and {len(orbs)} orbit sizes for {classes} classes"
    if int(orbs.sum()) != solutions:
        return f"orbit sizes sum to {int(orbs.sum())}, not to the {solutions} solutions"
    if not len(reps):
        return None
    if reps.min() < 0 or reps.max() >= n * n or (k > 1 and (np.diff(reps, axis=1) <= 0).any()):
        return f"a representative is not {k} increasing squares of the {n}x{n} board"
    lines = orbits.line_table(n)  # [n*n, 4] line ids of each square
    covered = np.zeros((len(reps), 6 * n - 2), dtype=bool)
    np.put_along_axis(covered, lines[reps].reshape(len(reps), -1), True, axis=1)
    dominated = covered[:, lines].any(axis=2).all(axis=1)
    if not dominated.all():
        return f"representative {reps[~dominated][0].tolist()} does not cover the board"
    images = np.sort(square_images(n)[:, reps], axis=2).transpose(1, 0, 2)  # [m, 8, k]
    g = images.shape[1]
    flat = images.reshape(-1, k)
    group = np.repeat(np.arange(len(reps)), g)
    order = np.lexsort([flat[:, j] for j in range(k - 1, -1, -1)] + [group])
    rows = flat[order].reshape(len(reps), g, k)
    distinct = 1 + (rows[:, 1:] != rows[:, :-1]).any(axis=2).sum(axis=1)
    if not np.array_equal(distinct, orbs):
        bad = int(np.flatnonzero(distinct != orbs)[0])
        return f"representative {reps[bad].tolist()} has an orbit of {int(distinct[bad])}, not {int(orbs[bad])}"
    return None


def leftovers(folder: Path) -> list[Path]:
    """Temporary files of interrupted writes (``knight.core.io.atomic_path``) in a store."""
    if not folder.is_dir():
        return []
    return sorted({p for pattern in _LEFTOVERS for p in folder.glob(pattern)})


class Store:
    """A folder of finished units of one plan (see the module docstring).

    ``repair``: a unit that does not verify is searched again after one warning (True),
    or refused with :class:`UnitError` (False: a merge that must not search). ``clean``:
    remove the temporary files of killed writers (a whole search owns its store; jobs
    that each run one unit beside others must leave their neighbours' files alone).
    ``owned``: the caller owns the folder (the workflow's store under ``results/``), so a
    store of another plan found there is replaced with one warning instead of refused,
    and a unit of another plan is searched again; a store given on the command line is
    never owned. ``readonly``: a store read from and never written (committed records
    read by a workflow job): no ``plan.json`` is written, no file removed; a unit that
    does not verify is left out with one warning.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        plan: Plan,
        *,
        repair: bool = True,
        clean: bool = True,
        owned: bool = False,
        readonly: bool = False,
    ):
        self.path = Path(path)
        self.plan = plan
        self.repair = repair
        self.owned = owned
        self.readonly = readonly
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"store {self.path}: exists and is not a folder")
        if clean and not readonly:
            for path in leftovers(self.path):
                log.warning("%s: temporary file of an interrupted write; removed", path)
                path.unlink(missing_ok=True)
        self._check_manifest()

    def _check_manifest(self) -> None:
        manifest = self.path / "plan.json"
        want = self.plan.manifest()
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text())
            except (OSError, ValueError) as exc:
                old = None
                log.warning("%s: unreadable (%s); written again (every unit carries its own identity)", manifest, exc)
            if old is not None and old != want:
                if self.owned:
                    return self._replace()
                raise ForeignStoreError(
                    f"{manifest}: the store of another search ({_describe(old)}), not of this one "
                    f"({_describe(want)}); " + _ADVICE
                )
            if old is not None:
                return
        if self.readonly:
            return
        try:
            with atomic_path(manifest) as tmp:
                tmp.write_text(json.dumps(want, indent=1) + "\n")
        except OSError as exc:
            raise ValueError(f"store {self.path}: cannot write there ({exc.strerror or exc})") from None

    def _replace(self) -> None:
        """Replace an owned store of another plan: under an exclusive lock on the store's
        ``.lock`` (the workflow's unit jobs open it side by side: the first one replaces,
        the others find the new plan), remove the old ``plan.json`` and every unit that
        is not of this plan, then write this plan's ``plan.json``."""
        manifest = self.path / "plan.json"
        with _locked(self.path / ".lock"):
            try:
                old = json.loads(manifest.read_text())
            except (OSError, ValueError):
                old = None
            if old == self.plan.manifest():
                return  # another job replaced it meanwhile
            removed = clean_store(self.path, self.plan, temporary=False)
            log.warning(
                "%s: the store of another search (%s), not of this one (%s); replaced (old files removed: %d), "
                "its units are searched again",
                manifest,
                _describe(old),
                _describe(self.plan.manifest()),
                len(removed),
            )
            with atomic_path(manifest) as tmp:
                tmp.write_text(json.dumps(self.plan.manifest(), indent=1) + "\n")

    def unit_path(self, i: int) -> Path:
        return self.path / f"unit-{i:05d}.json"

    def unit_files(self) -> dict[int, Path]:
        """``{unit: path}`` of every ``unit-*.json`` in the folder; a unit number outside
        the plan is refused (:class:`ForeignStoreError`)."""
        out = {}
        if not self.path.is_dir():
            return out
        for path in self.path.iterdir():
            m = _UNIT_RE.match(path.name)
            if m is None:
                continue
            i = int(m.group(1))
            if i >= self.plan.units and self.owned:
                log.warning("%s: unit %d of another plan (this one has %d units); removed", path, i, self.plan.units)
                seal.remove(path)
                continue
            if i >= self.plan.units:
                raise ForeignStoreError(
                    f"{path}: unit {i} of another plan (this search, {_describe(self.plan.manifest())}, "
                    f"has units 0..{self.plan.units - 1}); " + _ADVICE
                )
            out[i] = path
        return out

    def read(self, i: int) -> tuple[dict, float]:
        """``(result, seconds)`` of unit ``i`` after verifying its file (:meth:`record`)."""
        body = self.record(i)
        return body["result"], float(body["seconds"])

    def record(self, i: int) -> dict:
        """The JSON object of unit ``i``'s file (:func:`unit_record`) after verifying it.

        Raises :class:`UnitError` if the file is unreadable, its checksum or its content
        is wrong, or it holds another unit of this plan; :class:`ForeignStoreError` if it
        belongs to another search (instance, plan, sets version or file format)."""
        path = self.unit_path(i)
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise UnitError(f"{path}: not a readable unit file ({exc})") from None
        if not isinstance(data, dict) or "sha256" not in data:
            raise UnitError(f"{path}: not a unit file of this version (no checksum)")
        body = {key: value for key, value in data.items() if key != "sha256"}
        if _digest(body) != data["sha256"]:
            raise UnitError(f"{path}: its content does not match its checksum (the file was changed or damaged)")
        want = self.plan.identity(i)
        got = {key: body.get(key) for key in want}
        if {**got, "unit": i} != want or body.get("format") != UNIT_FORMAT:
            theirs = _describe({**got, "format": body.get("format")})
            raise ForeignStoreError(
                f"{path}: a unit of another search ({theirs}), not of this one "
                f"({_describe(self.plan.manifest())}); " + _ADVICE
            )
        if got["unit"] != i:
            raise UnitError(f"{path}: holds unit {got['unit']}, not unit {i} (a copied or renamed file)")
        problem = result_problem(self.plan.n, self.plan.k, body.get("result"))
        if problem is None and not isinstance(body.get("seconds"), (int, float)):
            problem = f"seconds {body.get('seconds')!r} is not a number"
        nodes_version = body.get("nodes_version")
        if problem is None and (isinstance(nodes_version, bool) or not isinstance(nodes_version, int)):
            problem = f"nodes_version {nodes_version!r} is not an integer"
        if problem is not None:
            raise UnitError(f"{path}: {problem}")
        return data

    def finished(self, wanted=None) -> dict[int, tuple[dict, float]]:
        """``{unit: (result, seconds)}`` of the verified units on disk (of ``wanted`` units
        only, when given). A unit that does not verify is left out and removed, with one
        warning naming it, so that it is searched again; with ``repair=False`` it raises."""
        files = self.unit_files()
        out = {}
        for i in sorted(files if wanted is None else set(wanted) & set(files)):
            try:
                out[i] = self.read(i)
            except ForeignStoreError as exc:
                if not self.owned:
                    raise
                log.warning("%s; searched again", exc)
                seal.remove(files[i])
            except UnitError as exc:
                if self.readonly:
                    log.warning("%s; searched instead", exc)
                    continue
                if not self.repair:
                    raise UnitError(f"{exc}; delete it and rerun to search the unit again") from None
                log.warning("%s; searched again", exc)
                files[i].unlink(missing_ok=True)
        return out

    def write(self, i: int, result: dict, seconds: float) -> None:
        """Write unit ``i``'s file (:func:`unit_record`), atomically."""
        self.put(i, unit_record(self.plan, i, result, seconds))

    def put(self, i: int, record: dict) -> None:
        """Write ``record`` (a unit file's JSON object, verified elsewhere, e.g. by another
        store's :meth:`record`) as unit ``i``'s file, atomically and unchanged."""
        if self.readonly:
            raise ValueError(f"store {self.path}: read only")
        with atomic_path(self.unit_path(i)) as tmp:
            tmp.write_text(json.dumps(record) + "\n")


def stored_units(folder: str | os.PathLike, problem: str, n: int, k: int) -> int | None:
    """The number of units of the plan in ``folder``'s ``plan.json`` when that plan is of
    this search (``problem``, ``n``, ``k``), else None (no folder or plan, an unreadable
    one, another search's). Only the count: :class:`Store` still checks the whole plan.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> stored_units(folder, "dominate", 8, 5) is None
    True
    >>> _ = Store(folder, make_plan(8, 5, 8))  # writes the plan of 8 units
    >>> stored_units(folder, "dominate", 8, 5), stored_units(folder, "dominate", 9, 5)
    (8, None)
    """
    try:
        info = json.loads((Path(folder) / "plan.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or (info.get("problem"), info.get("n"), info.get("k")) != (problem, n, k):
        return None
    units = info.get("units")
    return units if isinstance(units, int) and not isinstance(units, bool) and units >= 1 else None


_ADVICE = "use another folder or remove it"


def _describe(info: dict) -> str:
    """``dominate n=13 k=7, 8 units, plan 0123abcd...`` from a manifest or a unit identity."""
    if not isinstance(info, dict):
        return f"{info!r}"
    plan = info.get("fingerprint", info.get("plan"))
    text = f"{info.get('problem')} n={info.get('n')} k={info.get('k')}, {info.get('units')} units, plan {plan}"
    if "version" in info and info["version"] != PLAN_VERSION:
        text += f" of plan version {info['version']}"
    if info.get("sets_version") != SETS_VERSION:
        text += f", sets version {info.get('sets_version')}"
    if "format" in info and info["format"] != UNIT_FORMAT:
        text += f", unit file format {info['format']}"
    return text


@contextlib.contextmanager
def _locked(path: Path):
    """Hold an exclusive ``flock`` on ``path`` (created if need be; released with the
    process however it ends)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def clean_store(path: str | os.PathLike, plan: Plan, *, temporary: bool = True) -> list[str]:
    """Leave only verified units of ``plan`` in a store the workflow owns; one line per
    file removed (each is remade by its job).

    Removes the temporary files of interrupted writes (unless not ``temporary``: other
    jobs may be writing beside), a ``plan.json`` of another plan together with every
    unit file (a changed ``units`` or changed code), and each unit file that does not
    verify (:meth:`Store.read`); each with its seal."""
    folder = Path(path)
    if not folder.is_dir():
        return []
    lines = []
    for leftover in leftovers(folder) if temporary else []:
        leftover.unlink(missing_ok=True)
        lines.append(f"removing {leftover}: temporary file of an interrupted write")
    manifest = folder / "plan.json"
    try:
        old = json.loads(manifest.read_text()) if manifest.exists() else plan.manifest()
    except (OSError, ValueError):
        old = None
    units = sorted(p for p in folder.iterdir() if _UNIT_RE.match(p.name))
    if old != plan.manifest():
        # plan.json last: while it is the old one, a unit job beside sees another plan and waits.
        for p in [*units, manifest]:
            seal.remove(p)
            lines.append(f"removing {p}: not of the current plan ({_describe(plan.manifest())})")
        return lines
    store = Store(folder, plan, repair=False, clean=False)
    for p in units:
        i = int(_UNIT_RE.match(p.name).group(1))
        try:
            if i >= plan.units:
                raise UnitError(f"{p}: unit {i} is not among the plan's {plan.units} units")
            store.read(i)
        except (UnitError, ForeignStoreError) as exc:
            seal.remove(p)
            lines.append(f"removing {exc}")
    return lines
