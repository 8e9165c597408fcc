"""The board's symmetry group acting on squares, moves and tie orders.

A square board has the 8 symmetries of the square, a non-square board 4 (identity,
half turn, the two mirrors). Each element is an integer 2x2 matrix ``A`` acting on
move vectors ``(d_row, d_col)``; on squares it acts about the board centre. Element
0 is always the identity. With the conventions' numbering a quarter turn maps move
i to i+2 (mod 8) and the left-right mirror maps 1<->2, 3<->8, 4<->7, 5<->6.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from knight.core.board import MOVES, Board
from knight.core.orders import all_orders, check_ranks, ranks_of

# Matrices acting on column vectors (d_row, d_col).
_IDENTITY = ((1, 0), (0, 1))
_HALF_TURN = ((-1, 0), (0, -1))
_FLIP_ROWS = ((-1, 0), (0, 1))  # top <-> bottom
_FLIP_COLS = ((1, 0), (0, -1))  # left <-> right
_QUARTER = ((0, 1), (-1, 0))  # (dr, dc) -> (dc, -dr): clockwise on screen, move i -> i+2
_THREE_QUARTER = ((0, -1), (1, 0))
_TRANSPOSE = ((0, 1), (1, 0))
_ANTI_TRANSPOSE = ((0, -1), (-1, 0))

_RECT_ELEMENTS = (_IDENTITY, _HALF_TURN, _FLIP_ROWS, _FLIP_COLS)
_SQUARE_ELEMENTS = _RECT_ELEMENTS + (_QUARTER, _THREE_QUARTER, _TRANSPOSE, _ANTI_TRANSPOSE)
ELEMENT_NAMES = (
    "identity",
    "half turn",
    "top-bottom mirror",
    "left-right mirror",
    "quarter turn (clockwise)",
    "three-quarter turn",
    "transpose",
    "anti-transpose",
)


@dataclass(frozen=True)
class Group:
    """Symmetry group of one board, as permutation tables.

    ``squares[g, s]``: image of square ``s``; ``moves[g, m]``: image of move ``m``;
    ``inverse[g]``: index of the inverse element.
    """

    board: Board
    matrices: np.ndarray  # int64[G, 2, 2]
    squares: np.ndarray  # int64[G, size]
    moves: np.ndarray  # int64[G, 8]
    inverse: np.ndarray  # int64[G]

    @property
    def size(self) -> int:
        """Number of elements (8 or 4)."""
        return len(self.matrices)

    def names(self) -> tuple[str, ...]:
        return ELEMENT_NAMES[: self.size]

    def order_images(self) -> np.ndarray:
        """``int64[G, 40320]``: rank of g·o for every element and order rank."""
        return order_images(self.board)

    def class_ids(self) -> np.ndarray:
        """``int64[40320]``: symmetry class id (smallest rank in the orbit) per order."""
        return _class_ids(self.board.square)

    def orbit_representatives(self) -> np.ndarray:
        """``int64[size]``: the smallest square of each square's orbit."""
        return self.squares.min(axis=0)

    def start_orbits(self, starts=None) -> list[np.ndarray]:
        """Whole orbits of the given starts (default all squares), each sorted, ordered by
        smallest member."""
        reps = self.orbit_representatives()
        wanted = np.unique(reps if starts is None else reps[np.asarray(starts, dtype=np.int64)])
        members = np.flatnonzero(np.isin(reps, wanted))
        members = members[np.argsort(reps[members], kind="stable")]
        cuts = np.flatnonzero(np.diff(reps[members])) + 1
        return np.split(members, cuts)


def _move_table(matrices: np.ndarray) -> np.ndarray:
    images = np.einsum("gij,mj->gmi", matrices, MOVES)  # [G, 8, 2]
    lookup = {tuple(v): i for i, v in enumerate(MOVES.tolist())}
    return np.array([[lookup[tuple(v)] for v in g.tolist()] for g in images], dtype=np.int64)


@cache
def group(board: Board) -> Group:
    """The symmetry group of ``board``."""
    mats = _matrices(board)
    squares = _act(mats, board, np.arange(board.size))
    # Matrices that are products of one another: find inverses by multiplication.
    prod = np.einsum("gij,hjk->ghik", mats, mats)
    eye = np.eye(2, dtype=np.int64)
    inverse = np.array([int(np.flatnonzero((prod[g] == eye).all(axis=(1, 2)))[0]) for g in range(len(mats))])
    return Group(board, mats, squares, _move_table(mats), inverse)


def _matrices(board: Board) -> np.ndarray:
    """``int64[G, 2, 2]``: the elements of the board's group, in element order."""
    return np.array(_SQUARE_ELEMENTS if board.square else _RECT_ELEMENTS, dtype=np.int64)


def _act(mats: np.ndarray, board: Board, squares) -> np.ndarray:
    """``int64[len(mats), len(squares)]``: the images of board squares under each matrix,
    about the board's centre (doubled coordinates keep everything integral)."""
    r, c = np.divmod(np.asarray(squares, np.int64), board.cols)
    v = np.stack([2 * r - (board.rows - 1), 2 * c - (board.cols - 1)])  # [2, n]
    w = np.einsum("gij,js->gis", mats, v)
    return (w[:, 0] + board.rows - 1) // 2 * board.cols + (w[:, 1] + board.cols - 1) // 2


def fixing_mirror(board: Board, square: int) -> tuple[int, np.ndarray] | None:
    """An element of order 2 of the board's group that fixes ``square``: (its index, as
    in :func:`group`, and its image of each move, int64[8]), or None. Works from the
    square's coordinates, without :func:`group`'s tables (which grow with the board).

    >>> fixing_mirror(Board(8, 8), 0)[0]  # the corner lies on the diagonal
    6
    >>> fixing_mirror(Board(8, 8), 1) is None
    True
    """
    mats = _matrices(board)
    fixes = _act(mats, board, [square])[:, 0] == square
    for g in range(1, len(mats)):
        if fixes[g] and (mats[g] @ mats[g] == np.eye(2, dtype=np.int64)).all():
            return g, _move_table(mats[g : g + 1])[0]
    return None


def order_images(board: Board) -> np.ndarray:
    """``int64[G, 40320]``: rank of g·o for every element of the board's group and every
    order rank (read-only, built once per shape of group), without :func:`group`'s tables.

    >>> int(order_images(Board(8, 8))[6, 0])  # the transpose: 12345678 -> 87654321
    40319
    """
    return _order_images(board.square)


def image(board: Board, g: int, squares) -> np.ndarray:
    """Images of board squares (int64 array) under element ``g`` of the board's group,
    without :func:`group`'s tables.

    >>> image(Board(8, 8), 6, [1, 8]).tolist()  # the transpose
    [8, 1]
    """
    return _act(_matrices(board)[g : g + 1], board, squares)[0]


@lru_cache(maxsize=2)
def _order_images(square: bool) -> np.ndarray:
    mats = np.array(_SQUARE_ELEMENTS if square else _RECT_ELEMENTS, dtype=np.int64)
    moves = _move_table(mats)
    orders = all_orders().astype(np.int64)
    table = np.stack([ranks_of(moves[g][orders]) for g in range(len(mats))])
    table.flags.writeable = False
    return table


@lru_cache(maxsize=2)
def _class_ids(square: bool) -> np.ndarray:
    ids = _order_images(square).min(axis=0)
    ids.flags.writeable = False
    return ids


def orbit(board: Board, rank: int) -> np.ndarray:
    """Ranks of g·o for every element g of the board's group (element order)."""
    return group(board).order_images()[:, int(check_ranks(rank))]
