"""Queens up to the 8 symmetries of the square board.

A solution's class is its orbit under the 8 symmetries; its representative is the
orbit member that is smallest as a sorted tuple of square indices (for a set of
queens) or as the tuple ``cols[row]`` (for a non-attacking placement; the two orders
agree on placements). Classes are counted as the number of representatives found.
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


@njit(nogil=True, cache=True)
def set_orbit(sorted_set, images, work):
    """``(is_representative, orbit_size)`` of a sorted set of squares.

    ``images`` is :func:`square_images`; ``work`` a scratch int32 array of the set's length.
    """
    m = sorted_set.shape[0]
    stabiliser = 1
    for g in range(1, images.shape[0]):
        for i in range(m):
            work[i] = images[g, sorted_set[i]]
        _insertion_sort(work, m)
        cmp = _compare(work, sorted_set, m)
        if cmp < 0:
            return False, 0
        if cmp == 0:
            stabiliser += 1
    return True, images.shape[0] // stabiliser


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
