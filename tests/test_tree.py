"""The tie-tree engine against the brute-force engine and the plain rule references.

Brute force (``knight.engine.brute.brute_orbit`` / ``knight.engine.walk.run_batch``) walks every
(start, order) pair and knows nothing of trees or symmetry: it is the independent
check for the ``fixed`` rule. For ``pohl``, ``roth`` and ``corner`` the reference is
``naive_rules.run`` (plain Python, one run at a time). Expectations are never derived
from ``knight.engine.tree`` itself (the tree only chooses which orders to sample).
"""

from __future__ import annotations

import naive_rules
import numba as nb
import numpy as np
import pytest

from knight.core.board import Board, parse_board
from knight.core.orders import N_ORDERS, all_orders
from knight.core.symmetry import group
from knight.engine.brute import brute_orbit
from knight.engine.layout import BLOCKED, Outcomes, padded
from knight.engine.rows import orbit_rows
from knight.engine.step import LEVEL, enter, neighbours
from knight.engine.tiebreak import FIXED
from knight.engine.tree import search, tree_orbit
from knight.engine.walk import Rule, Schedule, board_cells, run_batch
from knight.sweep.chunks import iter_chunks
from knight.sweep.spec import SweepSpec

COLUMNS = ("start", "order", "visited", "end", "complete", "closed", "ties")
ALL = np.arange(N_ORDERS, dtype=np.int64)


def assert_rows_equal(tree, brute, label=""):
    for name in COLUMNS:
        assert tree[name].dtype == brute[name].dtype, (label, name, tree[name].dtype, brute[name].dtype)
        if not np.array_equal(tree[name], brute[name]):
            bad = np.flatnonzero(tree[name] != brute[name])
            raise AssertionError(
                f"{label}: column {name} differs in {len(bad)} rows, first at row {bad[0]}: "
                f"start {brute['start'][bad[0]]}, order {brute['order'][bad[0]]}, "
                f"tree {tree[name][bad[0]]} vs brute {brute[name][bad[0]]}"
            )
    assert tree["steps"].shape == (1,) and tree["steps"].dtype == np.int64


# Full sweeps: every start orbit x every order, tree == brute row for row.
@pytest.mark.parametrize("name", ["5", "6", "7", "8", "3x7", "4x5", "5x6", "6x8"])
def test_full_sweep_matches_brute(name):
    board = parse_board(name)
    spec = SweepSpec(board)
    tree_steps = brute_steps = 0
    for orbit in spec.orbits():
        tree = tree_orbit(board, orbit, spec.ranks)
        brute = brute_orbit(board, orbit, spec.ranks)
        assert_rows_equal(tree, brute, f"{name} orbit {orbit.tolist()}")
        tree_steps += int(tree["steps"][0])
        brute_steps += int(brute["steps"][0])
    assert tree_steps < brute_steps


@pytest.mark.slow
@pytest.mark.parametrize("name", ["9", "10"])
def test_full_sweep_matches_brute_9_10(name):
    """Every orbit of 9x9 and 10x10, every order (about 11 s of brute force)."""
    test_full_sweep_matches_brute(name)


def test_totals_match_conventions():
    """Published brute-force totals (docs/conventions.md), from the tree engine."""
    for n, complete, closed in ((5, 376_320, 0), (6, 1_431_808, 182_448)):
        board = Board(n, n)
        rows = [tree_orbit(board, orbit, ALL) for orbit in group(board).start_orbits()]
        assert sum(len(r["start"]) for r in rows) == n * n * N_ORDERS
        assert sum(int(r["complete"].sum()) for r in rows) == complete
        assert sum(int(r["closed"].sum()) for r in rows) == closed


