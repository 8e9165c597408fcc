# The plan of the whole pipeline, in one place: the configuration check (once, for every
# section), what each stage makes (files, chunks, datasets), the resources of its jobs,
# and the checks run before any job. The stages' .smk files hold only Snakemake rules.
import os
import re
from functools import lru_cache
from pathlib import Path

from snakemake.exceptions import WorkflowError

from knight.claims.scan import Scan
from knight.claims.spec import QUEENS as QUEENS_TABLES
from knight.claims.spec import Claim
from knight.core import dataset, seal
from knight.core.board import parse_board, parse_boards
from knight.engine.tiebreak import RULES
from knight.pipeline.codehash import code_version
from knight.pipeline.config import ConfigError
from knight.pipeline.config import load as load_config
from knight.rules.studies import Study, task_bytes
from knight.sweep.census import CENSUS_TABLES
from knight.sweep.census import PARTS as CENSUS_PARTS
from knight.sweep.census_check import checked_boards
from knight.engine.sweep import SweepSpec
from knight.sweep.driver import chunk_path
from knight.sweep.tables import TABLES

# Every problem of the config is reported, by key and value, before any job runs;
# defaults are filled in and lists put in canonical order (reordering reruns nothing).
try:
    _checked = load_config(config)
except ConfigError as exc:
    raise WorkflowError(str(exc)) from None
config.clear()
config.update(_checked)

SWEEP = config["sweep"]
DASK = config["dask"]
QUEENS = config["queens"]
EXACT_BT = config["exact"]["backtrack"]
EXACT_CO = config["exact"]["construct"]
FIGURES = config["figures"]
RULES_CFG = config["rules"]
CENSUS = config["census"]

try:
    CORES = int(workflow.cores)
except Exception:  # no --cores given (e.g. --report, --dry-run): any count will do
    CORES = os.cpu_count() or 1
SCRIPTS = Path(workflow.basedir) / "workflow" / "scripts"
FIG_EXT = ("png", "svg")


def code(script):
    """Hash of the library code a workflow script runs (knight.pipeline.codehash): a Snakemake rule
    parameter, so editing that code reruns its jobs, and nothing else does (not a moved project)."""
    return code_version(SCRIPTS / f"{script}.py")


def job_threads():
    """Threads of a Dask-backed job: 1 when an external scheduler does the work."""
    if DASK.get("scheduler") or DASK.get("scheduler_file"):
        return 1
    return CORES if DASK["workers"] == "auto" else int(DASK["workers"])


# --- sweep --------------------------------------------------------------------------
BOARDS = [b.name for b in parse_boards(SWEEP["boards"])]


@lru_cache(maxsize=None)
def sweep_spec(board_name):
    """The sweep of one board under the current config (any board, listed or not)."""
    return SweepSpec.from_config(board_name, SWEEP)


def chunk_files(board_name):
    """The runs files of one board, one per chunk (job)."""
    spec = sweep_spec(board_name)
    return [chunk_path("results/runs", spec.board, k).as_posix() for k in range(len(spec.chunks()))]


def sweep_resources(wildcards, attempt):
    """Memory (MB) and run time (minutes) of one sweep job, from its runs and board size:
    about 250 MB plus 60 MB per million runs; at most 50 M knight steps per second per
    thread (brute force; the tree engine is faster). Doubled on a retry."""
    spec = sweep_spec(wildcards.board)
    runs = spec.chunk_rows()[int(wildcards.chunk)]
    minutes = 5 + runs * spec.board.size / 50e6 / 60 / job_threads()
    return {"mem_mb": int((300 + 60 * runs / 1e6) * attempt), "runtime": int(minutes * attempt)}


def sweep_benchmarks(board_name):
    """The Snakemake benchmark files of one board's sweep jobs (column s: wall seconds)."""
    return [f"results/benchmarks/sweep/{board_name}/{Path(f).stem}.tsv" for f in chunk_files(board_name)]


# --- census -------------------------------------------------------------------------
#: Boards whose stored runs the census check recomputes on samples (of those configured).
CENSUS_CHECKED = [b.name for b in checked_boards(parse_boards(SWEEP["boards"]), CENSUS["check_largest"])]


