"""Closed knight's tours by divide and conquer (seed 004), linear in the number of squares.

Two methods, both joining closed tours of small blocks into one cycle:

* ``seed``: seed 004 (Parberry's construction) for m x n with m, n even, >= 6 and
  |m - n| <= 2. Boards with a side below 12 are base cases (the seed's structured tours);
  larger ones are split into four quarters (a side 4k into 2k + 2k, 4k+2 into
  2k + (2k+2)), built recursively, and joined at the centre by deleting one corner move
  of each quarter and adding four moves that link the four cycles into one.
* ``grid``: any m x n with m, n even and >= 6. Each side is cut into parts of 6, 8 and 10;
  every block gets a *joinable* base tour (square (1,1) of the block joined to (3,0)
  and (0,3)). Neighbouring blocks of a row are joined at their shared top corner, and
  the rows at their left ends, each by a 2-swap: delete move (0,-1)-(2,-2) of the block
  on the left (its corner square's forced move) and move (1,1)-(3,0) of the block on the
  right; add (0,-1)-(1,1) and (2,-2)-(3,0) (coordinates from the shared corner; the
  transpose for rows). A 2-swap between two different cycles always leaves one cycle.

The tour is held as two neighbour links per square, then walked once from square 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knight.core.board import Board
from knight.exact.base_tours import PARTS, join_base, seed_base

METHODS = ("auto", "seed", "grid")
SEED_SHAPES = ((6, 6), (6, 8), (8, 6), (8, 8), (8, 10), (10, 8), (10, 10), (10, 12), (12, 10))


class ConstructError(ValueError):
    """The board has no closed tour, or the construction does not cover it."""


def has_closed_tour(rows: int, cols: int) -> str | None:
    """Whether a board has a closed knight's tour (Schwenk 1991), and if not why.

    Parameters
    ----------
    rows, cols : int
        The board's sides.

    Returns
    -------
    str or None
        None when the board has a closed tour, else the reason in words.

    Examples
    --------
    >>> has_closed_tour(8, 8) is None, has_closed_tour(3, 8)
    (True, 'the 3x8 board has no closed tour')
    """
    m, n = sorted((int(rows), int(cols)))
    if m * n == 1:
        return "a 1x1 board has no closed tour (no move at all)"
    if m % 2 == 1 and n % 2 == 1:
        return (
            f"a closed tour alternates colours, so it needs an even number of squares ({rows}x{cols} has {rows * cols})"
        )
    if m in (1, 2, 4):
        return f"no board with a side of {m} has a closed tour"
    if m == 3 and n in (4, 6, 8):
        return f"the 3x{n} board has no closed tour"
    return None


@njit(nogil=True, cache=True)
def _link(a, b, p, q):
    if a[p] < 0:
        a[p] = q
    else:
        b[p] = q
    if a[q] < 0:
        a[q] = p
    else:
        b[q] = p


@njit(nogil=True, cache=True)
def _replace(a, b, p, old, new):
    """In the links of ``p`` replace ``old`` by ``new``; False if ``old`` is not a link."""
    if a[p] == old:
        a[p] = new
        return True
    if b[p] == old:
        b[p] = new
        return True
    return False


@njit(nogil=True, cache=True)
def _fill(cols, r0, c0, h, w, toff, tours, a, b):
    """Link every block's base tour: block i at (r0, c0), h x w, tour at tours[toff:]."""
    for i in range(r0.shape[0]):
        k = h[i] * w[i]
        first = -1
        prev = -1
        for j in range(k):
            p = tours[toff[i] + j]
            s = (r0[i] + p // w[i]) * cols + c0[i] + p % w[i]
            if j == 0:
                first = s
            else:
                _link(a, b, prev, s)
            prev = s
        _link(a, b, prev, first)


@njit(nogil=True, cache=True)
def _seed_joins(cols, jr, jc, a, b):
    """Seed 004's centre join around each point (jr, jc) (first row and column of the
    bottom-right quarter). Returns the number of links that were not where expected."""
    bad = 0
    x = np.empty(8, np.int64)
    y = np.empty(8, np.int64)
    p = np.empty(8, np.int64)
    for t in range(jr.shape[0]):
        x[0] = jr[t] - 1
        y[0] = jc[t] - 3
        x[1] = x[0] - 1
        y[1] = y[0] + 2
        x[2] = x[1] - 1
        y[2] = y[1] + 2
        x[3] = x[2] + 2
        y[3] = y[2] - 1
        x[4] = x[3] + 1
        y[4] = y[3] + 2
        x[5] = x[4] + 1
        y[5] = y[4] - 2
        x[6] = x[5] + 1
        y[6] = y[5] - 2
        x[7] = x[6] - 2
        y[7] = y[6] + 1
        for i in range(8):
            p[i] = x[i] * cols + y[i]
        # delete (p0,p1) (p2,p3) (p4,p5) (p6,p7); add (p1,p2) (p3,p4) (p5,p6) (p7,p0)
        for i in range(1, 8, 2):
            j1 = (i + 1) % 8
            j2 = (i + 2) % 8
            if not _replace(a, b, p[i], p[i - 1], p[j1]):
                bad += 1
            if not _replace(a, b, p[j1], p[j2], p[i]):
                bad += 1
    return bad


@njit(nogil=True, cache=True)
def _swap2(a, b, a1, a2, b1, b2):
    """Delete moves a1-a2 and b1-b2, add a1-b1 and a2-b2; returns the number of misses."""
    bad = 0
    bad += not _replace(a, b, a1, a2, b1)
    bad += not _replace(a, b, a2, a1, b2)
    bad += not _replace(a, b, b1, b2, a1)
    bad += not _replace(a, b, b2, b1, a2)
    return bad


@njit(nogil=True, cache=True)
def _grid_joins(cols, row0, col0, a, b):
    """2-swaps of the grid method; row0/col0: first row/column of each block row/column."""
    bad = 0
    for i in range(row0.shape[0]):
        r = row0[i]
        for j in range(1, col0.shape[0]):
            cb = col0[j]
            bad += _swap2(
                a, b, r * cols + cb - 1, (r + 2) * cols + cb - 2, (r + 1) * cols + cb + 1, (r + 3) * cols + cb
            )
    for i in range(1, row0.shape[0]):
        rb = row0[i]
        bad += _swap2(a, b, (rb - 1) * cols, (rb - 2) * cols + 2, (rb + 1) * cols + 1, rb * cols + 3)
    return bad


@njit(nogil=True, cache=True)
def _walk(a, b, tour):
    """Follow the links from square 0; returns how many squares were reached before
    the walk came back to 0 (the board size when the links form one cycle)."""
    n = tour.shape[0]
    prev = -1
    cur = 0
    for i in range(n):
        tour[i] = cur
        nxt = a[cur] if a[cur] != prev else b[cur]
        if nxt < 0:
            return i + 1
        prev = cur
        cur = nxt
        if cur == 0:
            return i + 1
    return n


def split_side(length: int) -> list[int]:
    """Cut an even side >= 6 into parts of 6, 8 and 10 (as many 8s as fit)."""
    if length % 2 or length < 6:
        raise ValueError(f"side {length} is not even and at least 6")
    rest = {0: [], 2: [10], 4: [6, 6], 6: [6]}[length % 8]
    eights = (length - sum(rest)) // 8
    return [8] * eights + rest


def _seed_plan(m, n, offr, offc, blocks, joins):
    """Seed 004's ``comb``: record base blocks and centre joins (children first)."""
    if m < 12 or n < 12:
        blocks.append((offr, offc, m, n))
        return
    m1 = m // 2 - (1 if m % 4 else 0)
    n1 = n // 2 - (1 if n % 4 else 0)
    m2, n2 = m - m1, n - n1
    _seed_plan(m1, n1, offr, offc, blocks, joins)
    _seed_plan(m1, n2, offr, offc + n1, blocks, joins)
    _seed_plan(m2, n1, offr + m1, offc, blocks, joins)
    _seed_plan(m2, n2, offr + m1, offc + n1, blocks, joins)
    joins.append((offr + m1, offc + n1))


def _tour_bank(shapes, source):
    """Concatenated base tours and each shape's offset."""
    offsets, parts, total = {}, [], 0
    for shape in shapes:
        tour = source(*shape)
        offsets[shape] = total
        parts.append(tour)
        total += tour.size
    return offsets, np.concatenate(parts).astype(np.int32)


def choose_method(board: Board, method: str = "auto") -> str:
    """Resolve ``method`` for a board, or raise ConstructError saying why it cannot be built."""
    if method not in METHODS:
        raise ValueError(f"method {method!r} is not one of {', '.join(METHODS)}")
    m, n = board.rows, board.cols
    reason = has_closed_tour(m, n)
    if reason:
        raise ConstructError(f"{board.name} has no closed knight's tour: {reason}")
    if m % 2 or n % 2 or m < 6 or n < 6:
        raise ConstructError(
            f"{board.name} has closed tours, but this construction needs both sides even and "
            f"at least 6 (use 'knight backtrack --closed' for small or odd boards)"
        )
    if method == "auto":
        return "seed" if abs(m - n) <= 2 else "grid"
    if method == "seed" and abs(m - n) > 2:
        raise ConstructError(f"the seed 004 method needs |rows - cols| <= 2, got {board.name}")
    return method


def construct(board: Board, method: str = "auto") -> np.ndarray:
    """Closed knight's tour of ``board`` as ``int32[rows*cols]`` square indices from square 0.

    ``method``: "seed" (|m-n| <= 2), "grid" (any even sides >= 6) or "auto" (seed when
    it applies). Raises ConstructError (a ValueError) for boards it cannot build.
    """
    method = choose_method(board, method)
    m, n = board.rows, board.cols
    blocks: list[tuple[int, int, int, int]] = []
    if method == "seed":
        joins: list[tuple[int, int]] = []
        _seed_plan(m, n, 0, 0, blocks, joins)
        offsets, tours = _tour_bank(SEED_SHAPES, seed_base)
    else:
        rp, cp = split_side(m), split_side(n)
        row0 = np.concatenate([[0], np.cumsum(rp)[:-1]]).astype(np.int64)
        col0 = np.concatenate([[0], np.cumsum(cp)[:-1]]).astype(np.int64)
        blocks = [(int(r), int(c), h, w) for r, h in zip(row0, rp) for c, w in zip(col0, cp)]
        offsets, tours = _tour_bank([(h, w) for h in PARTS for w in PARTS], join_base)
    arr = np.asarray(blocks, dtype=np.int64)
    toff = np.array([offsets[(h, w)] for _, _, h, w in blocks], dtype=np.int64)
    a = np.full(board.size, -1, np.int32)
    b = np.full(board.size, -1, np.int32)
    _fill(n, arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], toff, tours, a, b)
    if method == "seed":
        j = np.asarray(joins, dtype=np.int64).reshape(-1, 2)
        bad = _seed_joins(n, j[:, 0].copy(), j[:, 1].copy(), a, b)
    else:
        bad = _grid_joins(n, row0, col0, a, b)
    tour = np.empty(board.size, np.int32)
    reached = _walk(a, b, tour)
    if bad or reached != board.size:
        raise RuntimeError(
            f"construction of {board.name} failed ({bad} missing moves, "
            f"cycle through square 0 has {reached} of {board.size} squares)"
        )
    return tour
