"""The documented Python API (docs/api.md): knight.tour / Tour, knight.sweep.run,
knight.rules.run, the aggregates, queens and exact entry points, checked against the plain
references in tests/naive*.py, the published counts and the command line."""

import doctest
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from io import BytesIO
from pathlib import Path

import naive
import naive_exact
import naive_rules
import numpy as np
import polars as pl
import pytest

import knight

# --- knight.tour and Tour --------------------------------------------------------------


def test_worked_example_of_the_conventions():
    t = knight.tour(8)
    assert (t.board.rows, t.board.cols, t.squares[0], t.rule, t.order) == (8, 8, (1, 1), "fixed", "12345678")
    assert str(t).startswith(naive.WORKED_EXAMPLE)
    assert str(t).splitlines()[8:] == [
        "board size = 8x8",
        "start square 1,1",
        "end square 2,7",
        "unvisited squares = 0",
        "path is open.",
    ]
    assert (t.visited, t.complete, t.closed, t.end, t.squares[-1]) == (64, True, False, 14, (2, 7))


@pytest.mark.parametrize(
    "board, start, order",
    [("8", (1, 1), "31245678"), ("6x8", "3,5", "87654321"), ((5), (2, 2), "16235478"), ("3x7", (2, 4), "12345678")],
)
def test_fixed_rule_against_the_plain_reference(board, start, order):
    t = knight.tour(board, start, order=order)
    rows, cols = t.board.rows, t.board.cols
    path, ties = naive.warnsdorff(rows, cols, (start_pair(start)[0] - 1, start_pair(start)[1] - 1), order)
    assert t.squares == [(r + 1, c + 1) for r, c in path]
    assert t.ties == ties and t.visited == len(path)
    assert t.complete == (len(path) == rows * cols)


def start_pair(start):
    return tuple(int(v) for v in start.split(",")) if isinstance(start, str) else start


@pytest.mark.parametrize("rule", naive_rules.RULES)
def test_every_rule_against_the_plain_reference(rule):
    board = 8 if rule == "squirrel-cull" else "7x9"
    start = (1, 1) if rule == "squirrel-cull" else (4, 2)
    rows, cols = (8, 8) if rule == "squirrel-cull" else (7, 9)
    s = (start[0] - 1) * cols + start[1] - 1
    for seed, trial in [(0, 0), (3, 2)]:
        t = knight.tour(board, start, rule=rule, order="21345678", seed=seed, trial=trial, retries=4)
        ref = naive_rules.run(rows, cols, s, rule, "21345678", seed, trial, 4)
        assert list(t.path) == ref["path"], (rule, seed, trial)
        assert t.rule == rule and t.ties == ref["ties"] and t.attempts == ref["attempts"]


def test_reference_outcomes_of_the_conventions():
    """docs/conventions.md, "Tie-break rules": 8x8 from (1, 1), seed 0, trial 0, retries 10."""
    expected = {
        "fixed": ((2, 7), 14, "12345678"),
        "pohl": ((3, 6), 6, "12345678"),
        "roth": ((6, 7), 4, "12345678"),
        "corner": ((6, 7), 4, "12345678"),
        "random": ((4, 5), 15, None),
        "random-order": ((6, 7), 10, "67185423"),
        "squirrel-cull": ((5, 8), 16, None),
        "pohl-random": ((4, 3), 6, None),
        "roth-random": ((6, 7), 4, None),
    }
    for rule, (end, ties, order) in expected.items():
        t = knight.tour(8, rule=rule, seed=0)
        assert (t.squares[-1], t.ties, t.order, t.complete, t.closed) == (end, ties, order, True, False), rule


def test_str_is_what_the_command_line_prints():
    for argv, kwargs in [([], {}), (["--rule", "pohl", "--start", "3,3"], dict(rule="pohl", start=(3, 3)))]:
        res = subprocess.run(
            [sys.executable, "-m", "knight.cli", "tour", "6x7", *argv], capture_output=True, text=True, timeout=120
        )
        assert res.returncode == 0, res.stderr
        assert res.stdout == str(knight.tour("6x7", **kwargs)) + "\n"
    res = subprocess.run(
        [sys.executable, "-m", "knight.cli", "tour", "8", "--json"], capture_output=True, text=True, timeout=120
    )
    assert json.loads(res.stdout) == knight.tour(8).to_json()


def test_tour_is_a_value():
    a, b = knight.tour(8), knight.tour(knight.Board(8, 8), "1,1")
    assert a == b and a != knight.tour(8, order="21345678")
    with pytest.raises(ValueError):
        a.path[0] = 5  # read-only
    assert "8x8 from (1, 1), order 12345678: open tour" in repr(a)


