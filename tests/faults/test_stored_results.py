"""Damaged stored results (issue 16, point 1): a workflow run after any damage remakes
what cannot be trusted, naming it, and ends with the results of a clean run; never
"Nothing to be done" over a damaged file."""

import os
import shutil

import pytest
from conftest import assert_same_results, flip, run

from knight.core import seal

pytestmark = pytest.mark.slow  # whole workflow runs and subprocess sweeps

RUNS = "results/runs/board={}/part-{:04d}.parquet"
NOTHING = "Nothing to be done"


def rerun_and_compare(damaged, clean, named):
    """Run the same command again: it must succeed, name every damaged file, end equal to
    the clean run, and the run after it must have nothing to do."""
    res = run(damaged)
    assert res.returncode == 0, res.stderr[-3000:]
    for path, why in named.items():
        assert any(path in line and why in line for line in res.stderr.splitlines()), (path, why, res.stderr[-3000:])
    assert NOTHING not in res.stderr + res.stdout
    assert_same_results(damaged, clean)
    again = run(damaged, "--dry-run")
    assert again.returncode == 0 and NOTHING in again.stderr + again.stdout, again.stderr[-2000:]
    return res


def swap(x, y):
    tmp = x.with_name(x.name + ".swap")
    x.rename(tmp)
    y.rename(x)
    tmp.rename(y)


def test_flipped_bytes_are_remade(damaged, clean):
    """The issue's repro (a bit of a runs part flipped at byte 585, its time kept), and the same
    in a rules part, a queens frontier unit, a manifest and a per-board and a combined table."""
    flips = {
        RUNS.format("5x5", 0): dict(offset=585, keep_mtime=True),
        "results/rules/runs/study=corner/rule=fixed/part-0000.parquet": dict(keep_mtime=True),
        "results/queens/frontier/dominate-8-5/unit-00001.json": dict(offset=40),
        "results/runs/board=3x7/_manifest.json": dict(offset=30),
        "results/tables/boards/3x7/orders.parquet": {},
        "results/tables/completion.csv": {},
    }
    for path, how in flips.items():
        flip(damaged / path, **how)
    rerun_and_compare(damaged, clean, {p: "bytes differ from what its writer recorded" for p in flips})


def test_truncated_deleted_and_swapped_files_are_remade(damaged, clean):
    part = damaged / RUNS.format("3x7", 0)
    os.truncate(part, 100)
    (damaged / RUNS.format("5x5", 1)).unlink()  # a part, deleted alone: its seal stays
    shutil.rmtree(damaged / "results/tables/boards/5x5")  # a board's tables and their seals
    swap(damaged / RUNS.format("5x5", 0), damaged / RUNS.format("5x5", 2))  # two parts, their seals left in place
    a, b = (damaged / f"results/rules/runs/study=corner/rule={r}/part-0000.parquet" for r in ("fixed", "random"))
    swap(a, b)  # two rules' parts swapped together with their seals
    swap(seal.seal_path(a), seal.seal_path(b))
    u, v = (damaged / f"results/queens/frontier/dominate-8-5/unit-{k:05d}.json" for k in (2, 3))
    swap(u, v)  # two units swapped together with their seals
    swap(seal.seal_path(u), seal.seal_path(v))
    rerun_and_compare(
        damaged,
        clean,
        {
            RUNS.format("3x7", 0): "100 bytes where its writer wrote",
            RUNS.format("5x5", 1): "missing, though its writer sealed it",
            RUNS.format("5x5", 0): "writer",
            RUNS.format("5x5", 2): "writer",
            a.relative_to(damaged).as_posix(): "its seal was written for rule=random/part-0000.parquet",
            u.relative_to(damaged).as_posix(): "its seal was written for dominate-8-5/unit-00003.json",
        },
    )


def test_damaged_or_missing_seals_are_remade(damaged, clean):
    """A seal that is damaged, or missing beside an output (written before seals, or by a job
    that never finished), does not vouch for its file: the file is remade."""
    seal.seal_path(damaged / "results/tables/orders.parquet").write_text("{not json")
    seal.seal_path(damaged / "results/rules/tables/completion.parquet").unlink()
    rerun_and_compare(
        damaged,
        clean,
        {
            "results/tables/orders.parquet": "its seal .orders.parquet.seal is damaged",
            "results/rules/tables/completion.parquet": "no seal",
        },
    )


def test_a_run_in_progress_is_left_alone(damaged):
    """While another snakemake run holds the folder (its lock files under .snakemake/locks),
    a second invocation (a dry run to watch progress, say) removes nothing: the files of
    the running jobs are in the middle of being written."""
    locks = damaged / ".snakemake" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.output.lock").write_text("results/tables/orders.parquet\n")
    part = damaged / RUNS.format("5x5", 0)
    flip(part)
    res = run(damaged, "--dry-run")
    assert res.returncode == 0, res.stderr[-2000:]
    assert "another snakemake run holds this folder" in res.stderr
    assert part.exists() and seal.seal_path(part).exists()
