"""Queens at the frontier: the sets file and its verification without searching, and the
class search's units checked one by one against an independent search."""

from __future__ import annotations

import doctest
import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import independent_queens as ind
import naive_queens as naive

from knight.cli import main
from knight.queens import orbits, units, verify

# Published counts (OEIS A075458, A002564, A002563), copied here, not from the code under test.
GAMMA = {8: 5, 9: 5, 10: 5, 11: 5, 12: 6, 13: 7, 14: 8, 15: 9, 16: 9}
SETS = {8: 4860, 9: 114, 10: 8, 11: 2, 12: 8, 13: 288, 14: 4632, 15: 205832, 16: 2968}
#: Units of dominate 20 11 (8192 units) checked against the independent search in the slow
#: tier (benchmarks/bench_queens.py --units-of 20:11 --check checks as many as asked).
DRAWN_20 = 1
CLASSES = {8: 638, 9: 21, 10: 1, 11: 1, 12: 1, 13: 41, 14: 588, 15: 25872}


def test_docstring_examples_run():
    result = doctest.testmod(verify, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def make_sets(tmp_path, n):
    path = tmp_path / f"sets-{n}.csv"
    assert main(["queens", "dominate", str(n), str(GAMMA[n]), "--tasks", "8", "--sets", str(path)]) == 0
    return path


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12, 13])
def test_engine_sets_verify(tmp_path, capsys, n):
    path = make_sets(tmp_path, n)
    capsys.readouterr()
    assert main(["queens", "verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{SETS[n]:,} distinct sets of {GAMMA[n]} queens dominating {n}x{n}" in out
    assert f"{CLASSES[n]:,} whole symmetry classes" in out
    got = verify.verify_file(path)
    assert len(got.sets) == SETS[n] and len(got.classes) == CLASSES[n]
    assert sum(size for _, size in got.classes) == SETS[n]
    # The classes agree with the plain reference's orbits.
    assert len(got.classes) == naive.class_count(n, [tuple(s) for s in got.sets.tolist()])


def test_file_format_is_one_row_per_set_of_one_based_cells(tmp_path):
    path = tmp_path / "s.csv"
    verify.write_sets(path, 6, [[0, 16, 26]])
    assert path.read_text() == "n,r1,c1,r2,c2,r3,c3\n6,1,1,3,5,5,3\n"


def refuse(tmp_path, capsys, text, *extra):
    """Write ``text`` as a sets file, run verify on it: (exit status, stderr lines)."""
    path = tmp_path / "bad.csv"
    path.write_text(text)
    capsys.readouterr()
    code = main(["queens", "verify", str(path), *extra])
    err = capsys.readouterr().err.strip().splitlines()
    return code, err


@pytest.fixture(scope="module")
def sets13(tmp_path_factory):
    return make_sets(tmp_path_factory.mktemp("s13"), 13).read_text().splitlines()


def test_faults_are_refused_with_one_line_naming_the_row(tmp_path, capsys, sets13):
    header, rows = sets13[0], sets13[1:]
    cases = {
        "one set removed": ([header, *rows[:10], *rows[11:]], "not a union of whole classes"),
        "a duplicate": ([header, *rows, rows[5]], f"line {len(rows) + 2}: the same set as line 7"),
        "not dominating": (
            [header, *rows[:3], "13," + ",".join(["1,1"] + [f"{i},{i}" for i in range(2, 8)]), *rows[3:]],
            "line 5: (1,1) (2,2)",
        ),
        "a row of fewer queens": (
            [header, *rows[:2], ",".join(rows[2].split(",")[:-2]), *rows[3:]],
            "line 4: 6 queens",
        ),
        "a square twice": (
            [header, *rows[:1], rows[1].rsplit(",", 2)[0] + "," + ",".join(rows[1].split(",")[1:3]), *rows[2:]],
            "line 3: a square holds two queens",
        ),
        "off the board": ([header, "13," + ",".join(["14,1"] + rows[0].split(",")[3:])], "line 2: a queen off"),
    }
    for label, (lines, want) in cases.items():
        code, err = refuse(tmp_path, capsys, "\n".join(lines) + "\n")
        assert code == 1, label
        assert len(err) == 1 and want in err[0] and "bad.csv: line" in err[0], (label, err)


def test_wrong_number_of_queens_for_gamma(tmp_path, capsys):
    # 4 queens on the main diagonal of 5x5 cover it, but gamma(5) = 3: refused.
    text = "n,r1,c1,r2,c2,r3,c3,r4,c4\n5,1,1,2,2,4,4,5,5\n"
    code, err = refuse(tmp_path, capsys, text)
    assert code == 1 and len(err) == 1 and "line 2: 4 queens, not gamma(5) = 3" in err[0]
    # With --k the size is the one asked for; this one set is then not a whole class.
    code, err = refuse(tmp_path, capsys, text, "--k", "4")
    assert code == 1 and "not a union of whole classes" in err[0]


def test_verify_reports_class_sizes(tmp_path, capsys):
    path = tmp_path / "s.csv"
    want = naive.dominating_sets(5, 3)
    verify.write_sets(path, 5, want)
    capsys.readouterr()
    assert main(["queens", "verify", str(path), "--classes"]) == 0
    out = capsys.readouterr().out.splitlines()
    classes = [line for line in out if line.startswith("class ")]
    assert len(classes) == naive.class_count(5, want) == 37
    assert sum(int(line.split(": ")[1].split()[0]) for line in classes) == len(want) == 186


def test_unreadable_file_is_an_error(tmp_path, capsys):
    code, err = refuse(tmp_path, capsys, "")
    assert code == 1 and "empty" in err[0]
    assert main(["queens", "verify", str(tmp_path / "none.csv")]) == 1


# --- the independent search ---------------------------------------------------------------
@pytest.mark.parametrize("n,k", [(4, 2), (5, 3), (6, 3), (7, 4), (5, 4)])
def test_independent_search_matches_the_plain_reference(n, k):
    got = ind.completions(n, k, [], [])
    assert got == naive.dominating_sets(n, k)
    assert len(ind.representatives(n, got)) == naive.class_count(n, got)


def test_independent_bound_takes_the_largest_values():
    # The r largest of a multiset by its histogram, against sorting; zeros pad a short one.
    rng = np.random.default_rng(46)
    for _ in range(200):
        values = rng.integers(0, 30, size=rng.integers(0, 12))
        r = int(rng.integers(1, 6))
        top = sorted(values.tolist(), reverse=True)[:r] + [0] * r
        assert ind._largest(np.bincount(values, minlength=31), r) == (sum(top[:r]), top[r - 1])


@pytest.mark.parametrize("n", [5, 8, 9, 12, 13, 19, 20])
def test_second_squares_match_their_definition(n):
    table = orbits.second_squares(n)
    want = ind.second_squares(n)
    assert {a: int(u) for a, u in enumerate(table) if u >= 0} == want


def check_unit(n, k, chosen, forbidden, cover, second):
    """One unit's representatives and orbit sizes, the engine's against the independent
    search's: the latter's ``(set, orbit size)`` pairs."""
    result = units.solve_unit(n, k, chosen, forbidden)
    found = []
    for j in range(len(chosen)):
        found += ind.completions(n, k, chosen[j], forbidden[j], cover)
    reps = ind.representatives(n, found, second)
    engine = sorted((tuple(r), o) for r, o in zip(result["representatives"], result["orbits"]))
    assert engine == reps
    return reps


def check_every_unit(n, k, tasks):
    """Each unit's representatives and orbit sizes: the engine's against the independent search's."""
    plan = units.make_plan(n, k, tasks)
    cover, second = ind.cover_table(n), ind.second_squares(n)
    total_sets = total_classes = 0
    for chosen, forbidden in plan.batches:
        reps = check_unit(n, k, chosen, forbidden, cover, second)
        total_sets += sum(o for _, o in reps)
        total_classes += len(reps)
    return total_sets, total_classes


def test_every_unit_agrees_with_the_independent_search_13():
    assert check_every_unit(13, 7, 8) == (SETS[13], CLASSES[13])


@pytest.mark.slow
def test_every_unit_agrees_with_the_independent_search_14():
    assert check_every_unit(14, 8, 16) == (SETS[14], CLASSES[14])


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("KNIGHT_QUEENS_LONG") != "1",
    reason="about 16 CPU-minutes: set KNIGHT_QUEENS_LONG=1",
)
def test_every_unit_agrees_with_the_independent_search_16():
    sets, classes = check_every_unit(16, 9, 64)
    assert sets == SETS[16] and classes == 371


@pytest.mark.slow
def test_drawn_units_of_20_agree_with_the_independent_search():
    # The first units of the fixed random draw that benchmarks/bench_queens.py --units-of
    # 20:11 --tasks 8192 --check makes (seed 20); that command checks as many as asked.
    plan = units.make_plan(20, 11, 8192)
    cover, second = ind.cover_table(20), ind.second_squares(20)
    for i in np.random.default_rng(20).permutation(plan.units)[:DRAWN_20]:
        check_unit(20, 11, *plan.batches[i], cover, second)


def test_frontier_config_describes_dominate_20():
    import yaml

    config = yaml.safe_load((Path(__file__).parents[1] / "config" / "frontier.yaml").read_text())
    searches = {(s["n"], s["k"]): s["units"] for s in config["queens"]["frontier"]}
    assert searches[(20, 11)] >= 1024 and (19, 10) in searches


def test_sets_need_the_whole_search(tmp_path, capsys):
    code = main(["queens", "dominate", "6", "3", "--store", str(tmp_path / "s"), "--unit", "0", "--sets", "x.csv"])
    assert code == 2
    assert "--sets" in capsys.readouterr().err


def test_independent_counts_sets_not_only_classes():
    # Below the root every set is a completion: all 4,860 sets of 5 queens on 8x8.
    assert len(ind.completions(8, 5, [], np.zeros(1, np.uint64))) == SETS[8]
