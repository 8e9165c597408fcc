# Configuration check, shared helpers and wildcard constraints.
import os
from functools import lru_cache
from pathlib import Path

from snakemake.utils import validate

from knight.board import parse_board
from knight.config import check as check_config
from knight.sweep import SweepSpec, n_chunks, parse_orders, parse_starts
from knight.tables import TABLES

# Every problem of the config is reported, by key and value, before any job runs.
check_config(config, Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml")
validate(config, "../schemas/config.schema.yaml")  # also fills in the schema's defaults

SWEEP = config["sweep"]
DASK = config["dask"]
# Canonical forms, so that reordering or repeating list items reruns nothing.
if SWEEP["orders"] != "all":
    SWEEP["orders"] = sorted(set(map(str, SWEEP["orders"])))
if SWEEP["starts"] != "all":
    SWEEP["starts"] = sorted({tuple(p) for p in SWEEP["starts"]})
    SWEEP["starts"] = [list(p) for p in SWEEP["starts"]]
BOARDS = list(dict.fromkeys(parse_board(b).name for b in SWEEP["boards"]))
try:
    CORES = int(workflow.cores)
except Exception:  # no --cores given (e.g. --report, --dry-run): any count will do
    CORES = os.cpu_count() or 1

wildcard_constraints:
    board=r"\d+x\d+",
    chunk=r"\d{4}",


def job_threads():
    """Threads of a Dask-backed job: 1 when an external scheduler does the work."""
    if DASK.get("scheduler") or DASK.get("scheduler_file"):
        return 1
    return CORES if DASK["workers"] == "auto" else int(DASK["workers"])


@lru_cache(maxsize=None)
def sweep_spec(board_name):
    """The sweep of one board under the current config (any board, listed or not)."""
    board = parse_board(board_name)
    return SweepSpec(
        board,
        starts=parse_starts(board, SWEEP["starts"]),
        ranks=parse_orders(SWEEP["orders"]),
        chunk_runs=SWEEP["chunk_runs"],
        engine=SWEEP["engine"],
    )


def chunk_files(board_name):
    """The runs files of one board, one per chunk (job)."""
    n = n_chunks(sweep_spec(board_name))
    return [f"results/runs/board={board_name}/part-{k:04d}.parquet" for k in range(n)]


def remove_stale_chunks():
    """Delete runs files of listed boards that the current chunk plan no longer makes.

    A changed ``chunk_runs`` (or starts/orders selection) changes the plan; leftover
    parts would otherwise be read twice by a glob over results/runs/.
    """
    for name in BOARDS:
        folder = Path(f"results/runs/board={name}")
        if not folder.is_dir():
            continue
        wanted = {Path(p).name for p in chunk_files(name)}
        for path in folder.glob("part-*.parquet"):
            if path.name not in wanted:
                print(f"removing stale runs file {path} (not in the current chunk plan)")
                path.unlink()


def library_code(*modules):
    """Source files of ``knight`` modules a rule depends on: editing them reruns it."""
    root = Path(workflow.basedir) / "knight"
    return [str(root / f"{m}.py") for m in modules]