# --- claims stage ---------------------------------------------------------------------
CLAIMS_CFG = config["claims"]
SCANS = {s["name"]: Scan.from_config(s) for s in CLAIMS_CFG["scans"]}
CLAIMS = {e["key"]: Claim.from_config(e) for e in CLAIMS_CFG["entries"]}


def scan_files(name, kind="part"):
    """One scan's slice files (kind part: rows, Parquet; times: steps and seconds, JSON)."""
    ext = "parquet" if kind == "part" else "json"
    return [f"results/claims/scans/{name}/{kind}-{k:04d}.{ext}" for k in range(SCANS[name].slices)]


def scan_inputs(wildcards):
    """What a scan's slice reads: the stored table of the scan whose orders it takes (``of``)."""
    of = SCANS[wildcards.scan].of
    return {"of": scan_files(of)} if of else {}


def claim_kind(key):
    """Where a claim's evidence comes from: runs (a rules study), scan, queens, or none."""
    by = CLAIMS[key].tested_by
    if by == QUEENS_TABLES:
        return "queens"
    return "runs" if by in STUDIES else "scan" if by in SCANS else "none"


def claim_inputs(wildcards):
    """The stored tables a claim's finding reads (none: what tests it is not in the run)."""
    claim, kind = CLAIMS[wildcards.claim], claim_kind(wildcards.claim)
    if kind == "runs":
        rules = [claim.rule] if claim.rule else [s.rule for s in STUDIES[claim.tested_by].rules]
        return {
            "manifests": [f"{rules_folder(claim.tested_by, r)}/_manifest.json" for r in rules],
            "times": [f for r in rules for f in rules_chunk_files(claim.tested_by, r, "times")],
        }
    if kind == "scan":
        return {"parts": scan_files(claim.tested_by), "times": scan_files(claim.tested_by, "times")}
    if kind == "queens":
        return {
            "counts": "results/queens/counts.parquet",
            "summaries": [f"results/queens/frontier/{name}.json" for name in FRONTIER],
        }
    return {}


# --- rules stage ----------------------------------------------------------------------
STUDIES = {s["name"]: Study.from_config(s, RULES_CFG) for s in RULES_CFG["studies"]}
RULES_DATASETS = [(name, spec.rule) for name, study in STUDIES.items() for spec in study.rules]
RULE_TABLES = ("completion", "failures", "table57", "retries", "ends", "times", "squirrel_cull", "orders")
RULES_FIGURES = ("completion", "time", "retries", "ends", "closed_starts")


def rules_folder(study, rule, kind="runs"):
    """Folder of a (study, rule) dataset: its runs, or its times."""
    return f"results/rules/{kind}/study={study}/rule={rule}"


def rules_chunk_files(study, rule, kind="runs"):
    """The part files of one (study, rule) dataset, one per chunk (job)."""
    return [
        f"{rules_folder(study, rule, kind)}/{dataset.part_name(k)}" for k in range(len(STUDIES[study].chunks(rule)))
    ]


def rules_resources(wildcards, attempt):
    """Memory (MB) and run time (minutes) of one chunk job, from its rows, boards and
    knight steps: ~300 MB plus ~100 bytes a row plus each thread's largest task's boards
    (knight.rules.studies.task_bytes); at most 30 M steps per second per thread (pohl is
    the slowest rule); doubled on a retry."""
    study = STUDIES[wildcards.study]
    chunk = study.chunks(wildcards.rule)[int(wildcards.chunk)]
    minutes = 5 + chunk.steps / 30e6 / 60 / job_threads()
    boards = job_threads() * task_bytes(study, chunk) / 1e6
    return {"mem_mb": int((300 + chunk.rows * 100 / 1e6 + boards) * attempt), "runtime": int(minutes * attempt)}


# --- queens -------------------------------------------------------------------------
def queens_minutes():
    """Generous run time of the timing job: about 15 s per instance-run (the default
    heaviest instances take ~10 s on one thread), times repeats and worker counts."""
    counts = 6 if QUEENS["workers"] == "auto" else len(QUEENS["workers"]) + 1
    return 10 + len(QUEENS["instances"]) * QUEENS["repeats"] * counts // 4


