"""The example notebooks draw what they mean without the workflow's results (the case
with results, from a finished tiny study: tests/test_tiny_study.py). What a figure draws
is checked, not only that the notebook runs: lines per axes, their x values, the ticks."""

import pytest
from notebook_run import axes_titled, run_notebook, visible_ticks

slow = pytest.mark.slow  # each notebook computes its own studies


def test_only_the_rules_notebook_reads_results(repo):
    """The other notebooks compute what they draw, so results/ cannot change their figures;
    the rules notebook is run both ways."""
    import json
    from pathlib import Path

    readers = []
    for path in sorted(Path(repo, "examples").glob("*.ipynb")):
        code = "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code")
        if '"results"' in code or "results/" in code:
            readers.append(path.stem)
    assert readers == ["03-rules-results"]


def check_rules_notebook(nb, every_start_rules, every_start_boards, corner_boards):
    """Notebook 03: the every-start figure draws one line per rule of that study only, over
    its boards in order (a second study mixed in makes a zig-zag or an extra line), with
    readable ticks; the corner figure draws the random rules over the corner study's boards."""
    every = axes_titled(nb, "every start")
    assert sorted(line["label"] for line in every["lines"]) == sorted(every_start_rules)
    for line in every["lines"]:
        assert line["x"] == every_start_boards, line
    assert 1 <= len(visible_ticks(every)) <= 12
    corner = axes_titled(nb, "random rules from (1, 1)")
    assert sorted(line["label"] for line in corner["lines"]) == ["random", "random-order"]
    for line in corner["lines"]:
        assert line["x"] == corner_boards, line


@slow
def test_rules_notebook_without_results(tmp_path):
    nb = run_notebook("03-rules-results", tmp_path)
    assert "studies computed here" in nb["stdout"]
    check_rules_notebook(nb, ["fixed", "roth", "random"], [5.0, 6.0, 7.0, 8.0], [float(n) for n in range(5, 41)])


@slow
def test_first_tour_notebook(tmp_path):
    nb = run_notebook("01-first-tour", tmp_path)
    ax = axes_titled(nb, "8 x 8 from (1, 1): how far each order gets")
    assert ax["xlabel"] == "squares visited"
    assert axes_titled(nb, "where the complete tours end")["xticks"] == [float(i) for i in range(8)]


@slow
def test_sweep_notebook(tmp_path):
    nb = run_notebook("02-sweep-analysis", tmp_path)
    for n in (5, 6, 7, 8):
        titled = [a for f in nb["figures"] for a in f["axes"] if a["title"] == f"{n} x {n}"]
        assert len(titled) == 3  # classes, ends, failing starts
        assert titled[1]["xticks"] == [float(i) for i in range(n)]


@slow
def test_queens_notebook_states_the_load_and_the_stability(tmp_path):
    nb = run_notebook("04-queens-speedup", tmp_path)
    (fig,) = [f for f in nb["figures"] if f["suptitle"]]
    assert "load average" in fig["suptitle"]
    assert "unstable" in fig["suptitle"] or "repeats agree" in fig["suptitle"]
    speedup = fig["axes"][0]
    searches = [line for line in speedup["lines"] if line["label"] != "ideal"]
    assert len(searches) == 2 and all(line["x"] == [1.0, 2.0] for line in searches)
    if "unstable" in fig["suptitle"]:
        assert any(line["label"].endswith("(unstable)") for line in searches)