# Larger boards, every side from 11 to 20: random starts (partial orbits) and random orders.
@pytest.mark.parametrize(
    "name, n_starts, n_orders, seed",
    [
        ("11", 3, 300, 1),
        ("12", 4, 300, 2),
        ("16", 3, 200, 3),
        ("7x13", 3, 300, 4),
        ("20", 2, 100, 5),
        ("13", 2, 100, 6),
        ("14", 2, 100, 7),
        ("15", 2, 100, 8),
        ("17", 2, 80, 9),
        ("18", 2, 80, 10),
        ("19", 2, 80, 11),
    ],
)
def test_sampled_starts_and_orders(name, n_starts, n_orders, seed):
    board = parse_board(name)
    rng = np.random.default_rng(seed)
    grp = group(board)
    ranks = np.unique(rng.choice(N_ORDERS, n_orders, replace=False)).astype(np.int64)
    for s in rng.choice(board.size, n_starts, replace=False):
        orbit = np.unique(grp.squares[:, s])
        starts = np.unique(rng.choice(orbit, min(2, len(orbit)), replace=False)).astype(np.int64)
        brute = brute_orbit(board, starts, ranks)
        for full in (None, True, False):  # auto (slice mode here), constraint mode, slice mode
            tree = tree_orbit(board, starts, ranks, full=full)
            assert_rows_equal(tree, brute, f"{name} starts {starts.tolist()} full={full}")


def test_slice_mode_all_orders_matches_brute():
    """Slice mode (wanted ranks carried down the tree) on every order, 6x6 and 5x6."""
    for name in ("6", "5x6"):
        board = parse_board(name)
        for orbit in group(board).start_orbits():
            brute = brute_orbit(board, orbit, ALL)
            assert_rows_equal(tree_orbit(board, orbit, ALL, full=False), brute, f"{name} slice")


def test_one_order_per_start():
    board = Board(8, 8)
    for s, r in ((0, 0), (63, 40319), (9, 12345), (27, 777)):
        starts, ranks = np.array([s]), np.array([r])
        assert_rows_equal(tree_orbit(board, starts, ranks), brute_orbit(board, starts, ranks), f"8 {s} {r}")


# Starts fixed by a symmetry, and single non-representative members of an orbit.
@pytest.mark.parametrize(
    "name, human",
    [
        ("5", [(3, 3)]),  # centre of an odd board: fixed by the whole group
        ("9", [(5, 5)]),
        ("7", [(2, 2), (6, 6)]),  # diagonal squares: fixed by a reflection
        ("8", [(7, 2)]),  # anti-diagonal, not the orbit's smallest square
        ("8", [(8, 8)]),
        ("3x7", [(2, 4)]),  # centre of a rectangle
        ("5x6", [(3, 2), (3, 5)]),  # middle row of an odd-height rectangle
        ("6x8", [(6, 8)]),
    ],
)
def test_symmetry_fixed_and_partial_orbits(name, human):
    board = parse_board(name)
    starts = np.array(sorted(board.from_human(r, c) for r, c in human), dtype=np.int64)
    rng = np.random.default_rng(len(human) * board.size)
    for ranks in (ALL, np.sort(rng.choice(N_ORDERS, 500, replace=False)).astype(np.int64)):
        assert_rows_equal(tree_orbit(board, starts, ranks), brute_orbit(board, starts, ranks), f"{name} {human}")


# The partition property: each order lands in exactly one leaf, one leaf per distinct path.
def _brute_paths(board, start):
    """Path (bytes) and tie count of every order from ``start``, walked one by one."""
    orders = all_orders()
    order = orders[:1].copy()  # the order in force, set before each run
    rule = Rule(FIXED, Schedule(order, np.full(1, -1, np.int64)), orders, np.uint64(0), 1)
    cells = board_cells(board, FIXED)
    path = np.empty(board.size, np.int32)
    out = Outcomes.empty(1, np.uint32)
    args = (np.array([start], np.uint32), np.zeros(1, np.uint32), cells, path, out, np.empty(1, np.uint16))
    paths, ties = [], np.empty(N_ORDERS, np.int64)
    for r in range(N_ORDERS):
        order[0] = orders[r]
        run_batch(rule, board.rows, board.cols, *args, np.empty(1, np.int32))
        paths.append(path[: out.visited[0]].tobytes())
        ties[r] = out.ties[0]
    return paths, ties


