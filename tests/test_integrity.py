"""Nothing lost, nothing half-trusted: reused and killed outputs, corrupt inputs, bad output
paths, interrupts, and reruns that follow results, not settings (each reproduces a fault a
probe found)."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

import polars as pl
import pytest
import yaml
from workflow_run import snakemake as run_snakemake

from knight.core import dataset
from knight.core.board import Board
from knight.sweep.driver import SweepSpec, chunk_path

KNIGHT = [sys.executable, "-m", "knight.cli"]


def knight(*args, timeout=600):
    return subprocess.run([*KNIGHT, *map(str, args)], capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_reused_output_folder_never_duplicates_rows(tmp_path):
    """Fault 1: two sweeps into one folder left both runs' parts (4,677,120 rows for 2,580,480)."""
    assert knight("sweep", 6, "--out", tmp_path, "--chunk-runs", 300_000).returncode == 0
    first = sorted(p.name for p in (tmp_path / "board=6x6").glob("part-*"))
    assert len(first) > 1
    assert knight("sweep", 6, "--out", tmp_path).returncode == 0
    assert sorted(p.name for p in (tmp_path / "board=6x6").glob("part-*")) == ["part-0000.parquet"]
    assert pl.scan_parquet(str(tmp_path / "**/*.parquet")).select(pl.len()).collect().item() == 1_451_520
    assert dataset.scan(tmp_path).select(pl.len()).collect().item() == 1_451_520