#: Frontier searches: name "dominate-N-K" -> (n, k, units).
FRONTIER = {f"dominate-{q['n']}-{q['k']}": (q["n"], q["k"], q["units"]) for q in QUEENS["frontier"]}


def frontier_units(name):
    """The unit files of one frontier search, one per job."""
    n, k, units = FRONTIER[name]
    plan_units = queens_plan_units(n, k, units)
    return [f"results/queens/frontier/{name}/unit-{i:05d}.json" for i in range(plan_units)]


@lru_cache(maxsize=None)
def queens_plan_units(n, k, units):
    """Units of the search's plan (at most ``units``: a small search has fewer nodes)."""
    from knight.queens.units import make_plan

    return make_plan(n, k, units).units


# --- exact --------------------------------------------------------------------------
EXACT_BT_RUNS = {}  # "RxC-open" / "RxC-closed" -> (board name, closed)
for _item in EXACT_BT["boards"]:
    _b = parse_board(_item["board"])
    EXACT_BT_RUNS[f"{_b.name}-{'closed' if _item['closed'] else 'open'}"] = (_b.name, _item["closed"])
EXACT_CO_BOARDS = list(dict.fromkeys(parse_board(b).name for b in EXACT_CO["boards"]))
EXACT_CO_TOURS = list(dict.fromkeys(parse_board(b).name for b in EXACT_CO["tours"]))


#: Boards whose sweep runs: the configured ones, and the exact stage's boards it joins with.
SWEPT_BOARDS = list(dict.fromkeys(BOARDS + ([b for b, _ in EXACT_BT_RUNS.values()] if EXACT_BT["warnsdorff"] else [])))


def exact_starts_tables(wildcards):
    """The Warnsdorff sweep's per-start table of every backtracking board."""
    if not EXACT_BT["warnsdorff"]:
        return []
    boards = dict.fromkeys(name for name, _ in EXACT_BT_RUNS.values())
    return [f"results/tables/boards/{b}/starts.parquet" for b in boards]


# --- figures ------------------------------------------------------------------------
def tour_stem(item):
    """File stem of a drawn tour: RxC_R-C_ORDER (start 1-based)."""
    r, c = item["start"]
    return f"{parse_board(item['board']).name}_{r}-{c}_{item['order']}"


#: Per-board heatmaps (each has a caption workflow/report/NAME.rst).
BOARD_FIGURES = ("ends_complete", "ends_closed", "failing", "closed_starts")
TOUR_STEMS = list(dict.fromkeys(tour_stem(t) for t in FIGURES["tours"]))
IMAGES = FIGURES["images_of_order"]
IMAGES_STEM = f"{parse_board(IMAGES['board']).name}_{IMAGES['order']}" if IMAGES else None


# --- stored results: checked before any job, cleaned before the first -------------------
#: Every dataset folder the plan writes, with its part files.
DATASETS = {f"results/runs/board={b}": chunk_files(b) for b in SWEPT_BOARDS}
for _s, _r in RULES_DATASETS:
    for _kind in ("runs", "times"):
        DATASETS[rules_folder(_s, _r, _kind)] = rules_chunk_files(_s, _r, _kind)


def check_dask_scheduler():
    """An external Dask scheduler (dask.scheduler or dask.scheduler_file) must answer: checked
    once, before any job, with a one-line message naming it (not by every job, slowly)."""
    if DASK.get("scheduler") or DASK.get("scheduler_file"):
        from knight.runtime.cluster import check_scheduler

        try:
            check_scheduler(DASK.get("scheduler"), DASK.get("scheduler_file"))
        except (ValueError, ConnectionError) as exc:
            raise WorkflowError(f"config key dask: {exc}") from None


