"""Nothing lost, nothing half-trusted: reused and killed outputs, corrupt inputs, bad output
paths, interrupts, and reruns that follow results, not settings (each reproduces a fault a
probe found)."""

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import polars as pl
import pytest
import yaml
from workflow_run import snakemake as run_snakemake

from knight.core import dataset
from knight.core.board import Board
from knight.sweep.driver import chunk_path
from knight.sweep.spec import SweepSpec

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
    dataset.scan(tmp_path, deep=False)  # cheap check: sizes only
    with pytest.raises(dataset.DatasetError, match="changed since"):
        dataset.scan(tmp_path)  # every byte, by default


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
    """Fault 4 (for every command): Ctrl-C ends with one line and exit 130, no traceback.

    Each command runs for far longer than the 6 s before the Ctrl-C (a brute-force sweep
    of 10 x 10 once did not: it ended in under 6 s on an idle machine, exit 0, in CI)."""
    for args in (
        ["sweep", "16", "--engine", "brute", "--workers", "1", "--out", str(tmp_path)],
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
    return run_snakemake(work, "sweep_stage", *extra, configfile=work / config, timeout=600, repo=repo)


SMALL = {"sweep": {"boards": [5, 6], "orders": ["12345678", "31245678", "87654321"], "chunk_runs": 100}}


@pytest.fixture()
def small(repo, tmp_path):
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(SMALL))
    res = snakemake(repo, tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    return tmp_path


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


# --- seals, manifests, locks (issue 16, points 1 and 3, at the library level) -------------
def _flip(path, offset=None):
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if offset is None else offset] ^= 1
    path.write_bytes(bytes(data))


def test_the_writer_seals_what_it_wrote(tmp_path):
    """The seal holds the size and SHA-256 of the bytes written, computed here independently."""
    import hashlib

    import pyarrow as pa

    from knight.core import io, seal

    path = tmp_path / "board=5x5" / "part-0000.parquet"
    io.write_parquet(pa.table({"x": list(range(1000))}), path)
    record = seal.read_seal(path)
    assert record["bytes"] == path.stat().st_size
    assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert record["name"] == "board=5x5/part-0000.parquet"
    assert seal.seal_path(path).name == ".part-0000.parquet.seal"  # hidden: no *.parquet glob reads it
    seal.check(path)
    _flip(path)
    with pytest.raises(seal.SealError, match="part-0000.parquet: bytes differ from what its writer recorded"):
        seal.check(path)


def test_a_file_moved_with_its_seal_no_longer_matches(tmp_path):
    from knight.core import io, seal

    for board in ("5x5", "6x6"):
        with io.atomic_path(tmp_path / board / "orders.csv") as tmp:
            tmp.write_text(f"rows of {board}\n")
    (tmp_path / "5x5" / "orders.csv").replace(tmp_path / "6x6" / "orders.csv")
    seal.seal_path(tmp_path / "5x5" / "orders.csv").replace(seal.seal_path(tmp_path / "6x6" / "orders.csv"))
    with pytest.raises(seal.SealError, match="its seal was written for 5x5/orders.csv"):
        seal.check(tmp_path / "6x6" / "orders.csv")


def test_the_manifest_refuses_a_damaged_part_and_never_records_it(tmp_path):
    """Issue 16.1: the manifest job re-hashed a damaged part into _manifest.json."""
    import pyarrow as pa

    from knight.core import io, seal

    folder = tmp_path / "board=5x5"
    parts = [folder / dataset.part_name(k) for k in range(2)]
    for k, path in enumerate(parts):
        io.write_parquet(pa.table({"x": list(range(k, 500 + k))}), path)
    _flip(parts[1], 200)
    with pytest.raises(dataset.DatasetError, match=r"part-0001.parquet: bytes differ .*delete it and rerun"):
        dataset.write_manifest(folder, parts)
    assert not (folder / dataset.MANIFEST).exists()
    seal.remove(parts[1])  # a part without a seal is refused too (its bytes are not vouched for)
    parts[1].write_bytes(parts[0].read_bytes())
    with pytest.raises(dataset.DatasetError, match="part-0001.parquet: no seal"):
        dataset.write_manifest(folder, parts)


