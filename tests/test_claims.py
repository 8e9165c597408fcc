"""The claims stage: each finding on a small range against an independent computation
(the plain-Python references, and the brute-force pair kernel for whole order sets),
the config's one-line errors, and the stage run by Snakemake."""

import json
import math
import random
from itertools import permutations

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
import yaml
from naive import outcome as naive_fixed
from naive_rules import run as naive_run
from workflow_run import snakemake

from knight.claims.findings import failure_share as failure_share_finding
from knight.claims.findings import failures_from_corner, queens_sequence, rate, tours_from_corner
from knight.claims.findings import first_failures as first_failures_finding
from knight.claims.scan import (
    Scan,
    failures_every_board,
    first_failures,
    longest_lasting,
    pick_orders,
    scan_boards,
    to_table,
)
from knight.claims.spec import Claim
from knight.core.board import Board
from knight.pipeline.config import ConfigError, load_files

ORDERS = ["".join(p) for p in permutations("12345678")]  # rank = index (lexicographic)


def claim(finding, tested_by="s", **kw):
    return Claim("c", "A source (1999)", "A claim.", tested_by, finding, **kw)


# --- first-failure scans -------------------------------------------------------------
@pytest.fixture(scope="module")
def roth_scan():
    boards = [Board(n, n) for n in range(5, 13)]
    return boards, first_failures("roth", boards, np.arange(40320))


def test_roth_scan_every_residual_order_equals_brute_force(roth_scan):
    """Roth over all 40,320 residual orders, N = 5..12: the first failure of every order
    equals the one found by walking every (board, order) pair with the brute-force kernel."""
    from knight.engine.walk import pair_outcomes

    boards, rows = roth_scan
    want_rows = np.zeros(40320, np.int64)
    want_visited = np.zeros(40320, np.int64)
    for board in reversed(boards):  # the smallest failing board is written last
        out = pair_outcomes(board, "roth", np.zeros(40320, np.int64), np.arange(40320))
        fail = ~out["complete"]
        want_rows[fail] = board.rows
        want_visited[fail] = out["visited"][fail]
    assert np.array_equal(rows["first_rows"], want_rows)
    assert np.array_equal(rows["visited"], want_visited)
    first_index = {n: i for i, n in enumerate(range(5, 13))}
    completed = [first_index[r] if r else len(boards) for r in want_rows]
    assert rows["boards"].tolist() == completed


def test_scan_by_brute_force_above_the_tree_limit_gives_the_same_rows(roth_scan):
    """Boards past the tree's reservation limit are walked by the pair kernel: same rows."""
    boards, rows = roth_scan
    ranks = np.arange(0, 40320, 7)
    brute = first_failures("roth", boards, ranks, tree_bytes=0)
    for name in ("first_rows", "first_cols", "visited", "boards"):
        assert np.array_equal(brute[name], rows[name][ranks]), name


def test_few_orders_are_walked_by_the_pair_kernel_with_the_same_rows(roth_scan, monkeypatch):
    """At most PAIR_RANKS orders left: walked one by one by the pair kernel, not the tree
    (faster for few orders); the rows are the tree's."""
    from knight.claims import scan
    from knight.engine import tree
    from knight.engine import walk as kernel

    boards, rows = roth_scan
    ranks = np.array([0, 1191, 5040, 20000, 33333, 40319])
    walked = {"tree": 0, "pairs": 0}
    real_search, real_pairs = tree.search, kernel.pair_outcomes
    monkeypatch.setattr(tree, "search", lambda *a, **k: walked.update(tree=walked["tree"] + 1) or real_search(*a, **k))
    monkeypatch.setattr(
        kernel, "pair_outcomes", lambda *a, **k: walked.update(pairs=walked["pairs"] + 1) or real_pairs(*a, **k)
    )
    few = first_failures("roth", boards, ranks)
    assert walked["tree"] == 0 and walked["pairs"] > 0
    monkeypatch.setattr(scan, "PAIR_RANKS", 0)
    by_tree = first_failures("roth", boards, ranks)
    assert walked["tree"] > 0
    for name in ("first_rows", "first_cols", "visited", "boards"):
        assert np.array_equal(few[name], rows[name][ranks]) and np.array_equal(by_tree[name], few[name]), name


