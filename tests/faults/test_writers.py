"""Two writers on one output folder (issue 16, point 3): the second is refused at once,
in one line; a writer killed while it holds the folder does not block the next one."""

import subprocess
import sys
import time

import polars as pl
import pytest

from knight.core import dataset

pytestmark = pytest.mark.slow  # whole workflow runs and subprocess sweeps

KNIGHT = [sys.executable, "-m", "knight.cli"]
RUNS_8X8 = 64 * 40_320  # 2,580,480


def start_sweep(out, *extra):
    """``knight sweep 8 --out OUT`` in the background; returns once it holds the folder."""
    proc = subprocess.Popen(
        [*KNIGHT, "sweep", "8", "--out", str(out), "--chunk-runs", "500000", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lock = out / "board=8x8" / dataset.LOCK
    deadline = time.time() + 120
    while not lock.exists():
        assert proc.poll() is None and time.time() < deadline, proc.stderr.read() if proc.poll() is not None else ""
        time.sleep(0.05)
    return proc


def test_a_second_writer_is_refused_at_once(tmp_path):
    """The issue's repro: knight sweep 8 --out Y --chunk-runs 500000 & sleep 0.5; knight sweep 8 --out Y."""
    # Brute force on one thread (the same rows): the first writer holds the folder for
    # seconds, not the tree's fraction of one, so a loaded machine's slow start of the
    # second process still meets it (a fresh-clone CI run beside a 2-core study saw the
    # tree's sweep end first).
    first = start_sweep(tmp_path, "--engine", "brute", "--workers", "1")
    t0 = time.perf_counter()
    second = subprocess.run([*KNIGHT, "sweep", "8", "--out", str(tmp_path)], capture_output=True, text=True)
    refused_in = time.perf_counter() - t0
    still_running = first.poll() is None
    out, err = first.communicate(timeout=900)
    assert first.returncode == 0, err
    assert still_running, "the first sweep ended before the second started: the test proved nothing"
    assert second.returncode == 2 and refused_in < 15
    (line,) = second.stderr.strip().splitlines()
    assert f"output folder {tmp_path / 'board=8x8'}: another process is writing there" in line
    assert dataset.scan(tmp_path).select(pl.len()).collect().item() == RUNS_8X8
    plain = pl.scan_parquet(str(tmp_path / "**" / "*.parquet")).select(pl.len()).collect().item()
    assert plain == RUNS_8X8  # a plain glob reads every run once: no parts of a second writer


def test_a_killed_writer_does_not_block_the_next(tmp_path):
    first = start_sweep(tmp_path, "--workers", "1")
    first.kill()  # as kill -9 does: the process never releases anything itself
    first.communicate()
    res = subprocess.run([*KNIGHT, "sweep", "5", "--out", str(tmp_path)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    res = subprocess.run(
        [*KNIGHT, "sweep", "8", "--out", str(tmp_path), "--orders", "12345678"], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    assert dataset.scan(tmp_path / "board=8x8").select(pl.len()).collect().item() == 64
