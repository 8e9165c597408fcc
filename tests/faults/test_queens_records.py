"""Committed records of a frontier search (issue 46, section 2), on 13x13 / 7 queens in 8
units: each finished unit is written as it finishes, a rerun reads the records back
instead of searching, a record of another plan or sets version is refused in one line,
one searched under another nodes version (a faster search) is kept, a damaged one is
searched again, a run stopped at its deadline keeps what finished and merges nothing,
and the workflow's unit job copies a verified record instead of searching.

Counts are the published ones (OEIS A002564(13) = 288, A002563(13) = 41), not the code's.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
from pathlib import Path

import pytest

from knight.cli import main
from knight.pipeline.config import ConfigError, load
from knight.queens import dominate, units
from knight.queens.units import Keeping

N, K, UNITS = 13, 7, 8
SOLUTIONS, CLASSES = 288, 41
ARGS = ["queens", "dominate", str(N), str(K), "--tasks", str(UNITS)]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A finished folder of records, made by the command line once (never modified)."""
    folder = tmp_path_factory.mktemp("records") / "n13"
    assert main([*ARGS, "--store", str(folder)]) == 0
    return folder


@pytest.fixture
def copy(records, tmp_path):
    folder = tmp_path / "n13"
    shutil.copytree(records, folder)
    return folder


def run(capsys, caplog, *extra) -> tuple[int, str, str, list[str]]:
    """The command with ``extra``: (exit status, stdout, stderr, warnings)."""
    caplog.clear()
    capsys.readouterr()
    with caplog.at_level(logging.WARNING, logger="knight.queens"):
        code = main([*ARGS, *extra])
    out = capsys.readouterr()
    return code, out.out, out.err, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def no_search(monkeypatch):
    """Make any search of a unit of this instance fail the test (the command's warm-up
    searches a tiny board first)."""
    search = units.solve_unit

    def refuse(n, *args):
        if n == N:
            raise AssertionError("a unit was searched")
        return search(n, *args)

    monkeypatch.setattr(units, "solve_unit", refuse)


def test_a_record_holds_what_the_issue_asks_for(records):
    plan = json.loads((records / "plan.json").read_text())
    files = sorted(records.glob("unit-*.json"))
    assert [p.name for p in files] == [f"unit-{i:05d}.json" for i in range(UNITS)]
    sets = classes = 0
    for i, path in enumerate(files):
        data = json.loads(path.read_text())
        body = {key: value for key, value in data.items() if key != "sha256"}
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        assert data["sha256"] == digest
        assert (data["unit"], data["n"], data["k"], data["units"]) == (i, N, K, UNITS)
        assert data["plan"] == plan["fingerprint"] and data["sets_version"] == plan["sets_version"]
        assert isinstance(data["nodes_version"], int) and data["nodes_version"] >= 1
        result = data["result"]
        assert result["nodes"] > 0 and result["cpu"] >= 0 and data["seconds"] >= 0
        assert all(len(rep) == K for rep in result["representatives"])
        assert len(result["orbits"]) == len(result["representatives"]) == result["classes"]
        sets += sum(result["orbits"])
        classes += result["classes"]
    assert (sets, classes) == (SOLUTIONS, CLASSES)


def test_a_rerun_reads_every_record_back_and_searches_none(copy, capsys, caplog, monkeypatch):
    no_search(monkeypatch)
    code, out, err, warnings = run(capsys, caplog, "--store", str(copy))
    assert code == 0 and warnings == []
    assert f"{SOLUTIONS:,} solutions, {CLASSES:,} up to symmetry" in out
    assert f"0 of {UNITS} unit(s) searched, {UNITS} read back" in out
    assert f"{UNITS} of {UNITS} unit(s) done, 0 left" in err  # the progress line


def test_records_of_a_faster_search_are_kept(copy, capsys, caplog, monkeypatch):
    # A new nodes version (the pruning changed, not the sets): every record still counts.
    monkeypatch.setattr(units, "NODES_VERSION", units.NODES_VERSION + 1)
    no_search(monkeypatch)
    code, out, _, warnings = run(capsys, caplog, "--store", str(copy))
    assert code == 0 and warnings == [] and f"{UNITS} read back" in out