@pytest.mark.parametrize("name, start", [("5", 0), ("5", 12), ("6", 7), ("8", 0), ("8", 27), ("4x5", 1)])
def test_leaves_partition_orders_by_path(name, start):
    board = parse_board(name)
    paths, ties = _brute_paths(board, start)
    distinct = {p: i for i, p in enumerate(dict.fromkeys(paths))}
    path_id = np.array([distinct[p] for p in paths])
    for full in (True, False):
        res = search(board, start, full=full)
        leaf_of = res["leaf_of"]
        assert leaf_of.min() >= 0  # every order labelled
        assert int(res["orders"].sum()) == N_ORDERS and (res["orders"] > 0).all()
        # One leaf per distinct path, and the same grouping of orders.
        assert len(res["visited"]) == len(distinct)
        pairs = set(zip(leaf_of.tolist(), path_id.tolist()))
        assert len(pairs) == len(distinct)
        # The leaf's tie count is the tie count of each of its orders.
        assert np.array_equal(res["ties"][leaf_of].astype(np.int64), ties)


@pytest.mark.parametrize("rule", ["fixed", "roth"])
@pytest.mark.parametrize("name", ["8", "9", "5x7"])
def test_mirror_fixed_starts_walk_half_the_tree(name, rule):
    """A start that a mirror fixes (diagonal, middle row or column) walks one branch of
    each mirror pair in constraint mode: half the knight steps of slice mode over every
    rank (which walks the whole tree), the same outcome for every order."""
    board = parse_board(name)
    grp = group(board)
    fixed = [s for s in range(board.size) if any(grp.squares[g, s] == s for g in range(1, grp.size))]
    assert fixed
    for s in fixed:
        half, whole = search(board, s, full=True, rule=rule), search(board, s, full=False, rule=rule)
        assert 2 * half["steps"] == whole["steps"], (name, s)
        for key in ("visited", "end", "closed", "ties"):
            assert np.array_equal(half[key][half["leaf_of"]], whole[key][whole["leaf_of"]]), (name, s, key)


def test_partition_counts_every_start():
    """Leaves of every start of 7x7 and 6x8 cover the 40,320 orders exactly once."""
    for name in ("7", "6x8"):
        board = parse_board(name)
        for s in range(board.size):
            res = search(board, s)
            counts = np.bincount(res["leaf_of"], minlength=len(res["visited"]))
            assert counts.sum() == N_ORDERS and (counts > 0).all()
            assert np.array_equal(counts, res["orders"])


def test_rejects_starts_from_two_orbits():
    board = Board(8, 8)
    with pytest.raises(ValueError):
        tree_orbit(board, np.array([0, 1]), ALL[:3])
    with pytest.raises(ValueError):
        tree_orbit(board, np.array([0]), np.array([N_ORDERS]))
    with pytest.raises(ValueError):
        tree_orbit(board, np.array([64]), ALL[:3])


def test_sweep_tables_equal_between_engines():
    """Through the sweep plumbing (chunks of orbits, table assembly), 5x5, a few orders."""
    board = Board(5, 5)
    ranks = np.array([0, 1, 100, 5040, 40319])
    tables = {
        engine: [c.table for c in iter_chunks(SweepSpec(board, ranks=ranks, engine=engine, chunk_runs=40))]
        for engine in ("tree", "brute")
    }
    assert len(tables["tree"]) == len(tables["brute"]) > 1
    for a, b in zip(tables["tree"], tables["brute"]):
        assert a.equals(b)
    rows = orbit_rows(board, np.array([0, 4, 20, 24]), ranks, "tree")
    assert rows["start"].tolist() == [0] * 5 + [4] * 5 + [20] * 5 + [24] * 5


# --- rules whose residual ties a tie order breaks: pohl, roth, corner ------------------
RULES = ("pohl", "roth", "corner")


def naive_rows(board, start, ranks, rule):
    """Rows of ``naive_rules.run`` for one start, as tree_orbit's columns (plain Python)."""
    runs = [naive_rules.run(board.rows, board.cols, start, rule, naive_rules.ORDER_STRINGS[r]) for r in ranks]
    return {
        "start": np.full(len(ranks), start, np.uint32),
        "order": np.asarray(ranks, np.uint16),
        "visited": np.array([x["visited"] for x in runs], np.uint32),
        "end": np.array([x["end"] for x in runs], np.uint32),
        "complete": np.array([x["complete"] for x in runs], np.bool_),
        "closed": np.array([x["closed"] for x in runs], np.bool_),
        "ties": np.array([x["ties"] for x in runs], np.uint16),
        "steps": np.zeros(1, np.int64),
    }, [x["path"] for x in runs]


