import numpy as np
import pytest
from naive import MOVES, ORDER_STRINGS

from knight.core.board import Board, parse_board
from knight.core.orders import N_ORDERS, all_orders, order_strings, parse_order, priorities, rank, ranks_of, unrank


@pytest.mark.parametrize("text, rows, cols", [("8", 8, 8), (8, 8, 8), ("6x8", 6, 8), (" 3X7 ", 3, 7)])
def test_parse_board(text, rows, cols):
    assert parse_board(text) == Board(rows, cols)


@pytest.mark.parametrize("text", ["0", "x8", "8x", "eight", "-3", "3x0"])
def test_parse_board_rejects(text):
    with pytest.raises(ValueError):
        parse_board(text)


@pytest.mark.parametrize("rows, cols", [(3, 7), (5, 6), (8, 8), (1, 4)])
def test_neighbours_follow_move_numbering(rows, cols):
    board = Board(rows, cols)
    for s in range(board.size):
        r, c = divmod(s, cols)
        for m in range(8):
            dr, dc = MOVES[m + 1]
            nr, nc = r + dr, c + dc
            want = nr * cols + nc if 0 <= nr < rows and 0 <= nc < cols else -1
            assert board.neighbours[s, m] == want


def test_human_coordinates_are_one_based():
    b = Board(6, 8)
    assert b.from_human(1, 1) == 0
    assert b.from_human(2, 3) == 10
    assert b.human(47) == (6, 8)
    with pytest.raises(ValueError, match="off the 6x8 board"):
        b.from_human(7, 1)


def test_published_ranks():
    assert rank("12345678") == 0
    assert rank("12345687") == 1
    assert rank("87654321") == 40319
    assert unrank(0) == "12345678" and unrank(40319) == "87654321"


def test_all_orders_in_rank_order():
    strings = ["".join(str(m + 1) for m in row) for row in all_orders()]
    assert strings == ORDER_STRINGS  # lexicographic enumeration, independent of the code
    assert list(order_strings()) == ORDER_STRINGS
    assert (ranks_of(all_orders()) == np.arange(N_ORDERS)).all()
    for r in (0, 1, 777, 31245, 40319):
        assert rank(unrank(r)) == r == ORDER_STRINGS.index(unrank(r))


def test_priorities_invert_orders():
    p = priorities()[rank("31245678")]
    # move 3 first, then 1, 2, 4, ...
    assert list(p) == [1, 2, 0, 3, 4, 5, 6, 7]


@pytest.mark.parametrize("bad", ["1234567", "123456789", "12345677", "02345678", "abcdefgh", ""])
def test_parse_order_rejects(bad):
    with pytest.raises(ValueError, match="not a permutation"):
        parse_order(bad)
