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


def rerun_and_compare(study, clean, named):
    """Run the same command again: it must succeed, name every damaged file, end equal to
    the clean run, and the run after it must have nothing to do."""
    res = run(study)
    assert res.returncode == 0, res.stderr[-3000:]
    for path, why in named.items():
        assert any(path in line and why in line for line in res.stderr.splitlines()), (path, why, res.stderr[-3000:])
    assert NOTHING not in res.stderr + res.stdout
    assert_same_results(study, clean)
    again = run(study, "--dry-run")
    assert again.returncode == 0 and NOTHING in again.stderr + again.stdout, again.stderr[-2000:]
    return res


def swap(x, y):
    tmp = x.with_name(x.name + ".swap")
    x.rename(tmp)
    y.rename(x)
    tmp.rename(y)


def test_flipped_bytes_are_remade(study, clean):
    """The issue's repro (a bit of a runs part flipped at byte 585, its time kept), and the same
    in a rules part, a queens frontier unit, a manifest and a per-board and a combined table."""
    damaged = {
        RUNS.format("5x5", 0): dict(offset=585, keep_mtime=True),
        "results/rules/runs/study=corner/rule=fixed/part-0000.parquet": dict(keep_mtime=True),
        "results/queens/frontier/dominate-8-5/unit-00001.json": dict(offset=40),
        "results/runs/board=3x7/_manifest.json": dict(offset=30),
        "results/tables/boards/3x7/orders.parquet": {},
        "results/tables/completion.csv": {},
    }
    for path, how in damaged.items():
        flip(study / path, **how)
    rerun_and_compare(study, clean, {p: "bytes differ from what its writer recorded" for p in damaged})


def test_truncated_deleted_and_swapped_files_are_remade(study, clean):
    part = study / RUNS.format("3x7", 0)
    os.truncate(part, 100)
    (study / RUNS.format("5x5", 1)).unlink()  # a part, deleted alone: its seal stays
    shutil.rmtree(study / "results/tables/boards/5x5")  # a board's tables and their seals
    swap(study / RUNS.format("5x5", 0), study / RUNS.format("5x5", 2))  # two parts, their seals left in place
    a, b = (study / f"results/rules/runs/study=corner/rule={r}/part-0000.parquet" for r in ("fixed", "random"))
    swap(a, b)  # two rules' parts swapped together with their seals
    swap(seal.seal_path(a), seal.seal_path(b))
    u, v = (study / f"results/queens/frontier/dominate-8-5/unit-{k:05d}.json" for k in (2, 3))
    swap(u, v)  # two units swapped together with their seals
    swap(seal.seal_path(u), seal.seal_path(v))
    rerun_and_compare(
        study,
        clean,
        {
            RUNS.format("3x7", 0): "100 bytes where its writer wrote",
            RUNS.format("5x5", 1): "missing, though its writer sealed it",
            RUNS.format("5x5", 0): "writer",
            RUNS.format("5x5", 2): "writer",
            a.relative_to(study).as_posix(): "its seal was written for rule=random/part-0000.parquet",
            u.relative_to(study).as_posix(): "its seal was written for dominate-8-5/unit-00003.json",
        },
    )


def test_damaged_or_missing_seals_are_remade(study, clean):
    """A seal that is damaged, or missing beside an output (written before seals, or by a job
    that never finished), does not vouch for its file: the file is remade."""
    seal.seal_path(study / "results/tables/orders.parquet").write_text("{not json")
    seal.seal_path(study / "results/rules/tables/completion.parquet").unlink()
    rerun_and_compare(
        study,
        clean,
        {
            "results/tables/orders.parquet": "its seal .orders.parquet.seal is damaged",
            "results/rules/tables/completion.parquet": "no seal",
        },
    )


def test_a_run_in_progress_is_left_alone(study):
    """While another snakemake run holds the folder (its lock files under .snakemake/locks),
    a second invocation (a dry run to watch progress, say) removes nothing: the files of
    the running jobs are in the middle of being written."""
    locks = study / ".snakemake" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.output.lock").write_text("results/tables/orders.parquet\n")
    part = study / RUNS.format("5x5", 0)
    flip(part)
    res = run(study, "--dry-run")
    assert res.returncode == 0, res.stderr[-2000:]
    assert "another snakemake run holds this folder" in res.stderr
    assert part.exists() and seal.seal_path(part).exists()
