"""The workflow's plan: every stage's jobs, their output paths and parameters.

:class:`Plan` is built once from the checked config and its settings
(:func:`knight.pipeline.config.check`) by the Snakefile, and by tests without Snakemake.
The ``.smk`` files hold Snakemake glue only: every path a rule names comes from
:func:`knight.pipeline.paths.path` (each stage's ``paths`` module), its inputs, params
and resources from the plan's methods, which each stage's module of
:mod:`knight.pipeline.jobs` declares and :class:`Plan` combines. What decides a job's
results is its parameters (:meth:`Plan.params`: the stage's settings and the job kind's
results version, :mod:`knight.pipeline.versions`); the seal of every file a job writes
records their digest (:func:`knight.core.seal.params_digest`), so the start-up check can
tell a file that another plan made (:mod:`knight.pipeline.integrity`). Nothing here
compiles a kernel: planning a run is reading its settings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from knight.pipeline.config import settings
from knight.pipeline.jobs.claims import ClaimsJobs
from knight.pipeline.jobs.common import combined
from knight.pipeline.jobs.exact import ExactJobs
from knight.pipeline.jobs.figures import FiguresJobs
from knight.pipeline.jobs.queens import QueensJobs
from knight.pipeline.jobs.rules import RulesJobs
from knight.pipeline.jobs.sweep import SweepJobs
from knight.pipeline.paths import PATTERNS, RESULTS, path
from knight.rules.study import Study


class Plan(SweepJobs, RulesJobs, QueensJobs, ExactJobs, FiguresJobs, ClaimsJobs):
    """The jobs of a run of the workflow under ``config`` (checked), for jobs of ``cores``
    threads at most (Snakemake's ``--cores``): each stage's (:mod:`knight.pipeline.jobs`),
    combined."""

    def __init__(self, config: Mapping, cores: int = 1, built: Mapping | None = None):
        """``built``: each section's settings as :func:`knight.pipeline.config.check`
        returned them with ``config``; built from ``config`` when not given."""
        self.config = config
        self.cores = max(1, int(cores))
        built = settings(dict(config)) if built is None else built
        self.sweep = built["sweep"]
        self.dask = built["dask"]
        self.queens = built["queens"]
        self.exact = built["exact"]
        self.figures = built["figures"]
        self.studies: dict[str, Study] = built["rules"].by_name()
        self.scans = built["claims"].scans
        self.claims = built["claims"].claims
        self.census = built["census"]

    def threads(self) -> int:
        """Threads of a Dask-backed job: 1 when an existing scheduler does the work."""
        return self.dask.threads(self.cores)

    def targets(self, stage: str | None = None) -> list[str]:
        """The final outputs of one stage (sweep, tables, rules, queens, exact, figures,
        census, claims), or of the default run (``None``: every stage but census and
        claims, which run when asked for)."""
        if stage is None:
            stages = ("sweep", "tables", "queens", "exact", "figures", "rules")
            joined = self._sweep_targets(self.swept_boards)  # their parts too: a deleted one is remade
            return list(dict.fromkeys([*(t for s in stages for t in self.targets(s)), *joined]))
        stages = self._stage_targets()
        if stage not in stages:
            raise ValueError(f"stage {stage!r} is not one of {', '.join(stages)}")
        return stages[stage]()

    def _stage_targets(self) -> dict[str, Callable[[], list[str]]]:
        """Each stage's final outputs, by the stage's name (each module of
        :mod:`knight.pipeline.jobs` gives its stages')."""
        return combined(
            self._sweep_stage_targets(),
            self._rules_stage_targets(),
            self._queens_stage_targets(),
            self._exact_stage_targets(),
            self._figures_stage_targets(),
            self._claims_stage_targets(),
        )

    def ending(self, root: str = RESULTS) -> list[str]:
        """The last lines of a finished run (Snakemake then prints its wall time): where the
        results are and how to open the report, each line short.

        >>> Plan.__new__(Plan).ending(root="/nonexistent")
        ['Report: snakemake --report /nonexistent/report.html, then open /nonexistent/report.html in a browser.']
        """
        folders = {
            "runs": "the sweep's runs",
            "tables": "its tables",
            "rules": "the rules stage",
            "queens": "queens",
            "exact": "exact tours",
            "figures": "figures",
            "census": "the census",
            "claims": "the claims",
        }
        made = [f"{root}/{f}/ ({what})" for f, what in folders.items() if Path(root, f).is_dir()]
        report = f"Report: snakemake --report {root}/report.html, then open {root}/report.html in a browser."
        if not made:
            return [report]
        python = f"Python: knight.scan('{root}/runs') reads the runs, verified."
        return ["Results: " + ", ".join(made) + ".", report, python]

    def why_not_planned(self, target: str) -> str | None:
        """Why the plan makes no file ``target`` of a kind it makes many of (a sweep or rules
        part, a frontier unit, a scan slice), in a phrase naming what it has; None for a
        planned file, or a target of another kind (Snakemake judges those)."""
        for name, pattern in PATTERNS.items():
            m = _regex(pattern).match(target)
            if m is None or name.endswith("manifest"):
                continue
            wc = m.groupdict()
            try:
                planned = self._planned(name, wc)
            except (KeyError, ValueError):
                return f"not a job of the current plan ({', '.join(f'{k}={v}' for k, v in wc.items())})"
            if target not in planned:
                span = f"{Path(planned[0]).name} .. {Path(planned[-1]).name}" if planned else "none"
                return f"not a file of the current plan, which has {span} there"
            return None
        return None

    def _planned(self, name: str, wc: dict) -> list[str]:
        if name == "sweep_part":
            return self.sweep_parts(wc["board"])
        if name.startswith("rules_"):
            return self.rules_parts(wc["study"], wc["rule"], name.split("_")[1])
        if name == "frontier_unit":
            return self.frontier_units(wc["search"])
        return self.scan_files(wc["scan"], "part" if name == "scan_part" else "times")

    def datasets(self) -> dict[str, list[str]]:
        """Every dataset folder the plan writes, with its part files."""
        out = {path("sweep_folder", board=b): self.sweep_parts(b) for b in self.swept_boards}
        for s, r in self.rules_datasets:
            for kind in ("runs", "times"):
                out[self.rules_folder(s, r, kind)] = self.rules_parts(s, r, kind)
        return out

    def params(self, rule: str) -> dict:
        """The Snakemake params of ``rule``: plain values or functions of the job's
        wildcards, among them its results ``version``. The one source of a job's
        parameters: the ``.smk`` files pass them on, the seals of its outputs record their
        digest (:meth:`job_params`)."""
        kinds = self._job_params()
        if rule not in kinds:
            raise ValueError(f"the plan has no parameters for the rule {rule!r}")
        return kinds[rule]()

    def _job_params(self) -> dict[str, Callable[[], dict]]:
        """Each Snakemake rule's parameters, by the rule's name (:meth:`params`; each module
        of :mod:`knight.pipeline.jobs` gives its rules')."""
        return combined(
            self._sweep_rule_params(),
            self._rules_rule_params(),
            self._queens_rule_params(),
            self._exact_rule_params(),
            self._figures_rule_params(),
            self._claims_rule_params(),
        )

    def job_params(self, rule: str, wildcards: Mapping[str, str]) -> dict:
        """The parameters of the job of ``rule`` with ``wildcards``, evaluated; raises
        ``KeyError``/``IndexError`` for a job the plan does not have."""
        wc = _Wildcards(wildcards)
        return {k: (v(wc) if callable(v) else v) for k, v in self.params(rule).items()}


def _regex(pattern: str) -> re.Pattern:
    """An output pattern as a regular expression, its wildcards as named groups (no ``/``)."""
    out, pos = "", 0
    for m in re.finditer(r"\{(\w+)\}", pattern):
        out += re.escape(pattern[pos : m.start()]) + f"(?P<{m.group(1)}>[^/]+)"
        pos = m.end()
    return re.compile(out + re.escape(pattern[pos:]) + "$")


class _Wildcards:
    """Wildcards by attribute, as Snakemake hands them to a params function."""

    def __init__(self, values: Mapping[str, str]):
        self.__dict__.update(values)


#: What a params function of a rule may be called with.
ParamsFunction = Callable[[object], object]
__all__ = ["PATTERNS", "Plan", "path"]
