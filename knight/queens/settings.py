"""The queens stage's settings (the workflow's ``queens`` section): the timed instances,
the frontier searches run as work units, the solutions written out. The JSON schema
gives the types; what it cannot say (a search's board within its kernel's limit, k
queens that fit) is checked here, once; :class:`~knight.core.checks.SettingError` names
the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from knight.core.checks import Problems, given_once
from knight.queens.checks import MAX_DOMINATE_N, MAX_PLACE_N


@dataclass(frozen=True)
class Frontier:
    """A dominating-set search of ``k`` queens on ``n`` x ``n`` dealt into ``units`` jobs;
    ``records``: a folder of its committed finished units, read instead of searching."""

    n: int
    k: int
    units: int
    records: str | None = None

    @property
    def name(self) -> str:
        return f"dominate-{self.n}-{self.k}"


@dataclass(frozen=True)
class QueensSettings:
    """The section's values, checked (:meth:`from_config`); ``section`` keeps the rest
    as the schema filled it in.

    >>> QueensSettings.from_config({"instances": [{"problem": "place", "n": 40}]})
    Traceback (most recent call last):
    knight.core.checks.SettingError: instances[0].n: 40: above the N-queens search's limit of 32
    """

    section: Mapping
    frontier: tuple[Frontier, ...] = ()

    @classmethod
    def from_config(cls, section: Mapping) -> QueensSettings:
        found = Problems()
        seen: dict = {}  # each search once per list: a repeat would repeat its rows
        for i, inst in enumerate(section.get("instances", [])):
            k = inst.get("k") if inst["problem"] == "dominate" else None
            _check_search(found, f"instances[{i}]", inst["n"], k)
            with found.under(f"instances[{i}]"):
                given_once(seen, ("instances", inst["problem"], inst["n"], k), f"instances[{i}]", repr(inst))
        frontier = []
        for i, inst in enumerate(section.get("frontier", [])):
            _check_search(found, f"frontier[{i}]", inst["n"], inst["k"])
            with found.under(f"frontier[{i}]"):
                given_once(seen, ("frontier", inst["n"], inst["k"]), f"frontier[{i}]", repr(inst))
            records = inst.get("records")
            if records is not None and Path(records).exists() and not Path(records).is_dir():
                found.add(f"frontier[{i}].records", f"{records}: not a folder")
            frontier.append(Frontier(inst["n"], inst["k"], inst.get("units", 1), records))
        for part in ("sets", "counts"):
            lists = section.get(part, {})
            for i, (n, k) in enumerate(lists.get("dominate", [])):
                _check_search(found, f"{part}.dominate[{i}]", n, k)
                with found.under(f"{part}.dominate[{i}]"):
                    given_once(seen, (part, n, k), f"{part}.dominate[{i}]", repr([n, k]))
            for i, n in enumerate(lists.get("place", [])):
                _check_search(found, f"{part}.place[{i}]", n, None)
                with found.under(f"{part}.place[{i}]"):
                    given_once(seen, (part, n), f"{part}.place[{i}]", repr(n))
        workers = section.get("workers", "auto")
        if isinstance(workers, list):
            for i, p in enumerate(workers):
                with found.under(f"workers[{i}]"):
                    given_once(seen, ("workers", p), f"workers[{i}]", repr(p))
        found.raise_any()
        return cls(section, tuple(frontier))

    def frontier_by_name(self) -> dict[str, Frontier]:
        return {f.name: f for f in self.frontier}


def _check_search(found: Problems, key: str, n: int, k: int | None) -> None:
    """A domination search (``k`` given) or an N-queens search of side ``n``."""
    limit = MAX_DOMINATE_N if k is not None else MAX_PLACE_N
    if n > limit:
        what = "domination search" if k is not None else "N-queens search"
        found.add(f"{key}.n", f"{n}: above the {what}'s limit of {limit}")
    elif k is not None and k > n * n:
        found.add(f"{key}.k", f"{k}: {k} queens do not fit on the {n}x{n} board ({n * n} squares)")
