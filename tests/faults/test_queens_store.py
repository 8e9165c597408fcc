"""The queens frontier store verifies every unit it reads back (issue 16, point 2).

Each fault is the issue's repro on a finished 13x13 / 7 queens store of 8 units, then a
resume through the command line; the outcome is checked against the clean store's:
the published counts (288 sets, 41 classes: OEIS A002564, A002563) and the same
``classes.parquet``, with one warning line naming the damaged file, or a refusal.
"""

from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from workflow_run import snakemake as run_snakemake

from knight.cli import main
from knight.queens import dominate, units
from knight.queens.units import Keeping

N, K, UNITS = 13, 7, 8
SOLUTIONS, CLASSES = 288, 41  # A002564(13), A002563(13): not from the code under test
ARGS = ["queens", "dominate", str(N), str(K), "--tasks", str(UNITS)]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A finished store, made by the command line once: (folder, its classes table)."""
    folder = tmp_path_factory.mktemp("clean") / "store"
    assert main([*ARGS, "--store", str(folder)]) == 0
    assert len(list(folder.glob("unit-*.json"))) == UNITS
    return folder, pl.read_parquet(folder / "classes.parquet")


@pytest.fixture
def store(clean, tmp_path):
    """A copy of the clean store to damage."""
    folder = tmp_path / "store"
    shutil.copytree(clean[0], folder)
    return folder


def resume(store: Path, capsys, caplog, *extra) -> tuple[int, str, list[str]]:
    """``knight queens dominate 13 7 --tasks 8 --store STORE``: (exit status, stdout, warnings)."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="knight.queens"):
        code = main([*ARGS, "--store", str(store), *extra])
    out = capsys.readouterr().out
    return code, out, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def assert_clean_outcome(store, clean, code, out):
    assert code == 0
    assert f"{SOLUTIONS:,} solutions, {CLASSES:,} up to symmetry" in out
    assert pl.read_parquet(store / "classes.parquet").equals(clean[1])
    again = dominate(N, K, tasks=UNITS, store=Keeping(store, repair=False))  # every unit verifies now
    assert (again.resumed, again.solutions, again.classes) == (UNITS, SOLUTIONS, CLASSES)


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_a_clean_resume_reads_every_unit_back(store, clean, capsys, caplog):
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert warnings == []
    assert f"0 of {UNITS} unit(s) searched, {UNITS} read back from {store}" in out  # not a search time


def test_a_changed_count_is_searched_again(store, clean, capsys, caplog):
    # The issue: "solutions" of one unit from 8 to 80 resumed to 360 solutions, exit 0.
    unit = store / "unit-00001.json"
    edit(unit, lambda d: d["result"].update(solutions=d["result"]["solutions"] * 10))
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert len(warnings) == 1 and str(unit) in warnings[0] and "checksum" in warnings[0]
    assert f"1 of {UNITS} unit(s) searched, {UNITS - 1} read back" in out


def test_a_unit_copied_over_another_is_searched_again(store, clean, capsys, caplog):
    # The issue: one unit file copied over another resumed to 280 solutions, exit 0.
    shutil.copy(store / "unit-00002.json", store / "unit-00003.json")
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert len(warnings) == 1 and "unit-00003.json: holds unit 2, not unit 3" in warnings[0]


def test_a_changed_square_is_searched_again(store, clean, capsys, caplog):
    # The issue: one square of a stored representative changed; classes.parquet silently differed.
    unit = store / "unit-00005.json"
    edit(unit, lambda d: d["result"]["representatives"][0].__setitem__(3, d["result"]["representatives"][0][3] + 1))
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert len(warnings) == 1 and str(unit) in warnings[0]


def test_a_forged_unit_with_a_fresh_checksum_is_caught_by_its_content(store, clean, capsys, caplog):
    # Beyond the checksum: a representative that no longer covers the board, re-hashed.
    unit = store / "unit-00005.json"
    data = json.loads(unit.read_text())
    plan = units.make_plan(N, K, UNITS)
    result = data["result"]
    result["representatives"][0][-1] = (result["representatives"][0][-1] + 1) % (N * N)
    result["representatives"][0].sort()
    unit.write_text(json.dumps(units.unit_record(plan, 5, result, data["seconds"])))
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert len(warnings) == 1 and str(unit) in warnings[0] and "does not cover the board" in warnings[0]


def test_a_truncated_unit_is_named_and_searched_again(store, clean, capsys, caplog):
    # The issue: a truncated unit gave "Unterminated string starting at ..." without the file.
    unit = store / "unit-00004.json"
    unit.write_text(unit.read_text()[:100])
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert len(warnings) == 1 and f"{unit}: not a readable unit file" in warnings[0]


def test_a_leftover_temporary_file_is_removed(store, clean, capsys, caplog):
    leftover = store / ".unit-00006.json.12345-abcdef01.tmp"
    leftover.write_text('{"unit": 6, "resu')
    code, out, warnings = resume(store, capsys, caplog)
    assert_clean_outcome(store, clean, code, out)
    assert not leftover.exists() and not list(store.glob(".*.tmp"))
    assert len(warnings) == 1 and str(leftover) in warnings[0]


