"""The queens stage's jobs: timings, speed-up, sets and the frontier searches."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from pathlib import Path

from knight.pipeline.jobs.common import version_param
from knight.pipeline.paths import PATTERNS, path


class QueensJobs:
    """The queens stage's jobs: timings, speed-up, sets and the frontier searches.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _queens_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "queens": self._queens_targets,
        }

    def _queens_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "queens_timings": self._params_queens_timings,
            "queens_sets": self._params_queens_sets,
            "queens_unit": self._params_queens_unit,
            "queens_frontier": self._params_queens_frontier,
            "queens_speedup": lambda: version_param("queens_speedup"),
        }

    @cached_property
    def frontier(self) -> dict:
        """Frontier searches by name (``dominate-N-K``)."""
        return self.queens.frontier_by_name()

    def frontier_units(self, name: str) -> list[str]:
        """The unit files of one frontier search, one per job (its configured units)."""
        units = self.frontier[name].units
        return [PATTERNS["frontier_unit"].format(search=name, unit=f"{u:05d}") for u in range(units)]

    def frontier_record(self, name: str, unit: str) -> list[str]:
        """The committed record of one frontier unit (``records`` of its search) when there
        is one: the job's input, which it copies instead of searching; else none."""
        folder = self.frontier[name].records
        if folder is None:
            return []
        path = Path(folder) / f"unit-{unit}.json"
        return [str(path)] if path.is_file() else []

    def queens_minutes(self) -> int:
        """Generous run time of the timing job: about 15 s per instance-run, times repeats
        and worker counts."""
        q = self.config["queens"]
        counts = 6 if q["workers"] == "auto" else len(q["workers"]) + 1
        return 10 + len(q["instances"]) * q["repeats"] * counts // 4

    def _queens_targets(self) -> list[str]:
        return [path("queens_frontier", search=name, ext="parquet") for name in self.frontier] + [
            path("queens_timings", ext="parquet"),
            path("queens_speedup", ext="parquet"),
            path("queens_speedup", ext="png"),
            path("queens_sets", name="dominating_sets", ext="parquet"),
            path("queens_sets", name="placements", ext="parquet"),
            path("queens_sets", name="counts", ext="parquet"),
        ]

    def _params_queens_timings(self) -> dict:
        q = self.config["queens"]
        keys = ("instances", "workers", "repeats", "tasks")
        return {**{k: q[k] for k in keys}, **version_param("queens_timings")}

    def _params_queens_sets(self) -> dict:
        q = self.config["queens"]
        return {
            "dominate": q["sets"]["dominate"],
            "place": q["sets"]["place"],
            "count_dominate": q["counts"].get("dominate", []),
            "count_place": q["counts"].get("place", []),
            "tasks": q["tasks"],
            **version_param("queens_sets"),
        }

    def _frontier_instance(self, wc) -> list[int]:
        f = self.frontier[wc.search]
        return [f.n, f.k, f.units]

    def _params_queens_unit(self) -> dict:
        return {"instance": self._frontier_instance, **version_param("queens_unit")}

    def _params_queens_frontier(self) -> dict:
        return {"instance": self._frontier_instance, **version_param("queens_frontier")}
