import numpy as np
import pytest
from naive import MOVES

from knight.core.board import Board
from knight.core.orders import rank, unrank
from knight.core.symmetry import group
from knight.engine.brute import outcomes, run


def _moves_of(matrix):
    """Move permutation of a 2x2 matrix, computed from the naive move table."""
    lookup = {v: k for k, v in MOVES.items()}
    out = {}
    for k, (dr, dc) in MOVES.items():
        img = (matrix[0][0] * dr + matrix[0][1] * dc, matrix[1][0] * dr + matrix[1][1] * dc)
        out[k] = lookup[img]
    return out


def test_conventions_move_maps():
    g = group(Board(8, 8))
    perms = [tuple(int(x) + 1 for x in row) for row in g.moves]
    quarter = tuple((i + 2 - 1) % 8 + 1 for i in range(1, 9))  # i -> i+2 (mod 8)
    mirror = (2, 1, 8, 7, 6, 5, 4, 3)  # 1<->2, 3<->8, 4<->7, 5<->6
    assert quarter in perms and mirror in perms
    assert len(set(perms)) == 8
    for m, row in zip(g.matrices, g.moves):
        assert {k: int(row[k - 1]) + 1 for k in range(1, 9)} == _moves_of(m.tolist())


@pytest.mark.parametrize("rows, cols, size", [(8, 8, 8), (5, 5, 8), (6, 8, 4), (3, 7, 4)])
def test_group_is_a_group(rows, cols, size):
    g = group(Board(rows, cols))
    assert g.size == size
    assert (g.squares[0] == np.arange(rows * cols)).all()
    perms = {tuple(p) for p in g.squares.tolist()}
    assert len(perms) == size
    for a in g.squares:
        assert sorted(a.tolist()) == list(range(rows * cols))  # bijection
        for b in g.squares:
            assert tuple(a[b].tolist()) in perms  # closed under composition
    for e in range(size):
        assert (g.squares[g.inverse[e]][g.squares[e]] == np.arange(rows * cols)).all()


def test_corner_orbit_and_classes():
    g = group(Board(8, 8))
    assert sorted(set(g.squares[:, 0].tolist())) == [0, 7, 56, 63]
    ids = g.class_ids()
    assert len(np.unique(ids)) == 5040
    assert len(np.unique(group(Board(6, 8)).class_ids())) == 10080
    # the class id is the smallest rank of the orbit and every orbit has 8 members
    images = g.order_images()
    assert (ids == images.min(axis=0)).all()
    assert (np.array([len(set(images[:, r])) for r in range(0, 40320, 997)]) == 8).all()
    # g.o maps each move of o through g
    o = "31245678"
    for e in range(8):
        want = "".join(str(int(g.moves[e][int(ch) - 1]) + 1) for ch in o)
        assert unrank(images[e, rank(o)]) == want


@pytest.mark.parametrize("rows, cols", [(8, 8), (7, 7), (5, 6), (3, 7)])
def test_runs_are_equivariant(rows, cols):
    """The run from g.s under g.o is the image under g of the run from s under o."""
    board = Board(rows, cols)
    g = group(board)
    images = g.order_images()
    rng = np.random.default_rng(rows + 10 * cols)
    for _ in range(40):
        s = int(rng.integers(board.size))
        o = int(rng.integers(40320))
        base = run(board, s, o)
        for e in range(g.size):
            img = run(board, int(g.squares[e, s]), int(images[e, o]))
            assert (img.path == g.squares[e][base.path]).all()
            assert img.ties == base.ties


def test_per_order_totals_agree_within_classes():
    board = Board(6, 6)
    g = group(board)
    orders = np.array([rank("12345678"), rank("31245678"), rank("86427531")])
    for o in orders:
        totals = set()
        for e in range(8):
            r = int(g.order_images()[e, o])
            got = outcomes(board, np.arange(36), np.full(36, r))
            totals.add((int(got["complete"].sum()), int(got["closed"].sum())))
        assert len(totals) == 1
