"""The figures' jobs: drawn tours, per-board and across-board figures, the thesis's tables, the report's pages."""

from __future__ import annotations

from collections.abc import Callable

from knight.pipeline.jobs.common import FIG_EXT, version_param
from knight.pipeline.paths import path

#: Per-board heatmaps (each has a caption workflow/report/NAME.rst).
BOARD_FIGURES = ("ends_complete", "ends_closed", "failing", "closed_starts")


class FiguresJobs:
    """The figures' jobs: drawn tours, per-board and across-board figures, the thesis's tables, the report's pages.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _figures_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "figures": self._figures_targets,
        }

    def _figures_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "figure_tour": self._params_figure_tour,
            "figure_board": self._params_figure_board,
            "figure_rates": self._params_figure_rates,
            "figure_runtime": self._params_figure_runtime,
            "figure_order_images": self._params_figure_order_images,
            "thesis_tables": lambda: version_param("thesis_tables"),
            "report_completion": lambda: version_param("report_completion"),
            "report_queens": lambda: version_param("report_queens"),
        }

    def _figures_targets(self) -> list[str]:
        images = self.figures.images
        return (
            [
                path("figure_tour", tboard=t.board.name, row=t.start[0], col=t.start[1], order=t.order, ext=ext)
                for t in self.figures.tours
                for ext in FIG_EXT
            ]
            + [
                path("figure_board", board=b, name=name, ext=ext)
                for b in self.boards
                for name in BOARD_FIGURES
                for ext in FIG_EXT
            ]
            + [path(name, ext=ext) for name in ("figure_rates", "figure_runtime") for ext in FIG_EXT]
            + [
                path("thesis_tables", board=b, table=f"table{n}", ext=ext)
                for b in self.boards
                for n in (58, 59)
                for ext in ("md", "csv", "html")
            ]
            + [path("report_completion")]
            + (
                [path("figure_order_images", iboard=images.board.name, order=images.order, ext=ext) for ext in FIG_EXT]
                if images
                else []
            )
            + ([path("report_queens")] if self.figures.queens else [])
        )

    def _figure(self, kind: str, annotate: bool = False) -> dict:
        out = {"dpi": self.figures.dpi, **version_param(kind)}
        if annotate:
            out["annotate_max"] = self.figures.annotate_max
        return out

    def _params_figure_tour(self) -> dict:
        return self._figure("figure_tour")

    def _params_figure_board(self) -> dict:
        return self._figure("figure_board", annotate=True)

    def _params_figure_rates(self) -> dict:
        return self._figure("figure_rates")

    def _params_figure_runtime(self) -> dict:
        return self._figure("figure_runtime")

    def _params_figure_order_images(self) -> dict:
        return self._figure("figure_order_images", annotate=True)