def test_a_damaged_manifest_is_refused(tmp_path):
    assert knight("sweep", 5, "--out", tmp_path).returncode == 0
    manifest = tmp_path / "board=5x5" / dataset.MANIFEST
    manifest.write_text(manifest.read_text().replace('"rows": 1008000', '"rows": 1008001'))
    with pytest.raises(dataset.DatasetError, match="_manifest.json: .*rerun to remake it"):
        dataset.scan(tmp_path)


def test_a_job_refuses_a_damaged_input_in_one_line(tmp_path):
    """A consumer checks what it reads: a job whose input differs from its seal stops at
    once, naming the file and how to recover, without a traceback on the console."""
    import pyarrow as pa

    from knight.core import io

    table = tmp_path / "results" / "tables" / "orders.parquet"
    io.write_parquet(pa.table({"x": [1, 2, 3]}), table)
    _flip(table, 100)
    code = textwrap.dedent(
        f"""
        import types
        from knight.runtime.logs import script_logging
        sm = types.SimpleNamespace(log=[{str(tmp_path / "job.log")!r}], input=[{str(table)!r}], output=[], rule="r")
        script_logging(sm)
        print("went on")
        """
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode != 0 and "went on" not in res.stdout
    assert "Traceback" not in res.stderr
    (line,) = res.stderr.strip().splitlines()
    assert str(table) in line and "bytes differ" in line and "run the workflow again" in line
    assert str(table) in (tmp_path / "job.log").read_text()


def test_ctrl_c_in_a_job_script_is_one_line(tmp_path):
    """Issue 16.4: Ctrl-C printed the running job's whole KeyboardInterrupt traceback."""
    log_path = tmp_path / "job.log"
    code = textwrap.dedent(
        f"""
        import time, types
        from knight.runtime.logs import script_logging
        sm = types.SimpleNamespace(log=[{str(log_path)!r}], input=[], output=[], rule="r")
        script_logging(sm).info("working")
        print("ready", flush=True)
        time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert err.strip().splitlines() == [f"r ({log_path}): interrupted (Ctrl-C)"]
    text = log_path.read_text()
    assert "Traceback" not in text and text.strip().splitlines()[-1].endswith("job stopped: interrupted (Ctrl-C)")


def test_a_job_seals_outputs_it_wrote_outside_the_atomic_writer(tmp_path):
    from knight.core import seal

    out = tmp_path / "figure.svg"
    code = textwrap.dedent(
        f"""
        import types
        from knight.runtime.logs import script_logging
        sm = types.SimpleNamespace(log=[{str(tmp_path / "job.log")!r}], input=[], output=[{str(out)!r}], rule="r")
        script_logging(sm)
        open({str(out)!r}, "w").write("<svg/>")
        """
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
    seal.check(out)


def test_the_writer_lock_refuses_a_second_writer_and_dies_with_its_holder(tmp_path):
    """Issue 16.3, library level: one writer per folder; a killed holder does not block."""
    hold = textwrap.dedent(
        f"""
        import time
        from knight.core.dataset import writing
        with writing({str(tmp_path)!r}):
            print("held", flush=True)
            time.sleep(120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", hold], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(dataset.DatasetError, match=f"output folder {tmp_path}: another process is writing"):
            with dataset.writing(tmp_path):
                pass
    finally:
        proc.kill()  # as a killed writer would: no clean-up runs
        proc.wait()
    with dataset.writing(tmp_path):  # the lock ended with its holder
        pass


def test_every_snakemake_rule_output_is_sealed_by_its_job(repo):
    """The start-up check removes an output without a seal: so every Snakemake rule that makes
    files runs a script, and every script calls script_logging (which checks the inputs and seals
    any output written without knight.core.io). A Snakemake rule that broke this would be
    remade on every run."""
    import glob

    for smk in [os.path.join(repo, "Snakefile"), *glob.glob(os.path.join(repo, "workflow", "rules", "*.smk"))]:
        text = open(smk).read()
        for block in re.split(r"^(?=(?:rule|checkpoint) \w+:)", text, flags=re.M)[1:]:
            name = block.split(":", 1)[0]
            if re.search(r"^\s+output:", block, flags=re.M):
                assert re.search(r"^\s+script:", block, flags=re.M), (smk, name, "makes files without a script")
                assert not re.search(r"^\s+(shell|run):", block, flags=re.M), (smk, name)
    for script in glob.glob(os.path.join(repo, "workflow", "scripts", "*.py")):
        assert "script_logging(sm" in open(script).read(), script
