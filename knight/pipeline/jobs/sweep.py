"""The sweep stage's jobs: the sweep, its tables and the census."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, cached_property

from knight.core.board import parse_board
from knight.pipeline.jobs.common import part_number, version_param
from knight.pipeline.paths import PATTERNS, path
from knight.pipeline.versions import version
from knight.sweep.census import CENSUS_TABLES
from knight.sweep.spec import SweepSpec
from knight.sweep.tables import TABLES

#: Knight steps a second a thread that a sweep job's run time is planned with: a lower
#: bound of the brute-force pair kernel, so that a Slurm job's time limit is never what
#: stops it.
BRUTE_RATE = 50e6


class SweepJobs:
    """The sweep stage's jobs: the sweep, its tables and the census.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _sweep_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "sweep": self._sweep_targets,
            "tables": self._tables_targets,
            "census": self._census_targets,
        }

    def _sweep_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "sweep_chunk": self._params_sweep_chunk,
            "runs_manifest": self._params_runs_manifest,
            "board_tables": self._params_board_tables,
            "census_check": self._params_census_check,
            "combine_table": lambda: version_param("combine_table"),
            "census_board": lambda: version_param("census_board"),
            "census_tables": lambda: version_param("census_tables"),
            "publish_census": lambda: version_param("publish_census"),
        }

    @cached_property
    def boards(self) -> list[str]:
        """The configured sweep boards, by name."""
        return [b.name for b in self.sweep.boards]

    @cached_property
    def swept_boards(self) -> list[str]:
        """Boards whose sweep runs: the configured ones, and the backtracking boards the
        exact stage joins with the sweep's per-start table."""
        joined = (
            [b.name for b, _ in self.exact.runs.values()] if self.config["exact"]["backtrack"]["warnsdorff"] else []
        )
        return list(dict.fromkeys(self.boards + joined))

    @cache  # noqa: B019 (one plan a run)
    def spec(self, board: str) -> SweepSpec:
        """The sweep of one board (listed or not) under the config."""
        return self.sweep.spec(parse_board(board))

    def sweep_parts(self, board: str) -> list[str]:
        """The runs files of one board, one per chunk (job)."""
        n = len(self.spec(board).chunks())
        return [PATTERNS["sweep_part"].format(board=board, chunk=part_number(k)) for k in range(n)]

    def sweep_manifest(self, board: str) -> str:
        return PATTERNS["sweep_manifest"].format(board=board)

    def sweep_benchmarks(self, board: str) -> list[str]:
        """The Snakemake benchmark files of one board's sweep jobs (column s: wall seconds)."""
        n = len(self.spec(board).chunks())
        return [path("sweep_chunk.benchmark", board=board, chunk=part_number(k)) for k in range(n)]

    def sweep_resources(self, board: str, chunk: str, attempt: int) -> dict:
        """Memory (MB) and run time (minutes) of one sweep job, from its runs and board
        size: about 300 MB plus 60 MB per million runs; time at :data:`BRUTE_RATE` knight
        steps a second a thread (the tree engine is faster). Doubled on a retry."""
        spec = self.spec(board)
        runs = spec.chunk_rows()[int(chunk)]
        minutes = 5 + runs * spec.board.size / BRUTE_RATE / 60 / self.threads()
        return {"mem_mb": int((300 + 60 * runs / 1e6) * attempt), "runtime": int(minutes * attempt)}

    def board_mem_mb(self, board: str) -> int:
        """Memory (MB) of a job that reads one board's whole runs dataset."""
        return 1000 + self.spec(board).runs // 40000

    @cached_property
    def census_checked(self) -> list[str]:
        """Boards whose stored runs the census check recomputes on samples."""
        return [b.name for b in self.census.checked(self.sweep.boards)]

    def _sweep_targets(self, boards: list[str] | None = None) -> list[str]:
        boards = self.boards if boards is None else boards
        return [f for b in boards for f in self.sweep_parts(b)] + [self.sweep_manifest(b) for b in boards]

    def _tables_targets(self) -> list[str]:
        return [path("combine_table", name=name, ext=ext) for name in TABLES for ext in ("parquet", "csv")]

    def _census_targets(self) -> list[str]:
        return [path("census_tables", name=name, ext=ext) for name in CENSUS_TABLES for ext in ("parquet", "csv")] + [
            path("census_tables", name="census", ext="md"),
            path("census_check"),
        ]

    def _params_sweep_chunk(self) -> dict:
        return {**self.sweep.params(), "version": version(f"sweep_chunk:{self.sweep.engine}")}

    def _params_runs_manifest(self) -> dict:
        p = self.sweep.params()
        return {
            "starts": p["starts"],
            "orders": p["orders"],
            "chunk_runs": p["chunk_runs"],
            **version_param("runs_manifest"),
        }

    def _params_board_tables(self) -> dict:
        return {"starts": self.sweep.params()["starts"], **version_param("board_tables")}

    def _params_census_check(self) -> dict:
        whole = self.sweep.starts == "all" and self.sweep.orders == "all"
        return {
            "boards": self.census_checked,
            "samples": self.census.check_samples,
            "seed": self.census.check_seed,
            "whole": whole,
            **version_param("census_check"),
        }