def test_records_of_another_sets_version_are_refused(copy, records, capsys, caplog, monkeypatch, tmp_path):
    before = sorted(p.name for p in copy.iterdir())
    monkeypatch.setattr(units, "SETS_VERSION", units.SETS_VERSION + 1)
    code, _, err, _ = run(capsys, caplog, "--store", str(copy))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{copy / 'plan.json'}: the store of another search" in err and "sets version 1" in err
    assert sorted(p.name for p in copy.iterdir()) == before  # nothing written, nothing removed
    # One unit of the other sets version among records of this one: refused, naming it.
    other = tmp_path / "other"
    dominate(N, K, tasks=UNITS, store=other, only=[3])
    monkeypatch.setattr(units, "SETS_VERSION", units.SETS_VERSION - 1)
    shutil.copy(other / "unit-00003.json", copy / "unit-00003.json")
    code, _, err, _ = run(capsys, caplog, "--store", str(copy))
    assert code == 2 and err.count("\n") == 1
    assert f"{copy / 'unit-00003.json'}: a unit of another search" in err and "sets version 2" in err


def test_records_of_another_plan_are_refused(copy, capsys, caplog):
    code, _, err, _ = run(capsys, caplog, "--store", str(copy), "--tasks", "16")
    assert code == 2 and err.count("\n") == 1
    assert f"{copy / 'plan.json'}: the store of another search (dominate n={N} k={K}, {UNITS} units" in err


def test_a_damaged_record_is_searched_again(copy, capsys, caplog):
    unit = copy / "unit-00002.json"
    data = json.loads(unit.read_text())
    data["result"]["nodes"] += 1
    unit.write_text(json.dumps(data))
    code, out, _, warnings = run(capsys, caplog, "--store", str(copy))
    assert code == 0 and f"{SOLUTIONS:,} solutions" in out
    assert len(warnings) == 1 and str(unit) in warnings[0] and "checksum" in warnings[0]
    assert f"1 of {UNITS} unit(s) searched, {UNITS - 1} read back" in out


def test_a_run_stopped_at_its_deadline_keeps_what_finished_and_merges_nothing(tmp_path, capsys, caplog):
    store = tmp_path / "store"
    dominate(N, K, tasks=UNITS, store=store, only=[0, 1, 2])
    with pytest.raises(units.Stopped) as stop:
        dominate(N, K, tasks=UNITS, store=store, stop_at=time.time(), keep=True)
    assert (stop.value.done, stop.value.left) == (3, UNITS - 3) and stop.value.cpu > 0
    assert len(list(store.glob("unit-*.json"))) == 3
    # The command: exit status 3, one line saying what is done and left; no sets, no classes.
    sets = tmp_path / "sets.csv"
    code, out, err, _ = run(capsys, caplog, "--store", str(store), "--stop-after", "0.001", "--sets", str(sets))
    assert code == 3 and out == ""
    assert f"stopped after --stop-after 0.001 s: 3 unit(s) done, {UNITS - 3} left" in err.splitlines()[-1]
    assert not sets.exists() and not (store / "classes.parquet").exists()
    code, out, _, _ = run(capsys, caplog, "--store", str(store), "--sets", str(sets))
    assert code == 0 and f"{UNITS - 3} of {UNITS} unit(s) searched, 3 read back" in out and sets.exists()


@pytest.mark.parametrize("extra", [[], ["--store", "s", "--stop-after", "0"]])
def test_stop_after_needs_a_store_and_a_positive_time(extra, capsys, caplog):
    if not extra:
        extra = ["--stop-after", "60"]
    code, _, err, _ = run(capsys, caplog, *extra)
    assert code == 2 and "--stop-after" in err and err.count("\n") == 1


def test_the_unit_job_copies_a_verified_record(records, tmp_path, monkeypatch, caplog):
    # What workflow/scripts/queens_unit.py does for a unit with a record: copy it, search nothing.
    store = tmp_path / "results"
    no_search(monkeypatch)
    got = dominate(N, K, tasks=UNITS, store=Keeping(store, records=records), only=[5])
    assert got.resumed == 1
    assert json.loads((store / "unit-00005.json").read_text()) == json.loads((records / "unit-00005.json").read_text())


def test_the_unit_job_searches_past_a_damaged_record_and_leaves_it(records, tmp_path, caplog):
    folder = tmp_path / "records"
    shutil.copytree(records, folder)
    record = folder / "unit-00005.json"
    record.write_text(record.read_text()[:50])
    store = tmp_path / "results"
    with caplog.at_level(logging.WARNING, logger="knight.queens"):
        got = dominate(N, K, tasks=UNITS, store=Keeping(store, records=folder), only=[5])
    assert got.resumed == 0 and (store / "unit-00005.json").exists()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and str(record) in warnings[0]
    assert len(record.read_text()) == 50  # a committed file is not the job's to remove


