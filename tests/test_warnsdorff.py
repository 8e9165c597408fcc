import numpy as np
import pytest
from naive import ORDER_STRINGS, WORKED_EXAMPLE
from naive import outcome as naive_outcome

from knight.core.board import Board
from knight.engine.brute import outcomes, run


def test_worked_example():
    r = run(Board(8, 8), 0, "12345678")
    want = np.array([[int(x) for x in line.split()] for line in WORKED_EXAMPLE.strip().splitlines()])
    assert (r.numbering() == want).all()
    assert r.complete and not r.closed
    assert Board(8, 8).human(r.end) == (2, 7)


@pytest.mark.parametrize("rows, cols", [(3, 7), (4, 5), (5, 5), (5, 6), (6, 8), (7, 7), (8, 8), (9, 6), (12, 12)])
def test_kernel_matches_reference(rows, cols):
    rng = np.random.default_rng(rows * 100 + cols)
    board = Board(rows, cols)
    n = 150
    starts = rng.integers(0, board.size, n)
    ranks = rng.integers(0, 40320, n)
    got = outcomes(board, starts, ranks)
    for i in range(n):
        want = naive_outcome(rows, cols, int(starts[i]), ORDER_STRINGS[ranks[i]])
        have = (got["visited"][i], got["end"][i], got["complete"][i], got["closed"][i], got["ties"][i])
        assert tuple(int(x) for x in have) == tuple(int(x) for x in want), (starts[i], ORDER_STRINGS[ranks[i]])


def test_single_run_matches_reference_path():
    from naive import warnsdorff

    rng = np.random.default_rng(7)
    board = Board(6, 8)
    for _ in range(50):
        s, o = int(rng.integers(board.size)), ORDER_STRINGS[int(rng.integers(40320))]
        path, ties = warnsdorff(6, 8, divmod(s, 8), o)
        r = run(board, s, o)
        assert [board.coords(x) for x in r.path] == path
        assert r.ties == ties


@pytest.mark.parametrize("n, complete, closed", [(5, 376_320, 0), (6, 1_431_808, 182_448)])
def test_published_totals(n, complete, closed):
    board = Board(n, n)
    starts = np.repeat(np.arange(board.size), 40320)
    ranks = np.tile(np.arange(40320), board.size)
    got = outcomes(board, starts, ranks)
    assert len(starts) == {5: 1_008_000, 6: 1_451_520}[n]
    assert int(got["complete"].sum()) == complete
    assert int(got["closed"].sum()) == closed


def test_run_rejects_bad_input():
    b = Board(5, 5)
    with pytest.raises(ValueError, match="off the 5x5 board"):
        run(b, 25, "12345678")
    with pytest.raises(ValueError, match="not a permutation"):
        run(b, 0, "11345678")
    with pytest.raises(ValueError, match="outside"):
        run(b, 0, 40320)