@pytest.mark.slow
def test_killed_sweep_is_unfinished_and_cleaned_up(tmp_path):
    """Fault 2: a sweep killed with -9 left a dataset that scanned as valid, plus .tmp files."""
    folder = tmp_path / "board=8x8"
    proc = subprocess.Popen(
        [
            *KNIGHT,
            "sweep",
            "8",
            "--out",
            str(tmp_path),
            "--engine",
            "brute",
            "--workers",
            "1",
            "--chunk-runs",
            "150000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 300
    while not (folder / "part-0001.parquet").exists():
        assert proc.poll() is None and time.time() < deadline, "the sweep ended before it could be killed"
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    (folder / ".part-0009.parquet.123-dead.tmp").write_bytes(b"half a file")  # as a killed writer leaves
    with pytest.raises(dataset.DatasetError, match="did not finish"):
        dataset.scan(tmp_path)
    assert knight("sweep", 8, "--out", tmp_path, "--chunk-runs", 1_000_000).returncode == 0
    assert not list(folder.glob("*.tmp"))
    runs = dataset.scan(tmp_path, deep=True).collect()
    assert runs.height == 2_580_480 and runs["complete"].sum() == 2_501_648


@pytest.mark.slow
def test_manifest_catches_a_changed_part(tmp_path):
    assert knight("sweep", 5, "--out", tmp_path).returncode == 0
    part = tmp_path / "board=5x5" / "part-0000.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, other bytes
    part.write_bytes(bytes(data))
    dataset.scan(tmp_path)  # cheap check: sizes only
    with pytest.raises(dataset.DatasetError, match="changed since"):
        dataset.scan(tmp_path, deep=True)


@pytest.mark.parametrize("where", ["file", "unwritable"])
def test_bad_output_path_stops_before_computing(tmp_path, where):
    """Fault 5: --out on a file or an unwritable place failed with a traceback after the whole sweep."""
    if where == "file":
        out = tmp_path / "taken"
        out.write_text("not a folder")
    else:
        out = "/proc/knight-out"
    t0 = time.perf_counter()
    res = knight("sweep", 12, "--out", out, "--engine", "brute", "--workers", "1")
    assert res.returncode == 2
    assert time.perf_counter() - t0 < 20  # a brute 12x12 sweep takes much longer on one thread
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and str(out) in lines[0] and "Traceback" not in res.stderr


@pytest.mark.slow
def test_ctrl_c_stops_cleanly(tmp_path):
    """Fault 4 (for every command): Ctrl-C ends with one line and exit 130, no traceback."""
    for args in (
        ["sweep", "10", "--engine", "brute", "--workers", "1", "--out", str(tmp_path)],
        ["rules", "300", "--rule", "fixed", "--starts", "all", "--workers", "1"],
    ):
        proc = subprocess.Popen([*KNIGHT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(6)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "Traceback" not in err and "interrupted" in err


# --- the workflow -----------------------------------------------------------------------
def snakemake(repo, work, *extra, config="cfg.yaml"):
    return run_snakemake(work, "sweep_study", *extra, configfile=work / config, timeout=600, repo=repo)


SMALL = {"sweep": {"boards": [5, 6], "orders": ["12345678", "31245678", "87654321"], "chunk_runs": 100}}


@pytest.fixture()
def small(repo, tmp_path):
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(SMALL))
    res = snakemake(repo, tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    return tmp_path


@pytest.mark.slow
def test_corrupt_runs_file_keeps_failing_until_remade(repo, small):
    """Fault 3: a truncated runs file failed once without naming it, then 'Nothing to be done'."""
    part = small / "results/runs/board=6x6/part-0000.parquet"
    good = part.read_bytes()
    tables = sorted(p.name for p in (small / "results/tables/boards/6x6").iterdir())
    os.truncate(part, 100)
    for _ in range(2):
        res = snakemake(repo, small)
        assert res.returncode != 0
        assert "results/runs/board=6x6/part-0000.parquet" in res.stderr and "not a readable Parquet file" in res.stderr
    assert sorted(p.name for p in (small / "results/tables/boards/6x6").iterdir()) == tables
    part.unlink()
    res = snakemake(repo, small)
    assert res.returncode == 0, res.stderr[-2000:]
    assert part.read_bytes() == good


@pytest.mark.slow
def test_settings_that_cannot_change_a_result_rerun_nothing(repo, small, tmp_path_factory):
    """Fault 6: switching dask.scheduler reran every job; a moved project reran everything."""
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        cfg = {**SMALL, "dask": {"scheduler": cluster.scheduler_address, "workers": 1}}
        (small / "cluster.yaml").write_text(yaml.safe_dump(cfg))
        res = snakemake(repo, small, "-n", config="cluster.yaml")
        assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr, res.stdout[-2000:]
    moved = tmp_path_factory.mktemp("moved")
    shutil.copytree(repo, moved / "repo", ignore=shutil.ignore_patterns(".venv", ".git", "results", ".snakemake"))
    shutil.copytree(small, moved / "work")
    res = snakemake(str(moved / "repo"), moved / "work", "-n")
    assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr, res.stdout[-2000:]


@pytest.mark.slow
def test_a_changed_library_module_reruns_its_rules(repo, small):
    """Code inputs are derived from the scripts' imports (knight.pipeline.codehash)."""
    from knight.pipeline.codehash import code_files

    used = {p.name for p in code_files(os.path.join(repo, "workflow/scripts/board_tables.py"))}
    assert {"tables.py", "symmetry.py", "orders.py", "dataset.py"} <= used
    assert "cluster.py" not in {p.name for p in code_files(os.path.join(repo, "workflow/scripts/sweep_chunk.py"))}


def test_chunk_numbers_beyond_9999():
    """Fault 7: a plan of more than 9,999 chunks failed (chunk=\\d{4})."""
    assert dataset.part_name(12345) == "part-12345.parquet"
    assert chunk_path("results/runs", Board(8, 8), 10000).name == "part-10000.parquet"
    constraint = re.compile(r"\d{4}\d*")  # the workflow's wildcard constraint for chunks
    assert constraint.fullmatch("0000") and constraint.fullmatch("10000") and not constraint.fullmatch("123")


def test_planning_a_big_board_is_fast():
    t0 = time.perf_counter()
    spec = SweepSpec(Board(256, 256), chunk_runs=40320)
    assert len(spec.chunks()) == 8256  # one chunk per start orbit
    assert time.perf_counter() - t0 < 10


@pytest.mark.slow
@pytest.mark.parametrize(
    "dask, named",
    [
        ({"scheduler": "tcp://127.0.0.1:9"}, "tcp://127.0.0.1:9"),
        ({"scheduler_file": "/nonexistent/scheduler.json"}, "/nonexistent/scheduler.json"),
    ],
)
def test_unreachable_scheduler_stops_the_workflow_at_once(repo, tmp_path, dask, named):
    """Fault 8: each job found an unreachable dask.scheduler after about 36 s, with long tracebacks."""
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump({**SMALL, "dask": dask}))
    t0 = time.perf_counter()
    res = snakemake(repo, tmp_path)
    assert res.returncode != 0 and time.perf_counter() - t0 < 30
    assert "config key dask: dask scheduler" in res.stderr and named in res.stderr
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_code_hashes_cover_what_each_script_imports(repo):
    """The code a rule's hash covers (knight.pipeline.codehash, static) includes every knight module
    its script really imports when run (its imports executed in a fresh process)."""
    import ast

    from knight.pipeline.codehash import NEUTRAL, code_files

    scripts = sorted(p for p in os.listdir(os.path.join(repo, "workflow", "scripts")) if p.endswith(".py"))
    for name in scripts:
        path = os.path.join(repo, "workflow", "scripts", name)
        tree = ast.parse(open(path).read())
        imports = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        probe = "\n".join([*imports, "import sys", "print(' '.join(sys.modules))"])
        res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
        assert res.returncode == 0, (name, res.stderr[-1000:])
        loaded = {m for m in res.stdout.split() if m.split(".")[0] == "knight"}
        covered = {
            os.path.relpath(str(p), os.path.join(repo, "knight")).removesuffix(".py").replace(os.sep, ".")
            for p in code_files(path)
        }
        covered = {("knight." + c).removesuffix(".__init__") for c in covered} | {"knight"}
        missing = {m for m in loaded if m not in covered and m not in NEUTRAL}
        assert not missing, (name, missing)
