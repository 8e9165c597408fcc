"""The workflow's plan: every stage's jobs, their output paths and parameters.

:class:`Plan` is built once from the checked config (:func:`knight.pipeline.config.load`)
by the Snakefile, and by tests without Snakemake. The ``.smk`` files hold Snakemake
glue only: every path a rule names comes from :data:`PATHS` (each stage's
``paths`` module, combined here) through :func:`path`, its inputs, params and resources
from the plan's methods. What decides a job's results is its parameters
(:meth:`Plan.params`: the stage's settings and the job kind's results version,
:mod:`knight.pipeline.versions`); the seal of every file a job writes records their
digest (:func:`knight.core.seal.params_digest`), so the start-up check can tell a file that another plan made
(:mod:`knight.pipeline.integrity`). Nothing here compiles a kernel: planning a run is
reading its settings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, cached_property
from pathlib import Path

from knight.claims.paths import PATHS as CLAIMS_PATHS
from knight.core.board import parse_board
from knight.core.dataset import part_name
from knight.exact.paths import PATHS as EXACT_PATHS
from knight.pipeline.config import settings
from knight.pipeline.versions import version
from knight.queens.paths import PATHS as QUEENS_PATHS
from knight.report.paths import PATHS as REPORT_PATHS
from knight.rules.chunks import task_bytes
from knight.rules.paths import PATHS as RULES_PATHS
from knight.rules.study import Study
from knight.sweep.census import CENSUS_TABLES
from knight.sweep.paths import PATHS as SWEEP_PATHS
from knight.sweep.spec import SweepSpec
from knight.sweep.tables import TABLES

#: Root of every result.
RESULTS = "results"


def _combined(*tables: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise RuntimeError(f"paths named by two stages: {', '.join(sorted(twice))}")
        out.update(table)
    return out


#: Every path the workflow's jobs write, by name, from each stage's ``paths`` module:
#: ``RULE`` or ``RULE.OUTPUT`` for outputs, ``RULE.log`` and ``RULE.benchmark``.
PATHS = _combined(SWEEP_PATHS, RULES_PATHS, QUEENS_PATHS, EXACT_PATHS, CLAIMS_PATHS, REPORT_PATHS)


def path(key: str, /, **fields) -> str:
    """The path named ``key`` in :data:`PATHS` with ``fields`` filled in; the other
    fields stay Snakemake wildcards.

    >>> path("board_tables", name="ends")
    'results/tables/boards/{board}/ends.parquet'
    >>> path("board_tables", board="5x5", name="ends")
    'results/tables/boards/5x5/ends.parquet'
    """
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), PATHS[key])


#: The jobs that make many files of one kind (:meth:`Plan.why_not_planned`).
PATTERNS = {
    name: PATHS[name]
    for name in (
        "sweep_part",
        "sweep_manifest",
        "rules_runs_part",
        "rules_times_part",
        "rules_manifest",
        "frontier_unit",
        "scan_part",
        "scan_times",
    )
}
#: Per-board heatmaps (each has a caption workflow/report/NAME.rst).
BOARD_FIGURES = ("ends_complete", "ends_closed", "failing", "closed_starts")
RULE_TABLES = ("completion", "failures", "table57", "retries", "ends", "times", "squirrel_cull", "orders")
RULES_FIGURES = ("completion", "time", "retries", "ends", "closed_starts")
FIG_EXT = ("png", "svg")
#: Knight steps a second a thread that a job's run time is planned with: lower bounds of
#: the brute-force pair kernel and of the slowest rule (pohl), so that a Slurm job's time
#: limit is never what stops it.
BRUTE_RATE = 50e6
RULE_RATE = 30e6


class Plan:
    """The jobs of a run of the workflow under ``config`` (checked), for jobs of ``cores``
    threads at most (Snakemake's ``--cores``)."""

    def __init__(self, config: Mapping, cores: int = 1):
        self.config = config
        self.cores = max(1, int(cores))
        built = settings(dict(config))
        self.sweep = built["sweep"]
        self.dask = built["dask"]
        self.queens = built["queens"]
        self.exact = built["exact"]
        self.figures = built["figures"]
        self.studies: dict[str, Study] = built["rules"].by_name()
        self.scans = built["claims"].scans
        self.claims = built["claims"].claims
        self.census = built["census"]

    # --- sweep ------------------------------------------------------------------------
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
        return [PATTERNS["sweep_part"].format(board=board, chunk=_num(k)) for k in range(n)]

    def sweep_manifest(self, board: str) -> str:
        return PATTERNS["sweep_manifest"].format(board=board)

    def sweep_benchmarks(self, board: str) -> list[str]:
        """The Snakemake benchmark files of one board's sweep jobs (column s: wall seconds)."""
        n = len(self.spec(board).chunks())
        return [path("sweep_chunk.benchmark", board=board, chunk=_num(k)) for k in range(n)]

    def threads(self) -> int:
        """Threads of a Dask-backed job: 1 when an existing scheduler does the work."""
        return self.dask.threads(self.cores)

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

    # --- rules stage --------------------------------------------------------------------
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
        return [pattern.format(study=study, rule=rule, chunk=_num(k)) for k in range(n)]

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

    # --- queens -------------------------------------------------------------------------
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

    # --- exact --------------------------------------------------------------------------
    def exact_starts_tables(self) -> list[str]:
        """The sweep's per-start table of every backtracking board (when joined)."""
        if not self.config["exact"]["backtrack"]["warnsdorff"]:
            return []
        boards = dict.fromkeys(b.name for b, _ in self.exact.runs.values())
        return [path("board_tables", board=b, name="starts") for b in boards]

    # --- claims -------------------------------------------------------------------------
    def scan_files(self, name: str, kind: str = "part") -> list[str]:
        """One scan's slice files (part: rows, Parquet; times: steps and seconds, JSON)."""
        pattern = PATTERNS["scan_part" if kind == "part" else "scan_times"]
        return [pattern.format(scan=name, slice=_num(k)) for k in range(self.scans[name].slices)]

    def scan_inputs(self, scan: str) -> dict:
        """What a scan's slice reads: the stored table of the scan whose orders it takes."""
        of = self.scans[scan].of
        return {"of": self.scan_files(of)} if of else {}

    def claim_kind(self, key: str) -> str:
        """Where a claim's evidence comes from: runs (a rules study), scan, queens, or none."""
        from knight.claims.spec import QUEENS as QUEENS_TABLES

        by = self.claims[key].tested_by
        if by == QUEENS_TABLES:
            return "queens"
        return "runs" if by in self.studies else "scan" if by in self.scans else "none"

    def claim_inputs(self, key: str) -> dict:
        """The stored tables a claim's finding reads (none: what tests it is not in the run)."""
        claim, kind = self.claims[key], self.claim_kind(key)
        if kind == "runs":
            rules = [claim.rule] if claim.rule else [s.rule for s in self.studies[claim.tested_by].rules]
            return {
                "manifests": [f"{self.rules_folder(claim.tested_by, r)}/_manifest.json" for r in rules],
                "times": [f for r in rules for f in self.rules_parts(claim.tested_by, r, "times")],
            }
        if kind == "scan":
            return {"parts": self.scan_files(claim.tested_by), "times": self.scan_files(claim.tested_by, "times")}
        if kind == "queens":
            return {
                "counts": path("queens_sets", name="counts", ext="parquet"),
                "summaries": [path("queens_frontier", search=name, ext="json") for name in self.frontier],
            }
        return {}

    # --- targets ------------------------------------------------------------------------
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
        """Each stage's final outputs, by the stage's name."""
        return {
            "sweep": self._sweep_targets,
            "tables": self._tables_targets,
            "rules": self._rules_targets,
            "queens": self._queens_targets,
            "exact": self._exact_targets,
            "figures": self._figures_targets,
            "census": self._census_targets,
            "claims": self._claims_targets,
        }

    def _sweep_targets(self, boards: list[str] | None = None) -> list[str]:
        boards = self.boards if boards is None else boards
        return [f for b in boards for f in self.sweep_parts(b)] + [self.sweep_manifest(b) for b in boards]

    def _tables_targets(self) -> list[str]:
        return [path("combine_table", name=name, ext=ext) for name in TABLES for ext in ("parquet", "csv")]

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

    def _queens_targets(self) -> list[str]:
        return [path("queens_frontier", search=name, ext="parquet") for name in self.frontier] + [
            path("queens_timings", ext="parquet"),
            path("queens_speedup", ext="parquet"),
            path("queens_speedup", ext="png"),
            path("queens_sets", name="dominating_sets", ext="parquet"),
            path("queens_sets", name="placements", ext="parquet"),
            path("queens_sets", name="counts", ext="parquet"),
        ]

    def _exact_targets(self) -> list[str]:
        names = ("runs", "summary", "starts")
        return (
            [path("exact_backtrack_tables", name=name, ext=ext) for name in names for ext in ("parquet", "csv")]
            + [path("exact_construct", ext=ext) for ext in ("parquet", "csv")]
            + [path("exact_tour", board=b.name) for b in self.exact.tours]
        )

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

    def _census_targets(self) -> list[str]:
        return [path("census_tables", name=name, ext=ext) for name in CENSUS_TABLES for ext in ("parquet", "csv")] + [
            path("census_tables", name="census", ext="md"),
            path("census_check"),
        ]

    def _claims_targets(self) -> list[str]:
        return [path("claims_table", ext=ext) for ext in ("parquet", "csv", "md", "html")]

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

    # --- parameters: what decides each job's results ---------------------------------------
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
        """Each Snakemake rule's parameters, by the rule's name (:meth:`params`)."""
        only_version = {kind: (lambda kind=kind: _v(kind)) for kind in ONLY_VERSION}
        return {
            **only_version,
            "sweep_chunk": self._params_sweep_chunk,
            "runs_manifest": self._params_runs_manifest,
            "board_tables": self._params_board_tables,
            "rules_chunk": self._params_rules_chunk,
            "rules_manifest": self._params_rules_manifest,
            "rules_tables": self._params_rules_tables,
            "queens_timings": self._params_queens_timings,
            "queens_sets": self._params_queens_sets,
            "queens_unit": self._params_queens_unit,
            "queens_frontier": self._params_queens_frontier,
            "exact_backtrack_board": self._params_exact_backtrack_board,
            "exact_construct": self._params_exact_construct,
            "figure_tour": self._params_figure_tour,
            "figure_board": self._params_figure_board,
            "figure_rates": self._params_figure_rates,
            "figure_runtime": self._params_figure_runtime,
            "figure_order_images": self._params_figure_order_images,
            "rules_figures": self._params_rules_figures,
            "census_check": self._params_census_check,
            "claims_scan": self._params_claims_scan,
            "claim_finding": self._params_claim_finding,
        }

    def job_params(self, rule: str, wildcards: Mapping[str, str]) -> dict:
        """The parameters of the job of ``rule`` with ``wildcards``, evaluated; raises
        ``KeyError``/``IndexError`` for a job the plan does not have."""
        wc = _Wildcards(wildcards)
        return {k: (v(wc) if callable(v) else v) for k, v in self.params(rule).items()}

    def _params_sweep_chunk(self) -> dict:
        return {**self.sweep.params(), "version": version(f"sweep_chunk:{self.sweep.engine}")}

    def _params_runs_manifest(self) -> dict:
        p = self.sweep.params()
        return {"starts": p["starts"], "orders": p["orders"], "chunk_runs": p["chunk_runs"], **_v("runs_manifest")}

    def _params_board_tables(self) -> dict:
        return {"starts": self.sweep.params()["starts"], **_v("board_tables")}

    def _params_rules_chunk(self) -> dict:
        return {
            "chunk": lambda wc: self.studies[wc.study].chunk_params(wc.rule, int(wc.chunk)),
            "version": lambda wc: version(f"rules_chunk:{self.studies[wc.study].chunks(wc.rule)[int(wc.chunk)].kind}"),
        }

    def _params_rules_manifest(self) -> dict:
        return {"rows": lambda wc: [c.rows for c in self.studies[wc.study].chunks(wc.rule)], **_v("rules_manifest")}

    def _params_rules_tables(self) -> dict:
        studies = {
            name: {"starts": s.starts if isinstance(s.starts, str) else "list", "orders": _plain(s.orders)}
            for name, s in self.studies.items()
        }
        return {"studies": studies, **_v("rules_tables")}

    def _params_queens_timings(self) -> dict:
        q = self.config["queens"]
        keys = ("instances", "workers", "repeats", "tasks")
        return {**{k: q[k] for k in keys}, **_v("queens_timings")}

    def _params_queens_sets(self) -> dict:
        q = self.config["queens"]
        return {
            "dominate": q["sets"]["dominate"],
            "place": q["sets"]["place"],
            "count_dominate": q["counts"].get("dominate", []),
            "count_place": q["counts"].get("place", []),
            "tasks": q["tasks"],
            **_v("queens_sets"),
        }

    def _frontier_instance(self, wc) -> list[int]:
        f = self.frontier[wc.search]
        return [f.n, f.k, f.units]

    def _params_queens_unit(self) -> dict:
        return {"instance": self._frontier_instance, **_v("queens_unit")}

    def _params_queens_frontier(self) -> dict:
        return {"instance": self._frontier_instance, **_v("queens_frontier")}

    def _params_exact_backtrack_board(self) -> dict:
        bt = self.config["exact"]["backtrack"]
        keys = ("prune", "orderings", "order", "limit")
        return {"closed": lambda wc: wc.tour == "closed", **{k: bt[k] for k in keys}, **_v("exact_backtrack_board")}

    def _params_exact_construct(self) -> dict:
        boards = [b.name for b in self.exact.construct_boards]
        return {"boards": boards, "methods": self.config["exact"]["construct"]["methods"], **_v("exact_construct")}

    def _figure(self, kind: str, annotate: bool = False) -> dict:
        out = {"dpi": self.figures.dpi, **_v(kind)}
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

    def _params_rules_figures(self) -> dict:
        return self._figure("rules_figures")

    def _params_census_check(self) -> dict:
        whole = self.sweep.starts == "all" and self.sweep.orders == "all"
        return {
            "boards": self.census_checked,
            "samples": self.census.check_samples,
            "seed": self.census.check_seed,
            "whole": whole,
            **_v("census_check"),
        }

    def _params_claims_scan(self) -> dict:
        return {"scan": lambda wc: self.scans[wc.scan].params(int(wc.slice)), **_v("claims_scan")}

    def _params_claim_finding(self) -> dict:
        entries = {e["key"]: e for e in self.config["claims"]["entries"]}

        def scan_boards(wc):
            if self.claim_kind(wc.claim) != "scan":
                return None
            return self.scans[self.claims[wc.claim].tested_by].params(0)["boards"]

        return {
            "claim": lambda wc: entries[wc.claim],
            "kind": lambda wc: self.claim_kind(wc.claim),
            "scan": scan_boards,
            **_v("claim_finding"),
        }


#: Job kinds whose only parameter is their results version (their results depend on
#: their inputs and code only).
ONLY_VERSION = frozenset(
    {
        "combine_table",
        "queens_speedup",
        "exact_backtrack_tables",
        "exact_tour",
        "thesis_tables",
        "report_completion",
        "report_queens",
        "census_board",
        "census_tables",
        "claims_table",
        "publish_census",
        "publish_claims",
    }
)


def _v(kind: str) -> dict:
    return {"version": version(kind)}


def _regex(pattern: str) -> re.Pattern:
    """An output pattern as a regular expression, its wildcards as named groups (no ``/``)."""
    out, pos = "", 0
    for m in re.finditer(r"\{(\w+)\}", pattern):
        out += re.escape(pattern[pos : m.start()]) + f"(?P<{m.group(1)}>[^/]+)"
        pos = m.end()
    return re.compile(out + re.escape(pattern[pos:]) + "$")


def _num(k: int) -> str:
    """The number of part ``k`` in a file name (at least four digits)."""
    return re.match(r"part-(\d+)\.parquet", part_name(k)).group(1)


def _plain(value):
    """Tuples as lists (what a job's params hold), recursively."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class _Wildcards:
    """Wildcards by attribute, as Snakemake hands them to a params function."""

    def __init__(self, values: Mapping[str, str]):
        self.__dict__.update(values)


#: What a params function of a rule may be called with.
ParamsFunction = Callable[[object], object]
__all__ = ["PATTERNS", "Plan"]
