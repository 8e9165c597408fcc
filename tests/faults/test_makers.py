"""No trust without a maker (issue 45, case 1): every writer records in its seal what
made the file, and the workflow trusts only files its own jobs made.

The issue's repro: a finished run, then ``knight sweep 5 --orders 21345678 ... --out
results/runs`` (one order the config never asked for), then the same ``snakemake``
command: it exited 0 in seconds and the tables held order 21345678, because the start-up
check skipped the plan check for a seal without ``made_by``.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_same_results, run

from knight.cli import main
from knight.core import seal
from knight.core.io import atomic_path
from knight.pipeline.integrity import check_results

#: The issue's command: board 5 with the tiny config's orders, its first (12345678)
#: replaced by 21345678.
SWEEP = ["sweep", "5", "--orders", "21345678", "31245678", "87654321", "16235478", "56781234", "--chunk-runs", "60"]
PART = "results/runs/board={board}/part-{chunk}.parquet"


def made_by(path) -> dict | None:
    return seal.read_seal(path).get("made_by")


def test_the_api_and_the_command_record_their_maker(tmp_path, capsys):
    with atomic_path(tmp_path / "api.txt") as tmp:
        tmp.write_text("x")
    assert made_by(tmp_path / "api.txt") == {"by": "the knight Python API"}
    out = tmp_path / "runs"
    assert main(["sweep", "5", "--orders", "12345678", "--out", str(out)]) == 0
    capsys.readouterr()
    written = sorted((out / "board=5x5").glob("[!.]*"))
    assert [p.name for p in written] == ["_manifest.json", "part-0000.parquet"]
    assert all(made_by(p) == {"by": "knight sweep"} for p in written)
    with atomic_path(tmp_path / "after.txt") as tmp:  # the command's name does not stay behind
        tmp.write_text("x")
    assert made_by(tmp_path / "after.txt") == {"by": "the knight Python API"}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def test_the_start_up_check_trusts_only_what_a_job_made(tmp_path, monkeypatch):
    """Fast tier: the start-up check on a folder where the command, the API and an older
    writer (a seal without ``made_by``) wrote at paths a workflow rule makes."""
    monkeypatch.chdir(tmp_path)
    by_job = Path("results/runs/board=5x5/part-0000.parquet")
    by_command = Path("results/runs/board=5x5/part-0001.parquet")
    by_api = Path("results/runs/board=5x5/part-0002.parquet")
    unsealed_maker = Path("results/runs/board=3x7/part-0000.parquet")
    elsewhere = Path("results/notes/mine.txt")  # no rule makes it: left alone
    with seal.recording(seal.Provenance.of_job("sweep_chunk", {"version": "sweep_chunk:tree=1"}, {})):
        _write(by_job, "job")
    with seal.recording(seal.Provenance(by="knight sweep")):
        _write(by_command, "command")
    _write(by_api, "api")
    _write(unsealed_maker, "old")
    record = json.loads(seal.seal_path(unsealed_maker).read_text())
    del record["made_by"]  # as a writer before makers were recorded
    seal.seal_path(unsealed_maker).write_text(json.dumps(record))
    _write(elsewhere, "mine")
    made_from = Path("results/tables/boards/5x5/orders.parquet")
    sources = {str(by_command): seal.read_seal(by_command)["sha256"]}
    with seal.recording(seal.Provenance.of_job("board_tables", {"version": "board_tables=1"}, sources)):
        _write(made_from, "table")

    def is_output(path):
        return path.startswith(("results/runs/", "results/tables/"))

    found = check_results("results", is_output=is_output, made_by_plan=lambda made_by, path: None)
    assert found.foreign == {
        str(by_command): "made by knight sweep, not by a job of this workflow",
        str(by_api): "made by the knight Python API, not by a job of this workflow",
        str(unsealed_maker): "its seal names no maker (written outside this workflow, or by an older version)",
    }
    assert found.derived == {str(made_from): f"made from {by_command}"}
    assert by_job.exists() and elsewhere.exists()
    assert not by_command.exists() and not seal.seal_path(by_command).exists() and not made_from.exists()
    lines = found.lines()
    assert (
        f"{by_command}: made by knight sweep, not by a job of this workflow; removed, the workflow remakes it" in lines
    )


@pytest.mark.slow
def test_a_sweep_the_command_wrote_into_results_is_named_and_remade(clean, damaged):
    """The issue's commands on a finished run: ``knight sweep ... --out results/runs`` in
    the run's folder, then the same snakemake command. Each part the command wrote is
    named and remade; the tables equal a clean run's (no order 21345678)."""
    res = subprocess.run(
        [sys.executable, "-m", "knight.cli", *SWEEP, "--out", "results/runs"],
        cwd=damaged,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    orders = Path("results/tables/orders.csv")
    res = run(damaged)
    assert res.returncode == 0, res.stderr[-3000:]
    for chunk in ("0000", "0001", "0002"):
        part = PART.format(board="5x5", chunk=chunk)
        assert f"{part}: made by knight sweep, not by a job of this workflow; removed" in res.stderr, res.stderr[-3000:]
    assert "results/runs/board=5x5/_manifest.json: made by knight sweep" in res.stderr
    assert "21345678" not in (damaged / orders).read_text()  # the order the config never asked for
    assert_same_results(damaged, clean)
    again = run(damaged, "-n")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
