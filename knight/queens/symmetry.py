"""Queens up to the 8 symmetries of the square board.

A solution's class is its orbit under the 8 symmetries; its representative is the
orbit member of smallest key. For a set of queens (:func:`orbit`) the key is
``(a, b, sorted squares)``, ``a`` and ``b`` given by the class search's tables
(:mod:`knight.queens.orbits`), or the sorted squares alone (:func:`set_orbit`, the
enumeration's); for a non-attacking placement it is the tuple ``cols[row]``
(:func:`placement_is_representative`; it orders placements as their sorted squares
do). Classes are counted as the number of representatives found.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from knight.core.board import Board
from knight.core.symmetry import group


@lru_cache(maxsize=64)
def square_images(n: int) -> np.ndarray:
    """``int32[8, n*n]``: image of every square under each symmetry (row 0 = identity)."""
    table = np.ascontiguousarray(group(Board(n, n)).squares, dtype=np.int32)
    table.flags.writeable = False
    return table


@njit(nogil=True, cache=True)
def _insertion_sort(a, m):
    for i in range(1, m):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(nogil=True, cache=True)
def _compare(a, b, m):
    """-1, 0 or 1 as ``a[:m]`` is lexicographically below, equal to or above ``b[:m]``."""
    for i in range(m):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    return 0


#: Larger than any square: the key's ``a`` or ``b`` of a set that has none.
NONE = 1 << 30


@njit(nogil=True, cache=True)
def _key_first(sq, m, corner):
    """Smallest square ``s`` of ``sq[:m]`` (sorted) with ``corner[s]``, or :data:`NONE`
    (always, for an empty ``corner``)."""
    if corner.shape[0] == 0:
        return NONE
    for i in range(m):
        if corner[sq[i]]:
            return sq[i]
    return NONE


@njit(nogil=True, cache=True)
def _key_second(sq, m, u, lines):
    """Smallest square of ``sq[:m]`` (sorted) sharing a line (a row of ``lines``) with
    square ``u``, or :data:`NONE` (also when ``u`` < 0: no second square)."""
    if u < 0:
        return NONE
    for i in range(m):
        s = sq[i]
        for j in range(4):
            if lines[s, j] == lines[u, j]:
                return s
    return NONE


@njit(nogil=True, cache=True)
def orbit(sorted_set, images, work, corner, second, lines):
    """``(is_representative, orbit_size)`` of a sorted set of squares: whether it is the
    member of smallest key of its orbit under ``images`` (:func:`square_images`), and the
    orbit's size (8 over the order of its stabiliser; 0 when it is not the representative).

    The key is ``(a, b, sorted squares)``: ``a`` the set's smallest square ``s`` with
    ``corner[s]``, ``b`` its smallest square sharing a line (``lines[s]``: the square's
    four line ids) with square ``second[a]`` (-1: none); a missing ``a`` or ``b`` is
    :data:`NONE`. With an empty ``corner`` every ``a`` and ``b`` is :data:`NONE` and the
    key is the sorted squares alone. ``work``: int32 scratch of the set's length.
    """
    m = sorted_set.shape[0]
    a = _key_first(sorted_set, m, corner)
    u = second[a] if a < second.shape[0] else -1
    b = _key_second(sorted_set, m, u, lines)
    stabiliser = 1
    for g in range(1, images.shape[0]):
        for i in range(m):
            work[i] = images[g, sorted_set[i]]
        _insertion_sort(work, m)
        a2 = _key_first(work, m, corner)
        if a2 < a:
            return False, 0
        if a2 > a:
            continue
        b2 = _key_second(work, m, u, lines)
        if b2 < b:
            return False, 0
        if b2 > b:
            continue
        cmp = _compare(work, sorted_set, m)
        if cmp < 0:
            return False, 0
        if cmp == 0:
            stabiliser += 1
    return True, images.shape[0] // stabiliser


#: The tables of the plain key (:func:`orbit` with them: the sorted squares alone).
_PLAIN_CORNER = np.zeros(0, dtype=np.bool_)
_PLAIN_SECOND = np.zeros(0, dtype=np.int64)
_PLAIN_LINES = np.zeros((0, 4), dtype=np.uint16)


@njit(nogil=True, cache=True)
def set_orbit(sorted_set, images, work):
    """:func:`orbit` of a sorted set of squares with the plain key (its sorted squares):
    ``(is_representative, orbit_size)``."""
    return orbit(sorted_set, images, work, _PLAIN_CORNER, _PLAIN_SECOND, _PLAIN_LINES)


@njit(nogil=True, cache=True)
def _image_col(g, j, n, cols, inv):
    # Column in row j of the image of the placement under symmetry g.
    if g == 1:  # quarter turn clockwise: (r, c) -> (c, n-1-r)
        return n - 1 - inv[j]
    if g == 2:  # half turn
        return n - 1 - cols[n - 1 - j]
    if g == 3:  # three-quarter turn: (r, c) -> (n-1-c, r)
        return inv[n - 1 - j]
    if g == 4:  # left-right mirror
        return n - 1 - cols[j]
    if g == 5:  # top-bottom mirror
        return cols[n - 1 - j]
    if g == 6:  # transpose
        return inv[j]
    return n - 1 - inv[n - 1 - j]  # anti-transpose


@njit(nogil=True, cache=True)
def placement_is_representative(cols, inv, n):
    """True when ``cols`` (column of the queen in each row) is its class's smallest member.

    ``inv`` is the inverse permutation (row of the queen in each column).
    """
    for g in range(1, 8):
        for j in range(n):
            c = _image_col(g, j, n, cols, inv)
            if c < cols[j]:
                return False
            if c > cols[j]:
                break
    return True