def test_a_scan_keeps_no_table_per_board():
    """A scan to N = 2,000 holds all its boards at once: a table cached on each (the
    neighbour table, 32 bytes a square, and the degrees, 4) came to 96 GB and the
    scan's job was killed for memory. The kernels' layouts cache nothing on a board."""
    boards = [Board(n, n) for n in range(5, 40)]
    first_failures("roth", boards, np.arange(0, 40320, 101))
    failures_every_board("fixed", boards, [0, 5040])
    cached = [sorted(set(vars(b)) - {"rows", "cols"}) for b in boards]
    assert not any(cached), cached[:1]


def test_scan_of_a_board_whose_tree_reserves_address_space():
    """130 x 130: the tie tree's frames (300 MB of address space) come from a reservation
    that only the frames used back with memory; rows as the brute-force pair kernel's."""
    from knight.engine.tree import _reserve

    board, ranks = Board(130, 130), np.arange(0, 40320, 97)
    frames = _reserve(board.size, 17956 // 8 + 1)
    assert frames.nbytes >= 1 << 28 and not frames.flags.owndata  # a view of the mmap
    tree = first_failures("roth", [board], ranks)
    brute = first_failures("roth", [board], ranks, tree_bytes=0)
    for name in ("first_rows", "visited", "boards"):
        assert np.array_equal(tree[name], brute[name]), name


def test_roth_scan_sample_equals_naive(roth_scan):
    """A sample of residual orders walked by the plain-Python reference of the conventions."""
    _, rows = roth_scan
    for r in random.Random(5).sample(range(40320), 40):
        first = 0
        for n in range(5, 13):
            if not naive_run(n, n, 0, "roth", ORDERS[r])["complete"]:
                first = n
                break
        assert rows["first_rows"][r] == first, ORDERS[r]


@pytest.mark.parametrize("lo, hi, sample", [(5, 7, 60), (10, 14, 30)])
def test_rectangle_scan_equals_naive(lo, hi, sample):
    """Fixed orders over every R x C, lo <= R, C <= hi, in the scan's board order (squares,
    then rows): the first failing board of a sample of orders and the squares reached on
    it, by the naive walk (10..14: the issue's range for Squirrel and Cull's p. 115 claim)."""
    boards = scan_boards({"from": lo, "to": hi, "rectangles": True})
    if lo == 5:
        assert [b.name for b in boards] == ["5x5", "5x6", "6x5", "5x7", "7x5", "6x6", "6x7", "7x6", "7x7"]
    assert len(boards) == (hi - lo + 1) ** 2
    ranks = np.array(sorted(random.Random(11).sample(range(40320), sample)))
    rows = first_failures("fixed", boards, ranks)
    for i, r in enumerate(ranks):
        first = (0, 0, 0)
        for b in boards:
            visited, _, complete, _, _ = naive_fixed(b.rows, b.cols, 0, ORDERS[r])
            if not complete:
                first = (b.rows, b.cols, visited)
                break
        assert (rows["first_rows"][i], rows["first_cols"][i], rows["visited"][i]) == first, ORDERS[r]


def test_longest_lasting_orders_of_a_scan(roth_scan):
    """The orders that complete the most boards before they first fail (never failing
    first), ties by rank: counted here from the scan's arrays with numpy."""
    _, rows = roth_scan
    table = pl.from_arrow(to_table(rows))
    lasted = np.where(rows["first_rows"] == 0, 99, rows["boards"].astype(np.int64))
    want = np.lexsort((np.arange(40320), -lasted))[:50]
    assert longest_lasting(table, 50).tolist() == sorted(want.tolist())
    assert len(longest_lasting(table.head(3), 10)) == 3


def test_every_board_scan_equals_naive(roth_scan):
    """The longest-lasting residual orders of roth on every board 5..14: the failing
    boards and squares reached of each, by the plain-Python walk of the conventions."""
    _, rows = roth_scan
    ranks = longest_lasting(pl.from_arrow(to_table(rows)), 6)
    ranks = np.concatenate([ranks, [1191, 20000]])  # and two that fail early
    boards = [Board(n, n) for n in range(5, 15)]
    got = failures_every_board("roth", boards, ranks)
    assert got["order"].tolist() == sorted(ranks.tolist())
    for i, r in enumerate(got["order"]):
        want = [
            (n, n, run["visited"])
            for n in range(5, 15)
            if not (run := naive_run(n, n, 0, "roth", ORDERS[r]))["complete"]
        ]
        assert list(zip(got["failed_rows"][i], got["failed_cols"][i], got["failed_visited"][i])) == want, ORDERS[r]
        assert got["failures"][i] == len(want) and got["tested"][i] == 10
        assert (got["first_rows"][i], got["first_cols"][i]) == (want[0][:2] if want else (0, 0))
    brute = failures_every_board("roth", boards, ranks, tree_bytes=0)
    assert brute["failed_visited"] == got["failed_visited"]


def test_failure_share_finding():
    """Verdicts on orders whose failing boards the naive walk gives (test above): 0
    (12345678) fails on none of 5..14, 20000 on 7 only, 1191 (13685472) on 7 and 11."""
    boards = [Board(n, n) for n in range(5, 15)]
    table = pl.from_arrow(to_table(failures_every_board("roth", boards, [1191, 20000, 0])))
    assert dict(zip(table["order"], table["failures"])) == {0: 0, 1191: 2, 20000: 1}
    f = failure_share_finding(claim("failure_share", share=0.05), table, boards)
    assert f.verdict == "holds" and f.finding.startswith("1 of 3 orders fail on fewer than 5 % of the boards")
    assert f.evidence["order"].to_list() == [0, 20000, 1191] and f.evidence["failing"][0] == "none"
    f = failure_share_finding(claim("failure_share", share=0.15), table.filter(pl.col("order") != 0), boards)
    assert f.verdict == "holds" and "20000" not in f.finding and ORDERS[20000] in f.finding
    f = failure_share_finding(claim("failure_share", share=0.1), table.filter(pl.col("order") != 0), boards)
    assert f.verdict == "fails" and f.counterexample == f"{ORDERS[20000]} fails on 1 of 10 boards (10.00 %)"
    assert f.evidence["failing"].to_list() == ["7x7", "7x7, 11x11"]


def test_orders_picked_by_first_failure(roth_scan):
    """The orders of a scan that first fail on a given board, and an every-board scan of
    none of them (none first fails on 9 x 9): no walk, a finding that is not run."""
    boards, rows = roth_scan
    table = pl.from_arrow(to_table(rows))
    assert pick_orders(table, first_failure="11x11").tolist() == np.flatnonzero(rows["first_rows"] == 11).tolist()
    assert len(pick_orders(table, first_failure=9)) == 0
    none = failures_every_board("roth", boards, pick_orders(table, first_failure=9))
    assert none["steps"][0] == 0 and len(none["order"]) == 0
    f = failure_share_finding(claim("failure_share", share=0.01), pl.from_arrow(to_table(none)), boards)
    assert f.verdict == "not run"


def test_scan_of_another_scans_orders_needs_them():
    scan = Scan.from_config(
        {"name": "b", "rule": "roth", "boards": [5, 6], "orders": {"longest": 4, "of": "a"}, "slices": 2}
    )
    assert scan.params(1)["ranks"] == {"longest": 4, "of": "a", "slice": 1, "slices": 2}
    with pytest.raises(ValueError, match="its orders come from scan 'a'"):
        scan.slice_ranks(0)
    assert scan.slice_ranks(1, chosen=[9, 3, 7, 1]).tolist() == [7, 9]


def test_scan_slices_partition_the_orders():
    scan = Scan("s", "fixed", (Board(5, 5),), slices=7)
    parts = [scan.slice_ranks(k) for k in range(7)]
    assert np.array_equal(np.concatenate(parts), np.arange(40320))
    assert scan.params(0)["ranks"] == {"from": 0, "to": int(parts[0][-1])}
    with pytest.raises(ValueError, match="slice 7"):
        scan.slice_ranks(7)


def test_first_failures_finding(roth_scan):
    boards, rows = roth_scan
    table = pl.from_arrow(to_table(rows))
    # Counted directly from the scan's arrays.
    at7 = int((rows["first_rows"] == 7).sum())
    never = int((rows["first_rows"] == 0).sum())
    f = first_failures_finding(claim("first_failures", first_failure=7), table, boards)
    assert f.verdict == "holds" and f"{at7:,} first fail on 7x7" in f.finding
    assert f"{never:,} complete on every board tested" in f.finding
    f = first_failures_finding(claim("first_failures", first_failure=9), table, boards)
    assert f.verdict == "fails" and f.counterexample == "no order first fails on 9x9"
    f = first_failures_finding(claim("first_failures", first_failure=20), table, boards)
    assert f.verdict == "not run"
    f = first_failures_finding(claim("first_failures"), table, boards)  # every order fails?
    assert f.verdict == "fails" and f.counterexample.startswith("order ")
    survivor = f.counterexample.split()[1]
    assert rows["first_rows"][ORDERS.index(survivor)] == 0
    assert f.evidence.height == 40320


# --- findings from runs ----------------------------------------------------------------
def test_tours_from_corner_equals_naive_squirrel_cull():
    """Squirrel-Cull from (1, 1), m = 5..30: the stage's finding against the naive walks."""
    import knight

    runs = pl.concat([knight.rules.run(m, "squirrel-cull", progress=False) for m in range(5, 31)])
    want = {m: naive_run(m, m, 0, "squirrel-cull")["visited"] for m in range(5, 31)}
    f = tours_from_corner(claim("tours_from_corner", boards=tuple(range(5, 41))), runs)
    assert dict(zip(f.evidence["m"].to_list(), f.evidence["visited"].to_list())) == want
    failing = sorted(m for m, v in want.items() if v < m * m)
    if failing:
        assert f.verdict == "fails" and f.counterexample.startswith(f"m = {failing[0]}:")
    else:
        assert f.verdict == "holds on 5..30 (not run: 31..40)"
    assert f.tested == "5..30"


def _runs(table):
    """A runs frame from (m, visited, complete) rows from (1, 1)."""
    return pl.DataFrame(
        {
            "rule": ["fixed"] * len(table),
            "rows": [m for m, _, _ in table],
            "cols": [m for m, _, _ in table],
            "start": [0] * len(table),
            "visited": [v for _, v, _ in table],
            "complete": [c for _, _, c in table],
        }
    )


def test_failures_from_corner_verdicts():
    runs = _runs([(5, 25, True), (6, 30, False), (7, 49, True), (8, 60, False), (9, 81, True)])
    f = failures_from_corner(claim("failures_from_corner", boards=tuple(range(5, 10)), last_failure=7), runs)
    assert f.verdict == "fails" and f.counterexample == "m = 8: 60 of 64 squares"
    assert f.evidence["m"].to_list() == [6, 8]
    f = failures_from_corner(claim("failures_from_corner", boards=tuple(range(5, 10)), last_failure=8), runs)
    assert f.verdict == "holds" and "m = 6 (30/36), 8 (60/64)" in f.finding
    # Without last_failure the finding is the list itself: no verdict either way.
    f = failures_from_corner(claim("failures_from_corner", boards=tuple(range(5, 10))), runs)
    assert f.verdict == "listed" and f.counterexample is None and f.evidence["m"].to_list() == [6, 8]


def wilson(k, n, z=1.959963984540054):
    """The Wilson score interval, written out."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@pytest.mark.parametrize(
    "how,p",
    [("about", 0.75), ("about", 0.96), ("at_least", 0.98), ("at_least", 0.99), ("at_most", 0.9), ("at_most", 0.95)],
)
def test_rate_verdict_by_wilson_interval(how, p):
    runs = _runs([(8, 64, True)] * 96 + [(8, 50, False)] * 4)
    lo, hi = wilson(96, 100)
    inside = {"about": lo <= p <= hi, "at_least": hi >= p, "at_most": lo <= p}[how]
    f = rate(claim("rate", boards=(8,), rate=(how, p)), runs)
    assert f.verdict == ("holds" if inside else "fails")
    assert f.evidence["ci_low"][0] == pytest.approx(lo) and f.evidence["ci_high"][0] == pytest.approx(hi)


@pytest.mark.parametrize("rule", ["random", "pohl-random", "roth-random"])
def test_rate_of_random_rule_equals_naive_draws(rule):
    """Random ties, m = 5..7, fixed seed: completions counted by the naive walks."""
    import knight

    runs = pl.concat([knight.rules.run(m, rule, trials=30, seed=7, progress=False) for m in (5, 6, 7)])
    f = rate(claim("rate", boards=(5, 6, 7), rate=("at_least", 0.0)), runs)
    for m in (5, 6, 7):
        want = sum(naive_run(m, m, 0, rule, seed=7, trial=t)["complete"] for t in range(30))
        assert f.evidence.filter(pl.col("m") == m)["complete"][0] == want
    assert f.verdict == "holds"


def test_rate_most_allows_exceptions():
    runs = _runs([(m, 1, m != 9) for m in range(5, 15) for _ in range(50)])
    kw = dict(boards=tuple(range(5, 15)), rate=("at_least", 0.5))
    assert rate(claim("rate", **kw), runs).verdict == "fails"
    assert rate(claim("rate", most=0.9, **kw), runs).verdict == "holds"


def test_rate_lists_the_first_dozen_boards_outside_and_counts_the_rest():
    runs = _runs([(m, 1, False) for m in range(5, 45, 2) for _ in range(20)])  # 20 odd sides, all failing
    f = rate(claim("rate", boards=tuple(range(5, 45, 2)), rate=("at_least", 0.9)), runs)
    assert f.verdict == "fails" and f.evidence.height == 20
    assert "not on 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, ... (8 more in the evidence table)" in f.finding


# --- queens ------------------------------------------------------------------------------
def test_queens_sequences():
    counts = pl.DataFrame(
        [
            ("dominate", 4, 1, 0, 0),
            ("dominate", 4, 2, 12, 3),
            ("dominate", 5, 3, 186, 37),
            ("dominate", 16, 9, 2968, 371),
            ("place", 8, 8, 92, 12),
            ("place", 9, 9, 351, 46),
        ],
        schema={"problem": pl.String, "n": pl.Int32, "k": pl.Int32, "solutions": pl.Int64, "classes": pl.Int64},
        orient="row",
    )
    f = queens_sequence(claim("queens_sequence", tested_by="queens", sequence="A002564"), counts)
    assert f.verdict == "holds" and f.tested == "n = 4..5, 16"
    f = queens_sequence(claim("queens_sequence", tested_by="queens", sequence="A000170"), counts)
    assert f.verdict == "fails" and f.counterexample == "n = 9: published 352, computed 351"
    f = queens_sequence(claim("queens_sequence", tested_by="queens", sequence="A002563", boards=(16,)), counts)
    assert f.verdict == "fails" and f.counterexample.startswith("n = 16: published 43, computed 371")
    f = queens_sequence(claim("queens_sequence", tested_by="queens", sequence="A075458"), counts)
    # gamma(4) = 2 is established (1 queen was searched: none); gamma(5) is not (2 not searched).
    assert f.evidence.filter(pl.col("n") == 4)["computed"][0] == 2
    assert f.evidence.filter(pl.col("n") == 5)["computed"][0] is None
    assert f.verdict == "holds" and f.tested == "n = 4"


# --- the config ----------------------------------------------------------------------
BASE = {
    "sweep": {"boards": [5]},
    "rules": {"studies": [{"name": "sc", "rules": ["squirrel-cull"], "boards": [5]}]},
}
ENTRY = {"key": "k", "source": "S", "claim": "C", "tested_by": "sc", "finding": "tours_from_corner", "boards": [5]}
SCANS = [
    {"name": "first", "rule": "roth", "boards": [5, 6]},
    {"name": "every", "rule": "roth", "boards": [5, 6], "every_board": True, "orders": {"longest": 4, "of": "first"}},
]


@pytest.mark.parametrize(
    "change,message",
    [
        ({"tested_by": None}, "config key claims.entries[0]: {'key'"),
        ({"finding": "guess"}, "config key claims.entries[0].finding: 'guess'"),
        ({"boards": {"from": 9, "to": 5}}, "config key claims.entries[0].boards: {'from': 9, 'to': 5}: needs 1 <="),
        ({"boards": {"from": 5}}, "config key claims.entries[0].boards: {'from': 5}"),
        ({"sorce": "x"}, "config key claims.entries[0].sorce: unknown key"),
        ({"rule": "fixed"}, "config key claims.entries[0].rule: 'fixed': study 'sc' runs squirrel-cull"),
        ({"finding": "rate"}, "config key claims.entries[0].rate: claim 'k': finding rate needs rate"),
        ({"finding": "first_failures"}, "config key claims.entries[0].tested_by: 'sc': is a rules study"),
        ({"key": "Bad Key"}, "config key claims.entries[0].key: 'Bad Key'"),
        ({"finding": "failure_share"}, "config key claims.entries[0].share: claim 'k': finding failure_share needs"),
        (
            {"tested_by": "first", "finding": "failure_share", "share": 0.01},
            "config key claims.entries[0].tested_by: 'first': is a first-failure scan",
        ),
        (
            {"tested_by": "every", "finding": "first_failures"},
            "config key claims.entries[0].tested_by: 'every': is an every-board scan",
        ),
        ({"tested_by": "every", "finding": "failure_share", "share": 1.5}, "config key claims.entries[0].share: 1.5"),
    ],
)
def test_bad_claim_is_one_config_line(change, message):
    entry = {k: v for k, v in {**ENTRY, **change}.items() if v is not None}
    with pytest.raises(ConfigError) as err:
        from knight.pipeline.config import load

        load({**BASE, "claims": {"scans": SCANS, "entries": [entry]}})
    lines = str(err.value).splitlines()[1:]
    assert len(lines) == 1 and lines[0].strip().startswith(message), lines


@pytest.mark.parametrize(
    "first,change,message",
    [
        (
            {},
            {"orders": {"longest": 4, "of": "nowhere"}},
            "config key claims.scans[1].orders.of: 'nowhere': no scan",
        ),
        ({"every_board": True}, {}, "config key claims.scans[1].orders.of: 'first': not a first-failure scan"),
        ({}, {"orders": {"longest": 4, "of": "every"}}, "config key claims.scans[1].orders: 'every': a scan cannot"),
        ({}, {"orders": {"longest": 0, "of": "first"}}, "config key claims.scans[1].orders: {'longest': 0"),
        ({}, {"orders": {"longest": 2, "of": "first"}, "slices": 3}, "config key claims.scans[1].slices: 3: from 1"),
        ({}, {"every_board": "yes"}, "config key claims.scans[1].every_board: 'yes'"),
        ({}, {"orders": {"of": "first"}}, "config key claims.scans[1].orders: scan 'every': orders of 'first' need"),
        ({}, {"orders": {"of": "first", "first_failure": "4y4"}}, "config key claims.scans[1].orders: {'of': 'first'"),
        ({}, {"orders": {"of": "first", "first_failure": 7}, "slices": 2}, "config key claims.scans[1].slices: 2"),
    ],
)
def test_bad_scan_is_one_config_line(first, change, message):
    from knight.pipeline.config import load

    scans = [{**SCANS[0], **first}, {**SCANS[1], **change}]
    with pytest.raises(ConfigError) as err:
        load({**BASE, "claims": {"scans": scans, "entries": [ENTRY]}})
    lines = str(err.value).splitlines()[1:]
    assert len(lines) == 1 and lines[0].strip().startswith(message), lines


def test_unknown_study_is_not_an_error_and_claims_config_loads(repo):
    from knight.pipeline.config import load

    load({**BASE, "claims": {"entries": [{**ENTRY, "tested_by": "elsewhere"}]}})
    cfg = load_files([f"{repo}/config/claims.yaml"], default=f"{repo}/config/config.yaml")
    keys = [e["key"] for e in cfg["claims"]["entries"]]
    assert len(keys) == len(set(keys)) >= 20


# --- the stage, run by Snakemake -----------------------------------------------------
def entry(key, tested_by, finding, **kw):
    return {
        "key": key,
        "source": "A source (1999)",
        "claim": "A claim.",
        "tested_by": tested_by,
        "finding": finding,
        **kw,
    }


CONFIG = {
    "sweep": {"boards": [5]},
    "queens": {"frontier": [{"n": 6, "k": 3, "units": 2}], "sets": {"dominate": [[4, 1], [4, 2]], "place": [4, 5]}},
    "rules": {
        "settings": {"random": {"seed": 7, "trials": 30}},
        "studies": [
            {"name": "sc", "rules": ["squirrel-cull"], "boards": {"from": 5, "to": 20}},
            {"name": "rnd", "rules": ["random"], "boards": [7]},
            {
                "name": "one",
                "rules": ["fixed"],
                "boards": {"from": 5, "to": 20},
                "settings": {"fixed": {"order": "76812345"}},
            },
        ],
    },
    "claims": {
        "scans": [
            {"name": "roth-scan", "rule": "roth", "boards": {"from": 5, "to": 9}, "slices": 2},
            {
                "name": "roth-every",
                "rule": "roth",
                "boards": {"from": 5, "to": 13},
                "orders": {"longest": 5, "of": "roth-scan"},
                "every_board": True,
                "slices": 2,
            },
        ],
        "entries": [
            entry("sc", "sc", "tours_from_corner", boards={"from": 5, "to": 20}),
            entry("roth", "roth-scan", "first_failures", first_failure=7),
            entry("few", "roth-every", "failure_share", share=0.01),
            entry("r7", "rnd", "rate", boards=[7], rate={"about": 0.75}),
            entry("one", "one", "failures_from_corner", boards={"from": 5, "to": 20}, last_failure=20),
            entry("q", "queens", "queens_sequence", sequence="A002564"),
            entry("pohl", "pohl-random", "rate", boards=[5], rate={"at_least": 0.97}),
        ],
    },
}


@pytest.mark.slow
def test_claims_stage(repo, tmp_path):
    import knight

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(CONFIG))
    res = snakemake(tmp_path, "claims", configfile=cfg, repo=repo)
    assert res.returncode == 0, res.stderr[-3000:]
    out = tmp_path / "results" / "claims"
    table = pl.read_parquet(out / "claims.parquet")
    assert table["key"].to_list() == ["sc", "roth", "few", "r7", "one", "q", "pohl"]
    verdict = dict(zip(table["key"], table["verdict"]))
    assert verdict["pohl"] == "not run"
    assert verdict["q"] == "holds" and table.filter(pl.col("key") == "q")["tested"][0] == "n = 4, 6"
    assert table.filter(pl.col("key") == "q")["seconds"][0] > 0  # the counts' search time
    # Each finding equals the one computed here from the library, not from the stored tables.
    runs = knight.rules.run(7, "random", trials=30, seed=7, progress=False)
    want = rate(Claim.from_config(CONFIG["claims"]["entries"][3]), runs)
    assert verdict["r7"] == want.verdict
    assert table.filter(pl.col("key") == "r7")["finding"][0] == want.finding
    boards = [Board(n, n) for n in range(5, 10)]
    scan = pl.from_arrow(to_table(first_failures("roth", boards, np.arange(40320))))
    parts = sorted((tmp_path / "results/claims/scans/roth-scan").glob("part-*"))
    stored = pl.concat([pl.read_parquet(p) for p in parts])
    assert stored.equals(scan)
    assert verdict["roth"] == "holds"
    # The every-board scan of the 5 longest-lasting orders of that scan, from the library.
    every = failures_every_board("roth", [Board(n, n) for n in range(5, 14)], longest_lasting(scan, 5))
    parts = sorted((tmp_path / "results/claims/scans/roth-every").glob("part-*"))
    assert pl.concat([pl.read_parquet(p) for p in parts]).equals(pl.from_arrow(to_table(every)))
    want = failure_share_finding(
        Claim.from_config(CONFIG["claims"]["entries"][2]),
        pl.from_arrow(to_table(every)),
        [Board(n, n) for n in range(5, 14)],
    )
    assert verdict["few"] == want.verdict and table.filter(pl.col("key") == "few")["finding"][0] == want.finding
    row = json.loads((out / "claim" / "roth.json").read_text())
    assert row["seconds"] > 0 and row["command"].endswith("--configfile config/claims.yaml")
    assert pq.read_table(out / "claim" / "sc.parquet").num_rows == 16
    assert (out / "claims.md").read_text().count("\n## ") == 7
    assert (out / "claims.html").exists() and (out / "claims.csv").exists()
    res = snakemake(tmp_path, "claims", "--dry-run", configfile=cfg, repo=repo)
    assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr


@pytest.mark.parametrize("rule", ["fixed", "pohl", "roth", "corner"])
def test_scans_walk_one_order_of_each_mirror_pair(rule):
    """From (1, 1) of a square board an order and its mirror image (every move mirrored in
    the diagonal) reach the same number of squares: the brute-force pair kernel shows it
    order by order, so a scan walks one order of each pair."""
    from knight.claims.scan import mirror_halves
    from knight.core.orders import N_ORDERS
    from knight.core.symmetry import group
    from knight.engine.walk import pair_outcomes

    board = Board(9, 9)
    ranks = np.arange(N_ORDERS)
    images = group(board).order_images()[6]  # the transpose, which fixes (1, 1)
    direct = pair_outcomes(board, rule, np.zeros(N_ORDERS, np.int64), ranks)["visited"]
    assert np.array_equal(direct, direct[images])
    walk, index = mirror_halves(board, ranks)
    assert len(walk) == N_ORDERS // 2
    assert ((walk[index] == ranks) | (walk[index] == images)).all()
    assert mirror_halves(Board(9, 10), ranks) is None