def test_rule_names():
    board = Board(5, 5)
    for bad in ("random", "random-order", "squirrel-cull", "warnsdorff"):
        with pytest.raises(ValueError, match="fixed, pohl, roth, corner"):
            search(board, 0, rule=bad)
        with pytest.raises(ValueError, match="fixed, pohl, roth, corner"):
            tree_orbit(board, np.array([0]), ALL[:3], rule=bad)


def test_fixed_rule_is_the_default():
    board = Board(6, 6)
    for orbit in group(board).start_orbits():
        assert_rows_equal(
            tree_orbit(board, orbit, ALL, rule="fixed"), brute_orbit(board, orbit, ALL), f"6 fixed {orbit.tolist()}"
        )


# Every start (each alone, so that non-representative starts go through the symmetry
# mapping) x sampled orders: half uniform, half one order from each of some random
# leaves of the start's own tree (so that rare paths are checked too).
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    "name, n_orders",
    [
        ("5", 200),
        ("6", 120),
        ("7", 80),
        ("8", 50),
        ("3x7", 200),
        ("6x8", 60),
    ],
)
@pytest.mark.slow
def test_rules_match_naive_sampled(name, n_orders, rule):
    board = parse_board(name)
    rng = np.random.default_rng([board.rows, board.cols, RULES.index(rule)])
    for s in range(board.size):
        leaf_of = search(board, s, rule=rule)["leaf_of"]
        leaves = rng.permutation(leaf_of.max() + 1)[: n_orders // 2]
        by_leaf = [rng.choice(np.flatnonzero(leaf_of == leaf)) for leaf in leaves]
        ranks = np.unique(
            np.concatenate([rng.choice(N_ORDERS, n_orders - len(by_leaf), replace=False), by_leaf])
        ).astype(np.int64)
        expected, _ = naive_rows(board, s, ranks, rule)
        for full in (True, False):
            got = tree_orbit(board, np.array([s]), ranks, full=full, rule=rule)
            assert_rows_equal(got, expected, f"{name} {rule} start {s} full={full}")


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES)
def test_rules_match_naive_larger_boards(rule):
    """A few random starts x 40 random orders on 12x12 and 7x13."""
    for name in ("12", "7x13"):
        board = parse_board(name)
        rng = np.random.default_rng([board.rows, board.cols, RULES.index(rule)])
        for s in rng.choice(board.size, 3, replace=False).tolist():
            ranks = np.sort(rng.choice(N_ORDERS, 40, replace=False)).astype(np.int64)
            expected, _ = naive_rows(board, s, ranks, rule)
            for full in (True, False):
                got = tree_orbit(board, np.array([s]), ranks, full=full, rule=rule)
                assert_rows_equal(got, expected, f"{name} {rule} start {s} full={full}")


# Every order from one start per rule, and the partition: one leaf per distinct path.
@pytest.mark.parametrize(
    "name, start, rule",
    [
        ("3x7", 15, "pohl"),  # (3, 2): not the orbit's smallest square
        ("3x7", 10, "roth"),  # (2, 4): the centre, fixed by every symmetry
        ("5", 21, "corner"),  # (5, 2): not the orbit's smallest square
    ],
)
@pytest.mark.slow
def test_rules_every_order_match_naive(name, start, rule):
    board = parse_board(name)
    expected, paths = naive_rows(board, start, ALL, rule)
    assert_rows_equal(tree_orbit(board, np.array([start]), ALL, rule=rule), expected, f"{name} {rule}")
    distinct = {p: i for i, p in enumerate(dict.fromkeys(map(tuple, paths)))}
    path_id = np.array([distinct[tuple(p)] for p in paths])
    for full in (True, False):
        res = search(board, start, full=full, rule=rule)
        leaf_of = res["leaf_of"]
        assert leaf_of.min() >= 0
        assert len(res["visited"]) == len(distinct)
        assert len(set(zip(leaf_of.tolist(), path_id.tolist()))) == len(distinct)
        assert np.array_equal(res["ties"][leaf_of], expected["ties"])


