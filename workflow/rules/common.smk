# Snakemake glue: the checked config, the plan (knight.pipeline.plan) built from it once,
# the wildcards, the start-up check of stored results and Slurm's limits. Each stage's
# .smk file holds its Snakemake rules; what they make, read and are given comes from PLAN.
import logging
import os
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

from knight.core import dataset, seal
from knight.pipeline import locks
from knight.pipeline import slurm as slurm_limits
from knight.pipeline.config import ConfigError
from knight.pipeline.config import check as check_config
from knight.runtime.faults import describe as describe_fault
from knight.pipeline.jobs.figures import BOARD_FIGURES
from knight.pipeline.jobs.rules import RULE_TABLES, RULES_FIGURES
from knight.pipeline.paths import PATTERNS, path
from knight.pipeline.plan import Plan
from knight.rules.settings import RULES
from knight.sweep.census import CENSUS_TABLES
from knight.sweep.census import PARTS as CENSUS_PARTS
from knight.sweep.tables import TABLES

# Every problem of the config is reported, by key and value, before any job runs;
# defaults are filled in and lists put in canonical order (reordering reruns nothing).
try:
    _checked, _settings = check_config(config)
except ConfigError as exc:
    raise WorkflowError(str(exc)) from None
config.clear()
config.update(_checked)

# --cores 0 would wait for ever for a free core, and a negative count would give every
# job that many threads: both stop here, before any job. (--jobs N without --cores is
# Snakemake's count of cores too.)
if workflow.resource_settings.cores is not None and workflow.resource_settings.cores < 1:
    raise WorkflowError(
        f"--cores {workflow.resource_settings.cores}: must be at least 1 (or all: every CPU of this machine)"
    )

try:
    CORES = int(workflow.cores)
except Exception:  # no --cores given (e.g. --report, --dry-run): any count will do
    CORES = os.cpu_count() or 1

# When the jobs go to Slurm, every job asks for at most the CPUs of the partition's
# largest node, learned from sinfo here (--max-threads can lower it): the profile's
# command works as printed on any cluster, and "auto" threads (dask.workers) mean that
# many. Before the first submission (onstart), check_slurm_jobs() stops the run on any
# job that no node could ever run.
SLURM_PARTITION = None
if workflow.is_main_process and slurm_limits.submits_to_slurm(workflow.resource_settings):
    try:
        SLURM_PARTITION = slurm_limits.partition(slurm_limits.default_partition_name(workflow.resource_settings))
    except slurm_limits.SlurmError as exc:
        raise WorkflowError(str(exc)) from None
    CORES = min(filter(None, [workflow.resource_settings.max_threads, SLURM_PARTITION.cpus]))
    workflow.resource_settings.max_threads = CORES

PLAN = Plan(config, cores=CORES, built=_settings)
FIG_EXT = ("png", "svg")


wildcard_constraints:
    board=r"\d+x\d+",
    chunk=r"\d{4}\d*",
    study=r"[a-z0-9][a-z0-9_-]*",
    rule="|".join(map(re.escape, RULES)),
    claim=r"[a-z0-9][a-z0-9_-]*",
    scan=r"[a-z0-9][a-z0-9_-]*",
    slice=r"\d{4}\d*",


def plans_only():
    """Whether this snakemake command only plans (-n, --summary, --lint, --report,
    --list-*, --dag, ...): then the start-up check changes nothing on disk. Read from the
    command line with Snakemake's own parser; a command it cannot read counts as planning."""
    if workflow.output_settings.dryrun:
        return True
    from snakemake.cli import get_argument_parser

    try:
        args, _ = get_argument_parser().parse_known_args(sys.argv[1:])
    except BaseException:
        return True
    listing = [k for k, v in vars(args).items() if k.startswith("list") and v]
    others = ("summary", "detailed_summary", "lint", "report", "dag", "rulegraph", "filegraph", "d3dag", "touch")
    return bool(listing) or any(getattr(args, k, None) for k in others) or bool(getattr(args, "unlock", False))


def made_by_plan(made_by, path):
    """Why ``path``, made by the job its seal names, is not what the current plan makes
    there (knight.pipeline.integrity), or None."""
    try:
        maker = workflow.get_rule(made_by["rule"])
    except Exception:
        return f"made by rule {made_by.get('rule')!r}, which this workflow does not have"
    if not any(o.match(path) for o in maker.output):
        return None  # a file the job keeps beside its outputs (a store's plan): its reader checks it
    wildcards = maker.get_wildcards(path)
    try:
        expected = seal.params_digest(PLAN.job_params(maker.name, wildcards))
    except (KeyError, IndexError, ValueError):
        return f"a {maker.name} job the current plan does not have"
    if expected != made_by.get("params"):
        return f"made by another plan ({made_by.get('version') or maker.name} with other parameters)"
    return None