def test_drawings(tmp_path):
    from PIL import Image

    t = knight.tour(5, (3, 3))
    svg = t._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and "stuck after" in svg or "tour" in svg
    png = t._repr_png_()
    assert Image.open(BytesIO(png)).format == "PNG"
    t.save(tmp_path / "t.svg")
    t.save(tmp_path / "t.png", dpi=50)
    ET.parse(tmp_path / "t.svg")
    assert Image.open(tmp_path / "t.png").size[0] > 100


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: knight.tour("9y"), "board '9y' is not N or RxC"),
        (lambda: knight.tour(8, start=(9, 1)), "start: square (9, 1) is off the 8x8 board"),
        (lambda: knight.tour(8, start="a,b"), "start: square 'a,b' is not R,C"),
        (lambda: knight.tour(8, rule="warnsdorf"), "rule 'warnsdorf' is not one of fixed"),
        (lambda: knight.tour(8, order="11111111"), "order '11111111' is not a permutation"),
        (lambda: knight.tour(8, rule="random", seed=-1), "seed must be in 0..18446744073709551615, got -1"),
        (lambda: knight.tour(8, trial=1.5), "trial must be an integer, got 1.5"),
        (lambda: knight.tour(8, rule="random-order", retries=0), "retries must be in 1..65535, got 0"),
        (lambda: knight.sweep.run("2x5"), "board 2x5: both sides must be at least 3"),
        (lambda: knight.sweep.run(5, starts=[(1, 6)]), "starts: square (1, 6) is off the 5x5 board"),
        (lambda: knight.sweep.run(5, orders=["1234"]), "orders: order '1234' is not a permutation"),
        (lambda: knight.sweep.run(5, engine="fast"), "engine 'fast' is not one of brute, tree"),
        (lambda: knight.sweep.run(5, rule="random"), "rule 'random': a sweep over tie orders takes one of"),
        (lambda: knight.sweep.run(5, workers=0), "workers must be at least 1, got 0"),
        (lambda: knight.sweep.run(5, out=os.devnull), "output folder"),
        (lambda: knight.rules.run(8, "pohl", starts="everywhere"), "starts 'everywhere': give all, corner"),
        (lambda: knight.rules.run(8, "random", trials=0), "trials must be in 1..4294967296, got 0"),
        (lambda: knight.rules.run(8, "warnsdorf"), "rule 'warnsdorf' is not one of"),
        (lambda: knight.queens.dominate(5, 0), "k must be at least 1, got 0"),
        (lambda: knight.queens.place(0), "n must be in 1..32, got 0"),
        (lambda: knight.exact.backtrack(5, (6, 1)), "start: square (6, 1) is off the 5x5 board"),
        (lambda: knight.exact.backtrack(5, prune="all"), "prune 'all' is not one of none"),
        (lambda: knight.exact.construct(7), "7x7 has no closed knight's tour"),
    ],
)
def test_bad_arguments_name_the_argument_and_the_value(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert message in str(err.value) and "\n" not in str(err.value)


# --- knight.sweep.run and the sweep's aggregates -----------------------------------------

RUNS_COLUMNS = ["rows", "cols", "start", "order", "visited", "end", "complete", "closed", "ties"]


@pytest.fixture(scope="module")
def runs5():
    return knight.sweep.run(5)


def test_sweep_published_totals_and_columns(runs5):
    """docs/conventions.md: 5x5 has 376,320 complete runs of 1,008,000 and none closed."""
    assert isinstance(runs5, pl.DataFrame) and runs5.columns == RUNS_COLUMNS
    assert runs5.height == 25 * 40320
    assert (int(runs5["complete"].sum()), int(runs5["closed"].sum())) == (376320, 0)
    assert runs5.select("start", "order").is_duplicated().sum() == 0


def test_sweep_rows_against_the_plain_reference(runs5):
    rng = np.random.default_rng(17)
    for i in rng.choice(runs5.height, 200, replace=False).tolist():
        row = runs5.row(i, named=True)
        visited, end, complete, closed, ties = naive.outcome(5, 5, row["start"], naive.ORDER_STRINGS[row["order"]])
        assert (row["visited"], row["end"], row["complete"], row["closed"], row["ties"]) == (
            visited,
            end,
            complete,
            closed,
            ties,
        )


def test_sweep_selection_engines_and_rules():
    starts, orders = [(1, 1), "2,3", (4, 4)], ["12345678", "87654321", "31245678"]
    tree = knight.sweep.run("5x6", starts=starts, orders=orders, rule="pohl")
    brute = knight.sweep.run("5x6", starts=starts, orders=orders, rule="pohl", engine="brute")
    assert tree.equals(brute) and tree.height == 9
    assert tree["start"].unique().sort().to_list() == [0, 8, 21]
    for row in tree.iter_rows(named=True):
        order = naive.ORDER_STRINGS[row["order"]]
        ref = naive_rules.run(5, 6, row["start"], "pohl", order)
        assert (row["visited"], row["end"], row["ties"]) == (len(ref["path"]), ref["path"][-1], ref["ties"])


def test_sweep_writes_the_dataset_when_asked(tmp_path):
    from knight.core.dataset import scan

    runs = knight.sweep.run(5, orders=["12345678", "21345678"], out=tmp_path / "runs")
    stored = scan(tmp_path / "runs").collect()
    assert stored.drop("board").equals(runs) and set(stored["board"]) == {"5x5"}


@pytest.mark.slow
def test_sweep_on_two_workers_gives_the_same_rows(runs5):
    assert knight.sweep.run(5, workers=2).equals(runs5)


def test_sweep_tables_take_a_dataframe_or_a_lazyframe(runs5):
    from knight.sweep import tables

    lazy = runs5.lazy()
    for name, fn in [("completion", tables.completion), ("starts", tables.starts), ("ends", tables.ends)]:
        eager, deferred = fn(runs5), fn(lazy)
        assert isinstance(eager, pl.DataFrame) and isinstance(deferred, pl.LazyFrame), name
        assert eager.equals(deferred.collect()), name
    assert tables.completion(runs5).select("runs", "complete", "closed").row(0) == (1008000, 376320, 0)
    orders = tables.orders(runs5)
    assert isinstance(orders, pl.DataFrame) and orders.height == 40320
    classes = tables.classes(orders)
    assert classes.height == 5040 and classes["agree"].all()
    # Plain counting over the rows, beside the aggregate.
    per_start = {}
    for start, complete in zip(runs5["start"].to_list(), runs5["complete"].to_list()):
        per_start[start] = per_start.get(start, 0) + complete
    assert dict(zip(*tables.starts(runs5).select("start", "complete"))) == per_start
    ends = tables.ends(runs5)
    assert ends.height == 25 and int(ends["complete"].sum()) == 376320


def test_tables_need_one_board_or_a_board_argument():
    from knight.sweep import tables

    two = pl.concat([knight.sweep.run(5, orders=["12345678"]), knight.sweep.run(6, orders=["12345678"])])
    with pytest.raises(ValueError, match="5x5, 6x6"):
        tables.orders(two)
    assert tables.orders(two.filter(pl.col("rows") == 6), knight.Board(6, 6)).height == 1
    assert tables.completion(two).height == 2


# --- knight.rules.run and the rules' aggregates -------------------------------------------


def test_rules_run_against_the_plain_reference():
    runs = knight.rules.run(6, "random", starts="all", trials=3, seed=5)
    assert runs.columns == [
        "rule",
        "rows",
        "cols",
        "start",
        "order",
        "trial",
        "attempts",
        "visited",
        "end",
        "complete",
        "closed",
    ]
    assert runs.height == 36 * 3
    for row in runs.iter_rows(named=True):
        ref = naive_rules.run(6, 6, row["start"], "random", seed=5, trial=row["trial"])
        assert (row["visited"], row["end"], row["order"]) == (len(ref["path"]), ref["path"][-1], None)
    done = knight.rules.tables.completion(runs)
    assert isinstance(done, pl.DataFrame) and "study" not in done.columns
    assert done.select("runs", "complete").row(0) == (108, int(runs["complete"].sum()))
    assert 0 <= done["ci_low"][0] <= done["completion_rate"][0] <= done["ci_high"][0] <= 1


def test_rules_run_corner_and_orders():
    corner = knight.rules.run(8, "roth")
    assert corner.select("start", "order", "visited", "complete").row(0) == (0, 0, 64, True)
    over = knight.rules.run(6, "corner", starts=[(1, 1), (2, 3)], orders="all")
    assert over.height == 2 * 40320
    sweep = knight.sweep.run(6, starts=[(1, 1), (2, 3)], rule="corner").drop("ties")
    assert over.select(sweep.columns).equals(sweep)
    lazy = knight.rules.tables.table57(over.lazy())
    assert isinstance(lazy, pl.LazyFrame) and lazy.collect()["starts"][0] == over.height


# --- queens and exact ------------------------------------------------------------------


def test_queens_published_counts():
    """OEIS A002564(5) = 186 dominating sets of 3 queens; A000170(8) = 92, A002562(8) = 12."""
    dom = knight.queens.dominate(5, 3, keep=True)
    assert (dom.solutions, dom.sets.shape) == (186, (186, 3))
    place = knight.queens.place(8)
    assert (place.solutions, place.classes) == (92, 12)


def test_exact_tours_are_checked_tours():
    t = knight.exact.backtrack(5, (1, 1))
    assert t.solver == "backtrack" and t.rule is None and t.ties is None
    assert naive_exact.tour_errors(5, 5, [(r - 1, c - 1) for r, c in t.squares], closed=False) == []
    assert knight.exact.backtrack(5, (1, 2)) is None  # minority colour of an odd board
    assert knight.exact.backtrack("3x4", (1, 1), closed=True) is None
    c = knight.exact.construct(10, start=(3, 4))
    assert c.closed and c.squares[0] == (3, 4) and c.solver == "construct"
    assert naive_exact.tour_errors(10, 10, [(r - 1, c - 1) for r, c in c.squares], closed=True) == []
    with pytest.raises(knight.exact.SearchLimit, match="raise limit"):
        knight.exact.backtrack(8, (1, 1), ordering="fixed", prune="none", limit=100)


# --- documentation as tests, the package's shape ------------------------------------------

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _doctest_modules() -> list[str]:
    """Every module of the package with an example in a docstring (``>>>``)."""
    root = Path(REPO) / "knight"
    found = []
    for path in sorted(root.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
            found.append(name.removesuffix(".__init__"))
    return found


DOCTEST_MODULES = _doctest_modules()


def run_page(path):
    """Run the ``python`` code blocks of a Markdown page as one doctest; (failed, attempted)."""
    text = open(path, encoding="utf-8").read()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, os.path.basename(path), path, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_docs_api_page_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    failed, attempted = run_page(os.path.join(REPO, "docs", "api.md"))
    assert attempted > 40 and failed == 0


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_docstring_examples_run(name):
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_import_is_light_and_names_are_lazy():
    probe = (
        "import sys, knight; heavy = ('numba', 'polars', 'dask', 'matplotlib', 'numpy');"
        "light = {m for m in heavy if m in sys.modules};"
        "t = knight.tour(8); after = {m for m in ('polars', 'dask', 'matplotlib') if m in sys.modules};"
        "print(sorted(light), sorted(after), knight.sweep.run.__module__, knight.queens.place.__module__)"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert res.stdout.split("] ")[0] + "]" == "[]", res.stdout + res.stderr
    assert res.stdout.strip().endswith("[] knight.sweep.driver knight.queens.search")
    assert {"tour", "Tour", "Board", "sweep", "rules", "queens", "exact"} <= set(dir(knight))
    with pytest.raises(AttributeError):
        knight.no_such_name  # noqa: B018


@pytest.mark.slow
def test_a_plain_install_works_from_any_folder(tmp_path):
    """``pip install .`` (not editable) into a fresh virtual environment: ``import knight``
    and the ``knight`` command work from another folder, reading the schemas and data
    shipped in the package. The fresh environment borrows this one's dependencies
    (``PYTHONPATH``), so nothing but the package itself is installed."""
    import site
    import venv

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py, knight_cmd = env_dir / "bin" / "python", env_dir / "bin" / "knight"
    res = subprocess.run(
        [py, "-m", "pip", "install", "-q", "--no-deps", REPO], capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 0, res.stderr[-2000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(site.getsitepackages())}
    probe = (
        "import knight, knight.pipeline.config as c;"
        "print(knight.__file__); print(c.SCHEMA); print(c.schema_errors({'sweep': {'boards': [5]}}));"
        "print(knight.exact.construct(8).closed)"
    )
    res = subprocess.run([py, "-c", probe], capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    where, schema, errors, closed = res.stdout.splitlines()
    assert where.startswith(str(env_dir)) and schema.startswith(str(env_dir)), res.stdout
    assert (errors, closed) == ("[]", "True")
    res = subprocess.run([knight_cmd, "tour", "8"], capture_output=True, text=True, cwd=elsewhere, env=env, timeout=300)
    assert res.returncode == 0 and res.stdout.startswith(naive.WORKED_EXAMPLE), res.stderr[-2000:]
