"""The committed records of A002564(20) (data/a002564/n20/), checked without the engine.

Each record is read as plain JSON and checked here from the definitions: its SHA-256,
its plan and versions against the folder's plan.json, and every set it stands for (the
8 images of each class representative) has 11 distinct squares of the 20x20 board and
covers every square; the images of a representative are as many as its stated orbit;
no set appears twice across all records; the sets are closed under the 8 symmetries.
Once every unit is recorded, the counts must equal those docs/queens.md states (its
line ``a(20) = **N** sets in **C** classes``), and the sets file
(data/a002564/a002564-20.csv), once committed, must hold exactly these sets.

With no record committed yet, the same reader is checked on a synthetic record (a unit
of dominate 13 7 written by the store) and on damaged copies of it.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path

import pytest
from naive_queens import image, symmetries  # the plain reference, no engine code

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "data" / "a002564" / "n20"
SETS_FILE = REPO / "data" / "a002564" / "a002564-20.csv"
N, K, UNITS = 20, 11, 8192  # gamma(20) = 11 (OEIS A075458); the plan of docs/queens.md
STATED = re.compile(r"a\(20\) = \*\*([\d,]+)\*\* sets in \*\*([\d,]+)\*\* classes")
UNIT_NAME = re.compile(r"^unit-(\d{5})\.json$")


def dominates(n: int, squares) -> bool:
    """Every square shares a row, a column or a diagonal with a queen (or holds one)."""
    queens = [(s // n, s % n) for s in squares]
    rows = {r for r, _ in queens}
    cols = {c for _, c in queens}
    diffs = {r - c for r, c in queens}
    sums = {r + c for r, c in queens}
    return all(r in rows or c in cols or r - c in diffs or r + c in sums for r in range(n) for c in range(n))


def read_record(path: Path, plan: dict, unit: int) -> tuple[list[tuple[int, ...]], int]:
    """``(every set the record stands for, its classes)`` after checking the record; an
    AssertionError names what is wrong."""
    n, k = plan["n"], plan["k"]
    data = json.loads(path.read_text())
    body = {key: value for key, value in data.items() if key != "sha256"}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert data.get("sha256") == digest, f"{path}: checksum"
    assert (data["problem"], data["n"], data["k"], data["units"]) == ("dominate", n, k, plan["units"]), path
    assert data["unit"] == unit, f"{path}: holds unit {data['unit']}"
    assert data["plan"] == plan["fingerprint"], f"{path}: plan {data['plan']}"
    assert data["sets_version"] == plan["sets_version"], f"{path}: sets version {data['sets_version']}"
    assert isinstance(data["nodes_version"], int), path
    result = data["result"]
    assert all(isinstance(result[key], int) and result[key] >= 0 for key in ("solutions", "classes", "nodes")), path
    assert isinstance(result["cpu"], (int, float)) and isinstance(data["seconds"], (int, float)), path
    reps, orbits = result["representatives"], result["orbits"]
    assert len(reps) == len(orbits) == result["classes"], f"{path}: classes"
    sets = []
    for rep, orbit in zip(reps, orbits):
        assert len(rep) == k and len(set(rep)) == k, f"{path}: {rep} is not {k} distinct squares"
        assert all(isinstance(s, int) and 0 <= s < n * n for s in rep), f"{path}: {rep} leaves the board"
        assert dominates(n, rep), f"{path}: {rep} does not cover the board"
        images = {image(n, g, rep) for g in symmetries(n)}
        assert len(images) == orbit, f"{path}: {rep} has {len(images)} images, not {orbit}"
        sets += sorted(images)
    assert len(sets) == result["solutions"], f"{path}: {len(sets)} sets, not {result['solutions']}"
    return sets, len(reps)


def check_sets(n: int, sets: list[tuple[int, ...]]) -> None:
    """No set twice; every image of every set among them."""
    assert len(set(sets)) == len(sets), "a set appears twice"
    found = set(sets)
    for s in sets:
        for g in symmetries(n):
            assert image(n, g, s) in found, f"{s}: an image is missing"


def stated_counts() -> tuple[int, int] | None:
    m = STATED.search((REPO / "docs" / "queens.md").read_text())
    return None if m is None else (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """A store holding unit 1 of dominate 13 7 in 8 units, written by the engine: (folder, plan)."""
    from knight.queens import dominate

    folder = tmp_path_factory.mktemp("synthetic") / "n13"
    dominate(13, 7, tasks=8, store=folder, only=[1])
    return folder, json.loads((folder / "plan.json").read_text())


def test_the_reader_accepts_a_record_the_store_writes(synthetic):
    folder, plan = synthetic
    sets, classes = read_record(folder / "unit-00001.json", plan, 1)
    assert classes > 0 and len(sets) >= classes
    check_sets(13, sets)


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _first_class(reps=None, orbit=None):
    def change(d):
        if reps is not None:
            d["result"]["representatives"][0] = reps
        if orbit is not None:
            d["result"]["orbits"][0] = orbit

    return change


@pytest.mark.parametrize(
    "damage,message",
    [
        (_first_class(reps=[0, 1, 2, 3, 4, 5, 169]), "leaves the board"),
        (_first_class(reps=[0, 1, 2, 3, 4, 5, 6]), "does not cover the board"),
        (_first_class(orbit=3), "images, not 3"),
        (_set("sets_version", 99), "sets version 99"),
        (_set("unit", 2), "holds unit 2"),
    ],
    ids=["off the board", "not covering", "orbit size", "sets version", "another unit"],
)
def test_the_reader_refuses_a_damaged_record(synthetic, tmp_path, damage, message):
    folder, plan = synthetic
    data = json.loads((folder / "unit-00001.json").read_text())
    damage(data)
    body = {key: value for key, value in data.items() if key != "sha256"}
    data["sha256"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    path = tmp_path / "unit-00001.json"
    path.write_text(json.dumps(data))
    with pytest.raises(AssertionError, match=re.escape(message)):
        read_record(path, plan, 1)


def test_the_reader_finds_a_set_twice(synthetic):
    folder, plan = synthetic
    sets, _ = read_record(folder / "unit-00001.json", plan, 1)
    with pytest.raises(AssertionError, match="twice"):
        check_sets(13, sets + sets[:1])


def check_folder(folder: Path, n: int, k: int, units: int, stated, sets_file: Path) -> tuple[int, int, int]:
    """Check a folder of records (module docstring): ``(units recorded, sets, classes)``.
    ``stated``: the counts the docs state, or None; compared once every unit is recorded,
    as the sets file is when it exists."""
    plan = json.loads((folder / "plan.json").read_text())
    assert (plan["problem"], plan["n"], plan["k"], plan["units"]) == ("dominate", n, k, units)
    paths = {int(m.group(1)): p for p in folder.iterdir() if (m := UNIT_NAME.match(p.name))}
    assert all(0 <= i < units for i in paths)
    sets, classes = [], 0
    for i, path in sorted(paths.items()):
        found, count = read_record(path, plan, i)
        sets += found
        classes += count
    check_sets(n, sets)
    if len(paths) < units:
        assert stated is None, f"the docs state the count with only {len(paths)} of {units} units recorded"
        assert not sets_file.exists(), f"{sets_file} with only {len(paths)} of {units} units recorded"
        return len(paths), len(sets), classes
    assert stated is not None, "every unit is recorded: state the count on docs/queens.md"
    assert (len(sets), classes) == stated
    if sets_file.exists():
        with sets_file.open() as fh:
            rows = list(csv.reader(fh))[1:]
        in_file = [tuple(sorted((int(r[1 + 2 * j]) - 1) * n + int(r[2 + 2 * j]) - 1 for j in range(k))) for r in rows]
        assert all(int(r[0]) == n for r in rows)
        assert sorted(in_file) == sorted(sets)
    return len(paths), len(sets), classes


def test_a_whole_folder_of_records_is_checked(tmp_path):
    # Every unit of dominate 13 7 in 8 units, and its sets file: 288 sets, 41 classes
    # (OEIS A002564(13), A002563(13)).
    from knight.cli import main

    folder, sets_file = tmp_path / "n13", tmp_path / "sets.csv"
    assert (
        main(["queens", "dominate", "13", "7", "--tasks", "8", "--store", str(folder), "--sets", str(sets_file)]) == 0
    )
    assert check_folder(folder, 13, 7, 8, (288, 41), sets_file) == (8, 288, 41)
    with pytest.raises(AssertionError, match="state the count"):
        check_folder(folder, 13, 7, 8, None, sets_file)
    with pytest.raises(AssertionError):
        check_folder(folder, 13, 7, 8, (289, 41), sets_file)
    (folder / "unit-00003.json").unlink()
    with pytest.raises(AssertionError, match="only 7 of 8 units"):
        check_folder(folder, 13, 7, 8, None, sets_file)


def test_the_committed_records():
    done, sets, _ = check_folder(FOLDER, N, K, UNITS, stated_counts(), SETS_FILE)
    if done < UNITS:
        pytest.skip(f"{done} of {UNITS} units recorded ({sets} sets so far): no count to compare yet")


INDEPENDENT_LOG = REPO / "data" / "a002564" / "n20-independent.jsonl"
DRAWN = 64  # units of n = 20 the independent search has checked (docs/queens.md)


def test_the_independent_search_agrees_on_the_drawn_units():
    """The log of tests/independent_queens.py on n = 20: one line per unit of the fixed
    draw (numpy's default_rng(20) permutation of the plan's units, its first DRAWN), each
    agreeing with the engine; where the unit is also recorded, the record's counts are
    the independent search's."""
    import numpy as np

    lines = [json.loads(line) for line in INDEPENDENT_LOG.read_text().splitlines()]
    units = [line["unit"] for line in lines]
    drawn = np.random.default_rng(20).permutation(UNITS)[:DRAWN]
    assert sorted(units) == sorted(int(u) for u in drawn), "the log is not the first draw positions"
    assert all((line["n"], line["k"], line["units"]) == (N, K, UNITS) for line in lines)
    for line in lines:
        ours = (line["solutions"], line["classes"])
        theirs = (line["independent_solutions"], line["independent_classes"])
        assert line["agree"] and ours == theirs, line
        record = FOLDER / f"unit-{line['unit']:05d}.json"
        if record.exists():
            result = json.loads(record.read_text())["result"]
            assert (result["solutions"], result["classes"]) == theirs, record.name
    assert f"{DRAWN} randomly drawn units of dominate 20 11" in (REPO / "docs" / "queens.md").read_text()