def test_units_of_another_instance_or_plan_are_refused(store, clean, capsys, tmp_path):
    # A unit of another search (12x12, 6 queens) copied in: refused, naming it, nothing written.
    other = tmp_path / "other"
    dominate(12, 6, tasks=UNITS, store=other)
    shutil.copy(other / "unit-00002.json", store / "unit-00002.json")
    before = (store / "classes.parquet").read_bytes()
    assert main([*ARGS, "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert f"{store / 'unit-00002.json'}: a unit of another search (dominate n=12 k=6" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert (store / "classes.parquet").read_bytes() == before
    # Another plan of the same instance (other units): refused at its plan.json.
    assert main([*ARGS[:-1], "16", "--store", str(other)]) == 2
    err = capsys.readouterr().err
    assert f"{other / 'plan.json'}: the store of another search (dominate n=12 k=6, {UNITS} units" in err
    # A unit number beyond the plan's units.
    shutil.copy(clean[0] / "unit-00001.json", store / "unit-00099.json")
    assert main([*ARGS, "--store", str(store)]) == 2
    assert "unit-00099.json: unit 99 of another plan" in capsys.readouterr().err


def test_a_merge_refuses_a_damaged_unit_instead_of_searching(store):
    # The workflow's merge job reads every unit back and must not search: it fails, naming the file.
    unit = store / "unit-00001.json"
    edit(unit, lambda d: d["result"].update(solutions=80))
    with pytest.raises(units.UnitError, match=r"unit-00001.json: its content does not match its checksum"):
        dominate(N, K, tasks=UNITS, store=Keeping(store, repair=False))
    assert unit.exists()  # left for the user (or the workflow's start-up check) to remove


def test_the_workflow_start_up_removes_what_does_not_verify(store):
    plan = units.make_plan(N, K, UNITS)
    edit(store / "unit-00001.json", lambda d: d["result"].update(solutions=80))
    shutil.copy(store / "unit-00002.json", store / "unit-00003.json")
    (store / ".unit-00004.json.1-ab.tmp").write_text("")
    lines = units.clean_store(store, plan)
    assert len(lines) == 3 and all(line.startswith("removing ") for line in lines)
    assert sorted(p.name for p in store.glob("unit-*.json")) == [f"unit-{i:05d}.json" for i in (0, 2, 4, 5, 6, 7)]
    assert units.clean_store(store, plan) == []  # what is left verifies
    other = units.make_plan(N, K, 4)  # `units` changed in the config: the old plan's files go
    assert len(units.clean_store(store, other)) == 1 + 6
    assert not list(store.glob("unit-*.json")) and not (store / "plan.json").exists()


def test_the_command_writes_no_store_unless_asked(tmp_path, monkeypatch, capsys):
    # The issue: `knight queens dominate 14 8` wrote queens-dominate-14-8/ into the current folder.
    monkeypatch.chdir(tmp_path)
    assert main(["queens", "dominate", "8", "5"]) == 0
    assert "4,860 solutions" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_damaged_unit_in_the_workflow_is_remade(tmp_path):
    """Through Snakemake: a damaged frontier unit is removed at start-up, remade by its job,
    and the merged classes equal a clean run's (never "Nothing to be done")."""
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("sweep: {boards: [5]}\nqueens: {frontier: [{n: 8, k: 5, units: 4}]}\n")
    target = "results/queens/frontier/dominate-8-5.parquet"
    assert run_snakemake(tmp_path, target, configfile=cfg, cores=1, timeout=600).returncode == 0
    clean = pl.read_parquet(tmp_path / target)
    assert (len(clean), int(clean["orbit"].sum())) == (638, 4860)  # A002563(8), A002564(8)
    unit = tmp_path / "results/queens/frontier/dominate-8-5/unit-00002.json"
    edit(unit, lambda d: d["result"].update(solutions=d["result"]["solutions"] + 1))
    res = run_snakemake(tmp_path, target, configfile=cfg, cores=1, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    # The start-up check compares every file with its seal first: the edit is named there.
    named = [line for line in res.stderr.splitlines() if str(unit.relative_to(tmp_path)) in line]
    assert any("its writer" in line for line in named), res.stderr[-3000:]  # differ / other size
    assert "(Rule: queens_unit)" in res.stdout + res.stderr and "(Rule: queens_frontier)" in res.stdout + res.stderr
    assert pl.read_parquet(tmp_path / target).equals(clean)


def test_a_store_the_workflow_owns_is_replaced_when_its_plan_is_another(tmp_path, caplog):
    """Issue 45, case 5: after an upgrade that changed the frontier plan, every queens_unit
    job failed with ForeignStoreError until the store was removed by hand. The workflow
    owns its store (``owned``): the old plan is named in one warning and replaced; the
    command line, given the same folder, still refuses it."""
    folder = tmp_path / "results/queens/frontier/dominate-8-5"
    dominate(8, 5, tasks=4, store=folder)
    manifest = json.loads((folder / "plan.json").read_text())
    (folder / "plan.json").write_text(json.dumps({**manifest, "version": units.PLAN_VERSION - 1}))  # an older release
    with pytest.raises(units.ForeignStoreError, match="plan.json: the store of another search"):
        dominate(8, 5, tasks=4, store=folder, only=[1])
    assert main(["queens", "dominate", "8", "5", "--tasks", "4", "--store", str(folder)]) == 2
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="knight.queens"):
        part = dominate(8, 5, tasks=4, store=Keeping(folder, owned=True), only=[1])
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"{folder / 'plan.json'}: the store of another search (dominate n=8 k=5, 4 units")
    assert f"of plan version {units.PLAN_VERSION - 1}" in warnings[0]
    assert "replaced (old files removed: 5)" in warnings[0]
    assert json.loads((folder / "plan.json").read_text()) == manifest
    assert sorted(p.name for p in folder.glob("unit-*")) == ["unit-00001.json"]  # the old units went
    assert not list(folder.glob(".unit-0000[023].json.seal"))  # with their seals
    # Every unit searched again in the replaced store: the published counts.
    whole = dominate(8, 5, tasks=4, store=Keeping(folder, owned=True))
    assert (whole.solutions, whole.classes, whole.resumed) == (4860, 638, 1)  # A002564(8), A002563(8)
    assert part.solutions < whole.solutions