def take_over_a_dead_runs_lock():
    """Before Snakemake takes this folder's lock: clear a lock that a killed run left
    (knight.pipeline.locks), so the same command after a kill -9 just works; then record
    this run as the lock's holder. A command that only plans touches neither."""
    if plans_only():
        return
    line = locks.clear_if_dead()
    if line:
        print(line, file=sys.stderr)
    if not any(Path(".snakemake", "locks").glob("*.lock")):
        try:
            locks.claim()
        except OSError as exc:  # the disk filled since the Snakefile's check_room
            logging.raiseExceptions = False  # Snakemake's log file is on that disk too
            raise WorkflowError(
                f"{describe_fault(exc) or exc}: free space there, then run the same command again"
            ) from None


def check_interpreter_path():
    """Snakemake runs each job's script through the shell without quoting the Python
    interpreter's path: with a space in it every job would fail (exit 127). Refuse at once."""
    if any(c.isspace() for c in sys.executable):
        raise WorkflowError(
            f"the Python interpreter's path has a space ({sys.executable}): Snakemake cannot run the "
            "workflow's scripts with it; put the virtual environment in a folder whose path has none"
        )


def check_requested_targets():
    """A target the user names that the plan does not make (e.g. a part past a board's last
    chunk) stops the run in one line naming it and what the plan has."""
    from snakemake.cli import get_argument_parser

    try:
        args, _ = get_argument_parser().parse_known_args(sys.argv[1:])
    except BaseException:
        return
    for target in getattr(args, "targets", None) or []:
        why = PLAN.why_not_planned(target)
        if why:
            raise WorkflowError(f"{target}: {why}")


def check_stored_results():
    """Before Snakemake plans any job: check every stored result under results/ against the
    seal its writer recorded and against the current plan (knight.pipeline.integrity). A
    real run removes what cannot be trusted and what was made from it, so Snakemake remakes
    them; a command that only plans names them. Skipped while another snakemake run holds
    the folder (its files are half-written)."""
    import time

    from knight.pipeline.integrity import CannotRemoveError, check_results

    if any(Path(".snakemake", "locks").glob("*.lock")):
        print(
            "results: not checked against their seals now: another snakemake run holds this folder "
            "(.snakemake/locks; if none runs, `snakemake --unlock` clears them)",
            file=sys.stderr,
        )
        return
    outputs = [pattern for rule in workflow.rules for pattern in rule.output]
    t0 = time.perf_counter()
    try:
        found = check_results(
            "results",
            is_output=lambda path: any(p.match(path) for p in outputs),
            made_by_plan=made_by_plan,
            remove=not plans_only(),
        )
    except CannotRemoveError as exc:
        raise WorkflowError(str(exc)) from None
    for line in found.lines():
        print(line, file=sys.stderr)
    if found.checked:
        print(
            f"results: {found.checked} files ({found.bytes / 1e6:.1f} MB) checked against their seals "
            f"and the plan in {time.perf_counter() - t0:.2f} s",
            file=sys.stderr,
        )


def check_dask_scheduler():
    """An external Dask scheduler (dask.scheduler or dask.scheduler_file) must answer: checked
    once, before any job, with a one-line message naming it (not by every job, slowly)."""
    if PLAN.dask.external:
        from knight.runtime.cluster import check_scheduler

        try:
            check_scheduler(PLAN.dask.scheduler, PLAN.dask.scheduler_file)
        except (ValueError, ConnectionError) as exc:
            raise WorkflowError(f"config key dask: {exc}") from None


def remove_stale_parts():
    """Delete parts in the plan's dataset folders that the current plan no longer makes, and
    temporary files left by killed jobs (a glob over results/ would read them twice)."""
    from knight.pipeline.integrity import CannotRemoveError, remove_files

    stale = {}
    for folder, files in PLAN.datasets().items():
        if not os.path.isdir(folder):
            continue
        wanted = {Path(p).name for p in files}
        for path in Path(folder).glob("part-*.parquet"):
            if path.name not in wanted:
                print(f"removing stale part {path} (not in the current plan)")
                stale[str(path)] = "a part the current plan does not make"
    try:
        remove_files(stale)
        for path in dataset.remove_leftovers("results"):
            print(f"removing leftover temporary file {path}")
    except CannotRemoveError as exc:
        raise WorkflowError(str(exc)) from None
    except OSError as exc:
        raise WorkflowError(
            f"{exc.filename}: a leftover temporary file that cannot be removed ({exc.strerror}): "
            "remove it yourself, then run the same command again"
        ) from None


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
