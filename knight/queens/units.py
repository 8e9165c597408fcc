"""Work units of the dominating-set class search, and their results on disk.

A plan expands the search (:mod:`knight.queens.orbits`) to the shallowest depth with at
least ``NODES_PER_UNIT`` live nodes per unit and deals the nodes round-robin into the
units: neighbouring nodes have similar subtrees, so each unit gets a like mix of heavy
and light ones, and many nodes per unit keep the units' costs close. The plan depends
only on ``(n, k, units)`` and the code, never on the workers.

A store is a folder holding ``plan.json`` (the instance and a fingerprint of the
plan's nodes) and one ``unit-NNNNN.json`` per finished unit (its counts, wall and CPU seconds and
class representatives), each written atomically. A search given a store skips the
units already there, so an interrupted search resumes where it stopped; a store made
by another plan (other units, or changed code) is refused rather than mixed in.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knight.core.io import atomic_path
from knight.queens import orbits
from knight.queens.parallel import deal

#: Frontier nodes wanted per unit before dealing them out.
NODES_PER_UNIT = 32
#: Bumped when the search or the plan changes, so old stores are refused.
PLAN_VERSION = 1


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
        }


def make_plan(n: int, k: int, units: int) -> Plan:
    """Split the class search for ``k`` queens on ``n x n`` into at most ``units`` units."""
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


class Store:
    """A folder of finished units of one plan (see the module docstring)."""

    def __init__(self, path: str | os.PathLike, plan: Plan):
        self.path = Path(path)
        self.plan = plan
        manifest = self.path / "plan.json"
        if manifest.exists():
            old = json.loads(manifest.read_text())
            if old != plan.manifest():
                raise ValueError(
                    f"{self.path} holds units of another search ({old.get('n')}x{old.get('n')}, "
                    f"k={old.get('k')}, {old.get('units')} units, plan {old.get('fingerprint')}); "
                    f"use another folder or remove it"
                )
        else:
            with atomic_path(manifest) as tmp:
                tmp.write_text(json.dumps(plan.manifest(), indent=1) + "\n")

    def unit_path(self, i: int) -> Path:
        return self.path / f"unit-{i:05d}.json"

    def finished(self) -> dict[int, tuple[dict, float]]:
        """``{unit: (result, seconds)}`` of the units already on disk."""
        out = {}
        for i in range(self.plan.units):
            p = self.unit_path(i)
            if p.exists():
                data = json.loads(p.read_text())
                out[i] = (data["result"], float(data["seconds"]))
        return out

    def write(self, i: int, result: dict, seconds: float) -> None:
        with atomic_path(self.unit_path(i)) as tmp:
            tmp.write_text(json.dumps({"unit": i, "seconds": seconds, "result": result}) + "\n")