@pytest.mark.parametrize("rule", RULES)
def test_rules_symmetry(rule):
    """Rows of a start from its own tree (no symmetry used) equal tree_orbit's rows,
    which map the tree of the orbit's smallest square; every start, every order."""
    for name in ("6", "7", "3x7", "5x6"):
        board = parse_board(name)
        for t in range(board.size):
            res = search(board, t, rule=rule)
            leaf = res["leaf_of"]
            own = {
                "start": np.full(N_ORDERS, t, np.uint32),
                "order": ALL.astype(np.uint16),
                "visited": res["visited"][leaf],
                "end": res["end"][leaf].astype(np.uint32),
                "complete": res["visited"][leaf] == board.size,
                "closed": res["closed"][leaf],
                "ties": res["ties"][leaf],
                "steps": np.zeros(1, np.int64),
            }
            assert_rows_equal(tree_orbit(board, np.array([t]), ALL, rule=rule), own, f"{name} {rule} {t}")


@pytest.mark.parametrize("rule", RULES)
def test_rules_partition_every_start(rule):
    """Every start of 7x7 and 6x8: the leaves cover the 40,320 orders exactly once, every
    leaf holds an order, and both modes find the same leaves (numbered apart: constraint
    mode walks one half of a mirror-fixed start's tree) with the same outcomes."""
    for name in ("7", "6x8"):
        board = parse_board(name)
        for s in range(board.size):
            full = search(board, s, full=True, rule=rule)
            counts = np.bincount(full["leaf_of"], minlength=len(full["visited"]))
            assert counts.sum() == N_ORDERS and (counts > 0).all()
            sliced = search(board, s, full=False, rule=rule)
            pairs = set(zip(full["leaf_of"].tolist(), sliced["leaf_of"].tolist()))
            assert len(pairs) == len(full["visited"]) == len(sliced["visited"])
            for key in ("visited", "end", "closed", "ties"):
                assert np.array_equal(full[key][full["leaf_of"]], sliced[key][sliced["leaf_of"]]), (name, s, key)


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["pohl", "roth", "corner"])
@pytest.mark.parametrize("name", ["5", "6", "7", "8", "3x7", "6x8"])
def test_rules_full_sweep_matches_per_run_kernel(name, rule):
    """Every start x all 40,320 residual orders: the tree equals the per-run numba kernel
    (knight.engine.walk, one walk per pair) row for row, ties included."""
    board = parse_board(name)
    spec = SweepSpec(board, rule=rule)
    for orbit in spec.orbits():
        tree = orbit_rows(board, orbit, spec.ranks, "tree", rule)
        brute = orbit_rows(board, orbit, spec.ranks, "brute", rule)
        assert_rows_equal(tree, brute, f"{name} {rule} orbit {orbit[0]}")


@pytest.mark.parametrize("wanted", [[], [40320], [-1, 3]])
def test_search_refuses_ranks_that_steer_nothing(wanted):
    """With no wanted rank the slice kernel has no branch to follow at a tie and used to
    walk on through visited squares, writing past its arrays (heap corruption): it is
    refused, as are ranks outside 0..40319."""
    match = "wanted ranks must be 1 or more" if not wanted else "order rank -?\\d+ is outside 0..40319"
    with pytest.raises(ValueError, match=match):
        search(Board(8, 8), 0, wanted)


def _random_position(rng, deg0, offsets, cells, fractions):
    """A random position in the middle of a walk, read plainly: ``(visited, p, free,
    deg)``, a fraction (drawn from ``fractions``) of the board's squares ``cells``
    visited, the knight on unvisited ``p``, ``free`` the unvisited cells and ``deg`` each
    unvisited cell's count of unvisited neighbours (visited and margin cells ``BLOCKED``)."""
    visited = rng.random(len(cells)) < rng.choice(fractions)
    p = int(rng.integers(len(cells)))
    visited[p] = False
    free = np.zeros(len(deg0), bool)
    free[cells[~visited]] = True
    deg = np.full(len(deg0), BLOCKED, np.int8)
    for q in cells[~visited]:
        deg[q] = sum(free[q + o] for o in offsets)
    return visited, p, free, deg


