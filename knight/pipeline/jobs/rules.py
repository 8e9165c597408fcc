"""The rules stage's jobs: each study's chunks, their tables and figures."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from knight.pipeline.jobs.common import FIG_EXT, part_number, plain, version_param
from knight.pipeline.paths import PATTERNS, path
from knight.pipeline.versions import version
from knight.rules.chunks import task_bytes

#: Tables and figures of the rules stage.
RULE_TABLES = ("completion", "failures", "table57", "retries", "ends", "times", "squirrel_cull", "orders")
RULES_FIGURES = ("completion", "time", "retries", "ends", "closed_starts")
#: Knight steps a second a thread that a chunk job's run time is planned with: a lower
#: bound of the slowest rule (pohl), so that a Slurm job's time limit is never what stops it.
RULE_RATE = 30e6


class RulesJobs:
    """The rules stage's jobs: each study's chunks, their tables and figures.

    A mixin of :class:`knight.pipeline.plan.Plan`, whose settings (``self.sweep``,
    ``self.studies``, ...) it reads."""

    def _rules_stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """The final outputs of this module's stages, by stage."""
        return {
            "rules": self._rules_targets,
        }

    def _rules_rule_params(self) -> dict[str, Callable[[], dict]]:
        """The parameters of this module's Snakemake rules, by rule."""
        return {
            "rules_chunk": self._params_rules_chunk,
            "rules_manifest": self._params_rules_manifest,
            "rules_tables": self._params_rules_tables,
            "rules_figures": self._params_rules_figures,
        }

    @cached_property
    def rules_datasets(self) -> list[tuple[str, str]]:
        """Every (study, rule) dataset."""
        return [(name, spec.rule) for name, study in self.studies.items() for spec in study.rules]

    @staticmethod
    def rules_folder(study: str, rule: str, kind: str = "runs") -> str:
        """Folder of a (study, rule) dataset: its runs, or its times."""
        return path("rules_folder", kind=kind, study=study, rule=rule)

    def rules_parts(self, study: str, rule: str, kind: str = "runs") -> list[str]:
        """The part files of one (study, rule) dataset, one per chunk (job)."""
        n = len(self.studies[study].chunks(rule))
        pattern = PATTERNS[f"rules_{kind}_part"]
        return [pattern.format(study=study, rule=rule, chunk=part_number(k)) for k in range(n)]

    def rules_resources(self, study: str, rule: str, chunk: str, attempt: int) -> dict:
        """Memory (MB) and run time (minutes) of one chunk job, from its rows, boards and
        knight steps: 300 MB plus 100 bytes a row plus each thread's largest task's boards
        (:func:`knight.rules.chunks.task_bytes`); time at :data:`RULE_RATE` knight steps a
        second a thread; doubled on a retry."""
        s = self.studies[study]
        c = s.chunks(rule)[int(chunk)]
        minutes = 5 + c.steps / RULE_RATE / 60 / self.threads()
        boards = self.threads() * task_bytes(s, c) / 1e6
        return {"mem_mb": int((300 + c.rows * 100 / 1e6 + boards) * attempt), "runtime": int(minutes * attempt)}

    def _rules_targets(self) -> list[str]:
        if not self.rules_datasets:
            return []
        ds = self.rules_datasets
        return (
            [f for s, r in ds for kind in ("runs", "times") for f in self.rules_parts(s, r, kind)]
            + [path("rules_manifest", study=s, rule=r) for s, r in ds]
            + [path("rules_tables", name=name, ext=ext) for name in RULE_TABLES for ext in ("parquet", "csv")]
            + [path("rules_tables", name=name, ext="md") for name in ("table57", "squirrel_cull")]
            + [path("rules_figures", name=name, ext=ext) for name in RULES_FIGURES for ext in FIG_EXT]
        )

    def _params_rules_chunk(self) -> dict:
        return {
            "chunk": lambda wc: self.studies[wc.study].chunk_params(wc.rule, int(wc.chunk)),
            "version": lambda wc: version(f"rules_chunk:{self.studies[wc.study].chunks(wc.rule)[int(wc.chunk)].kind}"),
        }

    def _params_rules_manifest(self) -> dict:
        return {
            "rows": lambda wc: [c.rows for c in self.studies[wc.study].chunks(wc.rule)],
            **version_param("rules_manifest"),
        }

    def _params_rules_tables(self) -> dict:
        studies = {
            name: {"starts": s.starts if isinstance(s.starts, str) else "list", "orders": plain(s.orders)}
            for name, s in self.studies.items()
        }
        return {"studies": studies, **version_param("rules_tables")}

    def _params_rules_figures(self) -> dict:
        return self._figure("rules_figures")
