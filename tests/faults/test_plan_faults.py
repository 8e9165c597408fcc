"""The workflow-side faults of issue 41: parts another plan made, a killed Snakemake's
lock, a target past the plan, an interpreter path with a space, and commands that only
plan leaving every file as it was."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import CONFIG, assert_same_results, run
from workflow_run import snakemake as run_snakemake

from knight.pipeline import locks

pytestmark = pytest.mark.slow  # whole workflow runs


def _tree(work) -> dict[str, int]:
    """Every file under ``work/results`` with its size (what a command must leave as it was)."""
    root = Path(work, "results")
    return {p.relative_to(root).as_posix(): p.stat().st_size for p in root.rglob("*") if p.is_file()}


def test_parts_made_by_another_plan_are_named_removed_and_remade(clean, damaged, tmp_path):
    """Fault 1: parts of a run with another order, copied with their seals (times kept) over a
    finished run, passed every check; now each is named, removed with what was made from it,
    and remade: the results equal a clean run's."""
    other = tmp_path / "other"
    other.mkdir()
    cfg = json.loads(json.dumps(CONFIG))
    cfg["sweep"]["orders"] = [o if o != "56781234" else "21345678" for o in cfg["sweep"]["orders"]]
    (other / "cfg.yaml").write_text(yaml.safe_dump(cfg))
    res = run_snakemake(other, "sweep_stage", configfile=other / "cfg.yaml")
    assert res.returncode == 0, res.stderr[-3000:]
    board = Path("results/runs/board=5x5")
    for path in sorted((other / board).glob("part-*.parquet")):
        for f in (path, path.parent / f".{path.name}.seal"):
            shutil.copy2(f, damaged / board / f.name)
    res = run(damaged)
    assert res.returncode == 0, res.stderr[-3000:]
    for path in sorted((other / board).glob("part-*.parquet")):
        assert f"{board / path.name}: made by another plan" in res.stderr, res.stderr[-3000:]
    assert "results/tables/boards/5x5/: classes.parquet, completion.parquet" in res.stderr
    assert_same_results(clean, damaged)


@pytest.mark.parametrize("flags", [["-n"], ["--summary"], ["--lint"], ["--list-rules"]])
def test_commands_that_only_plan_change_nothing(damaged, flags):
    """A flipped byte in a finished run: a command that only plans names the file and what
    would be remade, and leaves every file as it was; a real run then removes and remakes."""
    path = damaged / "results/tables/boards/5x5/orders.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    before = _tree(damaged)
    res = run(damaged, *flags)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "orders.parquet: bytes differ from what its writer recorded; its job would rerun" in res.stderr
    assert _tree(damaged) == before


def test_a_killed_snakemake_then_the_same_command_finishes(clean, damaged):
    """Fault 5: after kill -9 of Snakemake's own process the same command stopped with
    LockException until `snakemake --unlock`; now the dead run's lock is named and cleared."""
    for path in (damaged / "results/runs").rglob("*"):
        if path.is_file():
            path.unlink()  # the sweep's jobs run again
    proc = subprocess.Popen(_command(damaged), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not any((damaged / ".snakemake/locks").glob("*.lock")) and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert any((damaged / ".snakemake/locks").glob("*.lock")), "the killed run left no lock"
    time.sleep(2)  # its jobs notice their parent is gone
    res = run(damaged)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "removed the lock of a run that is gone" in res.stderr
    assert_same_results(clean, damaged)


def _command(work):
    from conftest import TARGETS
    from workflow_run import REPO

    snakefile = os.path.join(REPO, "Snakefile")
    return [sys.executable, "-m", "snakemake", "-s", snakefile, "--cores", "2", "--directory", str(work), *TARGETS,
            "--configfile", str(work / "cfg.yaml")]  # fmt: skip


def test_a_live_runs_lock_stands(tmp_path):
    """The lock of a run whose process lives is left to Snakemake, which refuses a second run."""
    (tmp_path / ".snakemake/locks").mkdir(parents=True)
    (tmp_path / ".snakemake/locks/0.input.lock").write_text("x\n")
    locks.claim(tmp_path)  # this test's own process: alive
    assert locks.clear_if_dead(tmp_path) is None
    assert (tmp_path / ".snakemake/locks/0.input.lock").exists()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    locks.claim(tmp_path, pid=dead.pid)
    line = locks.clear_if_dead(tmp_path)
    assert line and f"pid {dead.pid}" in line and not (tmp_path / ".snakemake/locks/0.input.lock").exists()


def test_a_target_past_the_plan_stops_in_one_line(tmp_path):
    """Fault 10: `snakemake -n results/runs/board=5x5/part-9999.parquet` raised
    InputFunctionException (IndexError)."""
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
    res = run_snakemake(tmp_path, "-n", "results/runs/board=5x5/part-9999.parquet", configfile=tmp_path / "cfg.yaml")
    out = res.stdout + res.stderr
    assert res.returncode != 0
    assert "results/runs/board=5x5/part-9999.parquet: not a file of the current plan" in out
    assert "Traceback" not in out and "IndexError" not in out


def test_an_interpreter_path_with_a_space_is_refused_before_any_job(tmp_path):
    """Fault 6: with the virtual environment under a path with a space, every job exited 127
    (Snakemake does not quote the interpreter's path); now the run stops first, saying why."""
    spaced = tmp_path / "my dir ü"  # a virtual environment there: its python, config and libraries
    (spaced / "bin").mkdir(parents=True)
    python = spaced / "bin" / "python"
    python.symlink_to(os.path.realpath(sys.executable))
    shutil.copy(Path(sys.prefix, "pyvenv.cfg"), spaced / "pyvenv.cfg")
    (spaced / "lib").symlink_to(Path(sys.prefix, "lib"))
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
    from workflow_run import REPO

    cmd = [str(python), "-m", "snakemake", "-s", os.path.join(REPO, "Snakefile"), "--cores", "1",
           "--directory", str(tmp_path), "sweep_stage", "--configfile", str(tmp_path / "cfg.yaml")]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    assert "the Python interpreter's path has a space" in res.stderr
    assert not (tmp_path / "results").exists()