def test_step_matches_a_plain_least_degree_count():
    """``enter`` (one step of every kernel: degree table look-ups, no comparisons) against
    the rule read plainly: on boards with random squares visited mid-walk, the knight's
    unvisited neighbours lose a degree and the moves to the least of them are the mask.
    Degrees are recounted from the visited squares, not taken from the engine."""
    rng = np.random.default_rng(19)
    board = parse_board("9x11")
    deg0, offsets, index = padded(board)
    width = board.cols + 4
    cells = np.asarray(index, np.int64)
    moves = [(2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2)]
    assert [dr * width + dc for dr, dc in moves] == list(offsets)
    sizes_seen = set()
    for _ in range(3000):
        visited, p, free, deg = _random_position(rng, deg0, offsets, cells, [0.1, 0.5, 0.9])
        deg[cells[visited]] = BLOCKED - rng.integers(0, 9, visited.sum())  # blocked, decremented
        want = deg.copy()
        want[cells[p]] = BLOCKED
        least, mask = 9, 0
        for m, o in enumerate(offsets):
            q = cells[p] + o
            want[q] -= 1
            if free[q]:
                d = int(deg[q]) - 1
                if d < least:
                    least, mask = d, 0
                if d == least:
                    mask |= 1 << m
        got, low = enter(deg, cells[p], width, LEVEL)
        assert got == mask, (p, got, mask)
        assert mask == 0 or low == (mask & -mask).bit_length() - 1
        assert np.array_equal(deg, want)
        sizes_seen.add(bin(mask).count("1"))
    assert sizes_seen >= {0, 1, 2, 3}


def test_step_in_a_tie_orders_priority_takes_the_orders_move():
    """The rule kernel walks ``fixed`` and Squirrel and Cull's orders, and so brute force
    over (start, order) pairs, by giving ``enter`` the eight steps in the tie order's
    priority: its mask then holds the ranks in the order of the least-degree moves, and
    its lowest bit is the move the rule takes, the first tied move in the order
    (docs/conventions.md). Checked against degrees recounted from the visited squares,
    on random positions under random orders."""
    rng = np.random.default_rng(38)
    board = parse_board("8x9")
    deg0, offsets, index = padded(board)
    cells = np.asarray(index, np.int64)
    orders = all_orders()
    taken = set()
    for _ in range(3000):
        visited, p, free, deg = _random_position(rng, deg0, offsets, cells, [0.2, 0.5, 0.8])
        degree = {m: int(deg[cells[p] + o]) - 1 for m, o in enumerate(offsets) if free[cells[p] + o]}
        tied = {m for m, d in degree.items() if d == min(degree.values())}
        order = [int(m) for m in orders[rng.integers(N_ORDERS)]]
        got, low = enter(deg, cells[p], tuple(int(offsets[m]) for m in order), LEVEL)
        assert got == sum(1 << i for i, m in enumerate(order) if m in tied), (p, order)
        if tied:
            assert order[low] == next(m for m in order if m in tied)
            taken.add(len(tied))
    assert taken >= {1, 2, 3}


@pytest.mark.parametrize("name", ["5", "8x9", "3x20"])
def test_neighbours_from_the_width_are_the_moves_in_move_order(name):
    """The tie tree gives the step the padded width; the neighbours are then the moves of
    docs/conventions.md in move order, in Python and in numba, and the same as from the
    eight steps."""
    board = parse_board(name)
    _, offsets, index = padded(board)
    width, p = board.cols + 4, int(index[board.size // 2])
    want = tuple(p + int(o) for o in offsets)
    assert neighbours(p, width) == want == neighbours(p, tuple(int(o) for o in offsets))
    jitted = nb.njit(lambda p, steps: neighbours(p, steps))
    assert jitted(p, width) == want == jitted(p, tuple(int(o) for o in offsets))
