# The configuration check (once, for every section), shared helpers and constraints.
import os
from functools import lru_cache
from pathlib import Path

from snakemake.exceptions import WorkflowError

from knight import dataset
from knight.board import parse_board
from knight.codehash import code_version
from knight.config import ConfigError, load as load_config
from knight.sweep import RUNS_SCHEMA, SweepSpec, chunk_path
from knight.tables import TABLES

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
BOARDS = list(dict.fromkeys(parse_board(b).name for b in SWEEP["boards"]))
try:
    CORES = int(workflow.cores)
except Exception:  # no --cores given (e.g. --report, --dry-run): any count will do
    CORES = os.cpu_count() or 1
SCRIPTS = Path(workflow.basedir) / "workflow" / "scripts"


wildcard_constraints:
    board=r"\d+x\d+",
    chunk=r"\d{4}\d*",


def code(script):
    """Hash of the library code a workflow script runs (knight.codehash): a rule parameter,
    so editing that code reruns the rule, and nothing else does (not a moved project)."""
    return code_version(SCRIPTS / f"{script}.py")


def job_threads():
    """Threads of a Dask-backed job: 1 when an external scheduler does the work."""
    if DASK.get("scheduler") or DASK.get("scheduler_file"):
        return 1
    return CORES if DASK["workers"] == "auto" else int(DASK["workers"])


@lru_cache(maxsize=None)
def sweep_spec(board_name):
    """The sweep of one board under the current config (any board, listed or not)."""
    return SweepSpec.from_config(board_name, SWEEP)


def chunk_files(board_name):
    """The runs files of one board, one per chunk (job)."""
    spec = sweep_spec(board_name)
    return [chunk_path("results/runs", spec.board, k).as_posix() for k in range(len(spec.chunks()))]


#: Every dataset folder the plan writes: folder -> (part files, rows of each, schema).
#: Filled by the stages' rule files; checked at start, cleaned before the first job.
DATASETS = {}


def check_dask_scheduler():
    """An external Dask scheduler (dask.scheduler or dask.scheduler_file) must answer: checked
    once, before any job, with a one-line message naming it (not by every job, slowly)."""
    if DASK.get("scheduler") or DASK.get("scheduler_file"):
        from knight.cluster import check_scheduler

        try:
            check_scheduler(DASK.get("scheduler"), DASK.get("scheduler_file"))
        except (ValueError, ConnectionError) as exc:
            raise WorkflowError(f"config key dask: {exc}") from None


def check_existing_parts():
    """Stop before any job if a part of the plan exists but is not whole (unreadable, other
    rows or columns than its chunk): a corrupt input keeps failing, named, until it is
    remade (deleted and rerun)."""
    bad = []
    for folder, (files, rows, schema) in DATASETS.items():
        for path, n in zip(files, rows):
            if os.path.exists(path):
                try:
                    dataset.check_part(path, rows=n, schema=schema)
                except dataset.DatasetError as exc:
                    bad.append(str(exc))
    if bad:
        raise WorkflowError("result files that cannot be trusted:\n  " + "\n  ".join(bad))


def remove_stale_parts():
    """Delete parts in the plan's dataset folders that the current plan no longer makes, and
    temporary files left by killed jobs (a glob over results/ would read them twice)."""
    for folder, (files, _, _) in DATASETS.items():
        if not os.path.isdir(folder):
            continue
        wanted = {Path(p).name for p in files}
        for path in Path(folder).glob("part-*.parquet"):
            if path.name not in wanted:
                print(f"removing stale part {path} (not in the current plan)")
                path.unlink()
    for path in dataset.remove_leftovers("results"):
        print(f"removing leftover temporary file {path}")