def test_the_unit_job_refuses_records_of_another_plan(records, tmp_path):
    with pytest.raises(units.ForeignStoreError, match="plan.json: the store of another search"):
        dominate(N, K, tasks=16, store=Keeping(tmp_path / "results", records=records), only=[5])


def test_the_plan_gives_a_unit_job_its_record_as_input(records, tmp_path):
    from knight.pipeline.plan import Plan

    def record_of(folder):
        search = {"n": N, "k": K, "units": UNITS, "records": str(folder)}
        config = load({"sweep": {"boards": [5]}, "queens": {"frontier": [search]}})
        return Plan(config).frontier_record(f"dominate-{N}-{K}", "00003")

    assert record_of(records) == [str(records / "unit-00003.json")]
    (tmp_path / "none").mkdir()
    assert record_of(tmp_path / "none") == []  # no record: the job searches
    assert record_of(tmp_path / "absent") == []  # no folder yet: the same


def test_records_must_be_a_folder(tmp_path):
    path = tmp_path / "file"
    path.write_text("")
    with pytest.raises(ConfigError, match=r"frontier\[0\]\.records: .*file: not a folder"):
        load({"sweep": {"boards": [5]}, "queens": {"frontier": [{"n": N, "k": K, "records": str(path)}]}})


def test_a_killed_run_loses_only_the_units_in_flight(tmp_path):
    """Units are written one by one as they finish, each atomically: a store holds only
    whole, verified units at any moment (a killed writer leaves at most a temporary file)."""
    written = []
    store = tmp_path / "store"

    class Killed(Exception):
        pass

    def report(done, total, cpu):
        written.append(sorted(p.name for p in store.glob("unit-*.json")))
        if done == 3:
            raise Killed

    with pytest.raises(Killed):
        dominate(N, K, tasks=UNITS, store=store, report=report)
    assert [len(w) for w in written] == [0, 1, 2, 3]
    again = dominate(N, K, tasks=UNITS, store=store)
    assert (again.resumed, again.solutions, again.classes) == (3, SOLUTIONS, CLASSES)


@pytest.mark.slow
def test_a_run_killed_by_sigkill_resumes_from_its_finished_units(tmp_path):
    # dominate 14 8 in 48 units (4,632 sets, 588 classes: OEIS A002564(14), A002563(14)),
    # killed with SIGKILL once a few units are written, then run again to the end.
    import os
    import signal
    import subprocess
    import sys

    store = tmp_path / "store"
    cmd = [sys.executable, "-m", "knight.cli", "queens", "dominate", "14", "8", "--tasks", "48", "--store", str(store)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(list(store.glob("unit-*.json"))) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = len(list(store.glob("unit-*.json")))
    assert 3 <= kept < 48, kept
    got = dominate(14, 8, tasks=48, store=Keeping(store, repair=False))  # every kept unit verifies
    assert (got.resumed, got.solutions, got.classes) == (kept, 4632, 588)


@pytest.mark.slow
def test_the_workflow_copies_the_committed_records(tmp_path):
    """Through Snakemake: a frontier search with ``records`` copies each recorded unit and
    searches the one left out; the merged classes are the published ones."""
    import sys

    import polars as pl

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from workflow_run import snakemake as run_snakemake

    records = tmp_path / "records"
    assert main(["queens", "dominate", "8", "5", "--tasks", "4", "--store", str(records)]) == 0
    (records / "unit-00002.json").unlink()
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(f"sweep: {{boards: [5]}}\nqueens: {{frontier: [{{n: 8, k: 5, units: 4, records: {records}}}]}}\n")
    target = "results/queens/frontier/dominate-8-5.parquet"
    res = run_snakemake(tmp_path, target, configfile=cfg, cores=1, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    classes = pl.read_parquet(tmp_path / target)
    assert (len(classes), int(classes["orbit"].sum())) == (638, 4860)  # A002563(8), A002564(8)
    logs = tmp_path / "results/logs/queens/dominate-8-5"
    copied = [i for i in range(4) if "copied from its record" in (logs / f"unit-{i:05d}.log").read_text()]
    assert copied == [0, 1, 3]
    for i in copied:
        unit = f"unit-{i:05d}.json"
        made = tmp_path / "results/queens/frontier/dominate-8-5" / unit
        assert json.loads(made.read_text()) == json.loads((records / unit).read_text())