def check_stored_results():
    """Before Snakemake plans any job: check every stored result under results/ against the
    seal its writer recorded (knight.pipeline.integrity). A file that differs (or an output
    without a seal) is removed with one line naming it, and so is every result made from
    it, so Snakemake remakes them all: the results then equal a clean run's. Skipped while
    another snakemake run holds the folder (a dry run to watch it, say)."""
    import sys
    import time

    from knight.pipeline.integrity import check_results

    if any(Path(".snakemake", "locks").glob("*.lock")):  # files of running jobs are half-written
        print(
            "results: not checked against their seals now: another snakemake run holds this folder "
            "(.snakemake/locks; if none runs, `snakemake --unlock` clears them)",
            file=sys.stderr,
        )
        return
    outputs = [pattern for rule in workflow.rules for pattern in rule.output]
    t0 = time.perf_counter()
    found = check_results("results", is_output=lambda path: any(p.match(path) for p in outputs))
    for line in found.lines():
        print(line, file=sys.stderr)
    if found.checked:
        print(
            f"results: {found.checked} files ({found.bytes / 1e6:.1f} MB) match their seals "
            f"(checked in {time.perf_counter() - t0:.2f} s)",
            file=sys.stderr,
        )


def remove_stale_parts():
    """Delete parts in the plan's dataset folders that the current plan no longer makes, and
    temporary files left by killed jobs (a glob over results/ would read them twice)."""
    for folder, files in DATASETS.items():
        if not os.path.isdir(folder):
            continue
        wanted = {Path(p).name for p in files}
        for path in Path(folder).glob("part-*.parquet"):
            if path.name not in wanted:
                print(f"removing stale part {path} (not in the current plan)")
                seal.remove(path)
    for path in dataset.remove_leftovers("results"):
        print(f"removing leftover temporary file {path}")


wildcard_constraints:
    board=r"\d+x\d+",
    chunk=r"\d{4}\d*",
    study=r"[a-z0-9][a-z0-9_-]*",
    rule="|".join(map(re.escape, RULES)),
    claim=r"[a-z0-9][a-z0-9_-]*",
    scan=r"[a-z0-9][a-z0-9_-]*",
    slice=r"\d{4}\d*",


# --- the queens frontier stores -------------------------------------------------------
def clean_frontier_stores():
    """Remove the units of the frontier searches' stores that do not verify (damaged,
    copied, of another plan), one line each, and the merge made from them: their jobs
    remake both (Snakemake does not rerun a merge for an input that went missing). Runs
    after check_stored_results(), so a unit whose bytes differ from its seal is named
    for that, as every other result is."""
    from knight.queens.units import clean_store, make_plan

    for name, (n, k, units) in FRONTIER.items():
        lines = clean_store(f"results/queens/frontier/{name}", make_plan(n, k, units))
        for line in lines:
            print(line)
        merged = [Path(f"results/queens/frontier/{name}.{ext}") for ext in ("parquet", "csv", "json")]
        for path in merged if lines else []:
            if path.exists():
                print(f"removing {path}: merged from a unit removed above")
                path.unlink()


# --- Slurm's limits -------------------------------------------------------------------
# When the jobs go to Slurm, every job asks for at most the CPUs of the partition's
# largest node, learned from sinfo here (knight.pipeline.slurm; --max-threads can lower
# it): the profile's command works as printed on any cluster, and "auto" threads
# (dask.workers) mean that many. Before the first submission (onstart),
# check_slurm_jobs() stops the run on any job that no node could ever run.
from knight.pipeline import slurm as slurm_limits

SLURM_PARTITION = None
if workflow.is_main_process and slurm_limits.submits_to_slurm(workflow.resource_settings):
    try:
        SLURM_PARTITION = slurm_limits.partition(slurm_limits.default_partition_name(workflow.resource_settings))
    except slurm_limits.SlurmError as exc:
        raise WorkflowError(str(exc)) from None
    CORES = min(filter(None, [workflow.resource_settings.max_threads, SLURM_PARTITION.cpus]))
    workflow.resource_settings.max_threads = CORES


def check_slurm_jobs():
    """Stop before any submission if a job asks for more than any node of its Slurm
    partition has (memory, CPUs) or for longer than the partition allows: one line per Snakemake rule."""
    if SLURM_PARTITION is None:
        return
    lines = slurm_limits.impossible(workflow.dag.needrun_jobs())
    if lines:
        raise WorkflowError(
            "jobs no Slurm node can run (lower the request or choose a partition):\n  " + "\n  ".join(lines)
        )
