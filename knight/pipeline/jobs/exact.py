"""The exact stage's jobs: backtracking runs and their tables, constructed tours."""

from __future__ import annotations

from collections.abc import Callable

from knight.pipeline.jobs.common import version_param
from knight.pipeline.paths import path


class ExactJobs:
    """The exact stage's jobs: backtracking runs and their tables, constructed tours.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _exact_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "exact": self._exact_targets,
        }

    def _exact_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "exact_backtrack_board": self._params_exact_backtrack_board,
            "exact_construct": self._params_exact_construct,
            "exact_backtrack_tables": lambda: version_param("exact_backtrack_tables"),
            "exact_tour": lambda: version_param("exact_tour"),
        }

    def exact_starts_tables(self) -> list[str]:
        """The sweep's per-start table of every backtracking board (when joined)."""
        if not self.config["exact"]["backtrack"]["warnsdorff"]:
            return []
        boards = dict.fromkeys(b.name for b, _ in self.exact.runs.values())
        return [path("board_tables", board=b, name="starts") for b in boards]

    def _exact_targets(self) -> list[str]:
        names = ("runs", "summary", "starts")
        return (
            [path("exact_backtrack_tables", name=name, ext=ext) for name in names for ext in ("parquet", "csv")]
            + [path("exact_construct", ext=ext) for ext in ("parquet", "csv")]
            + [path("exact_tour", board=b.name) for b in self.exact.tours]
        )

    def _params_exact_backtrack_board(self) -> dict:
        bt = self.config["exact"]["backtrack"]
        keys = ("prune", "orderings", "order", "limit")
        return {
            "closed": lambda wc: wc.tour == "closed",
            **{k: bt[k] for k in keys},
            **version_param("exact_backtrack_board"),
        }

    def _params_exact_construct(self) -> dict:
        boards = [b.name for b in self.exact.construct_boards]
        return {
            "boards": boards,
            "methods": self.config["exact"]["construct"]["methods"],
            **version_param("exact_construct"),
        }
