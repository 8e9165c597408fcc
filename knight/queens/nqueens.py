"""Every placement of ``n`` non-attacking queens on the ``n x n`` board (numba).

Row-by-row bitmask backtracking: bit ``c`` of ``cols``/``ld``/``rd`` marks a column or
diagonal already attacked in the current row. A placement is stored as ``cols[row]``.
The search is split by prefix (the columns of the first ``D`` rows); without kept
placements only the left half of row 0 is searched and mirrored (weight 2, the
middle column of an odd board weight 1). Every class representative lies in that half,
so classes are counted exactly by testing each visited placement.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knight.queens.bits import lowbit_index
from knight.queens.symmetry import placement_is_representative

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(nogil=True, cache=True)
def _descend(row, b, cols, ld, rd, avail, full):
    """Queen bit ``b`` placed on ``row``: attacked masks and free squares of ``row + 1``."""
    cols[row + 1] = cols[row] | b
    ld[row + 1] = ((ld[row] | b) << _ONE) & full
    rd[row + 1] = (rd[row] | b) >> _ONE
    avail[row + 1] = full & ~(cols[row + 1] | ld[row + 1] | rd[row + 1])


@njit(nogil=True, cache=True)
def _append_row(out, n_out, row):
    """Store ``row`` at ``out[n_out]``, doubling ``out`` when full; return ``out``."""
    if n_out == out.shape[0]:
        bigger = np.empty((2 * n_out + 16, out.shape[1]), dtype=out.dtype)
        bigger[:n_out] = out
        out = bigger
    out[n_out, :] = row
    return out


@njit(nogil=True, cache=True)
def _prefixes(n, depth, first_limit):
    """All valid ``depth``-row prefixes (row 0 in columns ``< first_limit``), in order."""
    full = (_ONE << np.uint64(n)) - _ONE
    cap = 64
    out = np.empty((cap, depth), dtype=np.int32)
    m = 0
    cols = np.zeros(depth + 1, dtype=np.uint64)
    ld = np.zeros(depth + 1, dtype=np.uint64)
    rd = np.zeros(depth + 1, dtype=np.uint64)
    avail = np.zeros(depth + 1, dtype=np.uint64)
    pos = np.zeros(depth + 1, dtype=np.int32)
    if depth == 0:
        return np.empty((1, 0), dtype=np.int32)
    avail[0] = ((_ONE << np.uint64(first_limit)) - _ONE) & full
    row = 0
    while True:
        if avail[row] == _ZERO:
            if row == 0:
                break
            row -= 1
            continue
        c = lowbit_index(avail[row])
        b = _ONE << c
        avail[row] ^= b
        pos[row] = np.int32(c)
        if row + 1 == depth:
            out = _append_row(out, m, pos[:depth])
            m += 1
            continue
        _descend(row, b, cols, ld, rd, avail, full)
        row += 1
    return out[:m]


@njit(nogil=True, cache=True)
def solve_prefixes(n, prefixes, mirror, keep):
    """Finish every prefix; return ``(solutions, classes, placements, nodes_visited)``.

    ``prefixes``: int32[m, D], valid partial placements. With ``mirror`` a prefix whose
    row-0 column is left of the middle counts twice (its mirror image is not searched).
    ``placements`` is int32[solutions, n] (``cols[row]``) when ``keep``, else empty.
    """
    D = prefixes.shape[1]
    full = (_ONE << np.uint64(n)) - _ONE
    cols = np.zeros(n + 1, dtype=np.uint64)
    ld = np.zeros(n + 1, dtype=np.uint64)
    rd = np.zeros(n + 1, dtype=np.uint64)
    avail = np.zeros(n + 1, dtype=np.uint64)
    pos = np.zeros(n, dtype=np.int32)
    inv = np.zeros(n, dtype=np.int32)
    out = np.empty((16 if keep else 0, n), dtype=np.int32)
    n_sol = 0
    n_cls = 0
    n_out = 0
    visited = 0
    for m in range(prefixes.shape[0]):
        cols[0] = _ZERO
        ld[0] = _ZERO
        rd[0] = _ZERO
        for row in range(D):
            c = prefixes[m, row]
            b = _ONE << np.uint64(c)
            pos[row] = c
            inv[c] = row
            _descend(row, b, cols, ld, rd, avail, full)
        weight = 1
        if mirror and D > 0 and 2 * prefixes[m, 0] + 1 < n:
            weight = 2
        row = D
        visited += 1
        if row == n:
            avail[row] = _ZERO
            n_sol += weight
            n_cls += placement_is_representative(pos, inv, n)
            if keep:
                out = _append_row(out, n_out, pos)
                n_out += 1
            continue
        avail[row] = full & ~(cols[row] | ld[row] | rd[row])
        while True:
            a = avail[row]
            if a == _ZERO:
                if row == D:
                    break
                row -= 1
                continue
            c = lowbit_index(a)
            b = _ONE << c
            avail[row] = a ^ b
            pos[row] = np.int32(c)
            inv[c] = row
            visited += 1
            if row == n - 1:
                n_sol += weight
                if placement_is_representative(pos, inv, n):
                    n_cls += 1
                if keep:
                    out = _append_row(out, n_out, pos)
                    n_out += 1
                continue
            _descend(row, b, cols, ld, rd, avail, full)
            row += 1
    return n_sol, n_cls, out[:n_out], visited


def first_row_limit(n: int, mirror: bool) -> int:
    """Columns of row 0 searched: the left half and the middle with ``mirror``, else all."""
    return (n + 1) // 2 if mirror else n


def prefixes(n: int, target: int, mirror: bool) -> np.ndarray:
    """Prefixes of the shallowest depth (1..n) with at least ``target`` of them."""
    limit = first_row_limit(n, mirror)
    out = _prefixes(n, 1, limit)
    for depth in range(2, n + 1):
        if out.shape[0] >= target:
            break
        nxt = _prefixes(n, depth, limit)
        if nxt.shape[0] == 0:  # no placement reaches this depth: keep the dead prefixes
            break
        out = nxt
    return out


def solve(n: int, prefix_batch: np.ndarray, mirror: bool, keep: bool):
    """Finish a batch of prefixes: ``(solutions, classes, placements, nodes_visited)``."""
    return solve_prefixes(n, np.ascontiguousarray(prefix_batch, dtype=np.int32), mirror, keep)


def solve_all(n: int, keep: bool = False):
    """The whole search in one call on this thread (mirrored unless ``keep``)."""
    mirror = not keep
    return solve(n, _prefixes(n, 1, first_row_limit(n, mirror)), mirror, keep)
