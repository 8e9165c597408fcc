"""Every placement of ``n`` non-attacking queens on the ``n x n`` board (numba).

Row-by-row bitmask backtracking: bit ``c`` of ``cols``/``ld``/``rd`` marks a column or
diagonal already attacked in the current row. A placement is stored as ``cols[row]``.
The search is split by prefix (the columns of the first ``D`` rows).

Counting (:func:`count_prefixes`): only the left half of row 0 is searched and
mirrored (weight 2; the middle column of an odd board weight 1), and the last two rows
are counted in closed form (:func:`_last_two`): the queens of row n - 2 are counted as
nodes but not placed one by one, and row n - 1 is never visited. Classes follow from Burnside's lemma without looking
at any placement twice: no placement is its own mirror image in a mirror or a
diagonal (n > 1), so classes = (Q + P + 2 R) / 8 with Q all placements, P those
unchanged by the half turn and R those unchanged by the quarter turn, which
:func:`count_invariant` counts by placing whole orbits of squares.

Keeping the placements (:func:`solve_prefixes`) searches all of row 0 and tests
each placement for being its class's representative.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knight.queens.bits import lowbit_index, popcount
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


@njit(nogil=True, cache=True)
def _last_two(cols, ld, rd, avail, full):
    """``(placements, nodes)`` below a partial placement whose next free row is row n - 2.

    ``cols``, ``ld``, ``rd``: the attacked masks of row n - 2, ``avail`` its free squares.
    A queen on ``b`` in ``avail`` leaves the squares ``A`` minus ``b``, ``b << 1`` and
    ``b >> 1`` free on row n - 1, where ``A`` is row n - 1's free squares without her;
    summed over ``b``: ``|avail| |A| - |avail & A| - |(avail << 1) & A| - |(avail >> 1) & A|``.
    No loop over the queens of row n - 2 (each still counts as a node visited).
    """
    k = popcount(avail)
    a = full & ~(cols | (ld << _ONE) | (rd >> _ONE))
    pairs = k * popcount(a) - popcount(avail & a) - popcount((avail << _ONE) & a) - popcount((avail >> _ONE) & a)
    return np.int64(pairs), np.int64(k)


@njit(nogil=True, cache=True)
def _start(prefix, full):
    """Attacked masks ``(cols, ld, rd)`` of the row below a prefix (int32 columns)."""
    cols = _ZERO
    ld = _ZERO
    rd = _ZERO
    for row in range(prefix.shape[0]):
        b = _ONE << np.uint64(prefix[row])
        cols |= b
        ld = ((ld | b) << _ONE) & full
        rd = (rd | b) >> _ONE
    return cols, ld, rd


@njit(nogil=True, cache=True)
def _count_below(n, D, cols, ld, rd):
    """``(placements, nodes)`` below a valid ``D``-row prefix with attacked masks
    ``cols, ld, rd`` on row ``D`` (``D <= n - 3``), the prefix itself not counted as a node.

    Depth-first with the current row's masks in registers and the rows above on a
    stack; rows n - 2 and n - 1 by :func:`_last_two`.
    """
    full = (_ONE << np.uint64(n)) - _ONE
    stack = np.empty((n, 4), dtype=np.uint64)
    avail = full & ~(cols | ld | rd)
    count = 0
    visited = 0
    depth = 0
    last = n - 3 - D  # the depth of row n - 3
    while True:
        if depth == last:
            while avail != _ZERO:
                b = avail & (_ZERO - avail)
                avail ^= b
                c = cols | b
                left = (ld | b) << _ONE
                right = (rd | b) >> _ONE
                pairs, nodes = _last_two(c, left, right, full & ~(c | left | right), full)
                count += pairs
                visited += 1 + nodes
        if avail == _ZERO:
            if depth == 0:
                return count, visited
            depth -= 1
            k = np.uint64(depth)
            cols = stack[k, 0]
            ld = stack[k, 1]
            rd = stack[k, 2]
            avail = stack[k, 3]
            continue
        b = avail & (_ZERO - avail)
        avail ^= b
        visited += 1
        k = np.uint64(depth)
        stack[k, 0] = cols
        stack[k, 1] = ld
        stack[k, 2] = rd
        stack[k, 3] = avail
        depth += 1
        cols |= b
        ld = (ld | b) << _ONE
        rd = (rd | b) >> _ONE
        avail = full & ~(cols | ld | rd)


@njit(nogil=True, cache=True)
def count_prefixes(n, prefixes, mirror):
    """``(placements, nodes)`` below the valid prefixes (int32[m, D]); see the module docstring.

    With ``mirror`` a prefix whose row-0 column is left of the middle counts twice.
    ``nodes`` counts the partial placements visited (the last row is not visited).
    """
    D = prefixes.shape[1]
    full = (_ONE << np.uint64(n)) - _ONE
    total = 0
    visited = 0
    for m in range(prefixes.shape[0]):
        cols, ld, rd = _start(prefixes[m], full)
        avail = full & ~(cols | ld | rd)
        weight = 1
        if mirror and D > 0 and 2 * prefixes[m, 0] + 1 < n:
            weight = 2
        visited += 1
        if D == n:
            count, nodes = 1, 0
        elif D == n - 1:
            count, nodes = np.int64(popcount(avail)), 0
        elif D == n - 2:
            count, nodes = _last_two(cols, ld, rd, avail, full)
        else:
            count, nodes = _count_below(n, D, cols, ld, rd)
        total += weight * count
        visited += nodes
    return total, visited


@njit(nogil=True, cache=True)
def count_invariant(n, quarter):
    """Placements unchanged by the quarter turn (``quarter``) or else by the half turn.

    Rows are filled in order; a queen on the first empty row brings its whole orbit
    under the turn (2 or 4 squares, 1 at the centre), all of which must be free.
    """
    full = (_ONE << np.uint64(n)) - _ONE
    cols = np.zeros(n + 1, dtype=np.uint64)
    rows = np.zeros(n + 1, dtype=np.uint64)
    dg = np.zeros(n + 1, dtype=np.uint64)  # bit r - c + n - 1
    an = np.zeros(n + 1, dtype=np.uint64)  # bit r + c
    nextc = np.zeros(n + 1, dtype=np.int64)
    rowat = np.zeros(n + 1, dtype=np.int64)
    orb_r = np.zeros(4, dtype=np.int64)
    orb_c = np.zeros(4, dtype=np.int64)
    count = 0
    level = 0
    rowat[0] = 0
    nextc[0] = 0
    while True:
        if rows[level] == full:
            count += 1
            level -= 1
            if level < 0:
                break
            continue
        r = rowat[level]
        c = nextc[level]
        if c >= n:
            level -= 1
            if level < 0:
                break
            continue
        nextc[level] = c + 1
        # The orbit of (r, c): quarter turn (r, c) -> (c, n-1-r); half turn (n-1-r, n-1-c).
        m = 0
        rr, cc = r, c
        for _ in range(4 if quarter else 2):
            dup = False
            for i in range(m):
                if orb_r[i] == rr and orb_c[i] == cc:
                    dup = True
            if not dup:
                orb_r[m] = rr
                orb_c[m] = cc
                m += 1
            if quarter:
                rr, cc = cc, n - 1 - rr
            else:
                rr, cc = n - 1 - rr, n - 1 - cc
        ok = True
        rs, cs, ds, as_ = rows[level], cols[level], dg[level], an[level]
        for i in range(m):
            br = _ONE << np.uint64(orb_r[i])
            bc = _ONE << np.uint64(orb_c[i])
            bd = _ONE << np.uint64(orb_r[i] - orb_c[i] + n - 1)
            ba = _ONE << np.uint64(orb_r[i] + orb_c[i])
            if (rs & br) | (cs & bc) | (ds & bd) | (as_ & ba) != _ZERO:
                ok = False
                break
            rs |= br
            cs |= bc
            ds |= bd
            as_ |= ba
        if not ok:
            continue
        level += 1
        rows[level] = rs
        cols[level] = cs
        dg[level] = ds
        an[level] = as_
        nxt = 0
        while nxt < n and (rs >> np.uint64(nxt)) & _ONE:
            nxt += 1
        rowat[level] = nxt
        nextc[level] = 0
    return count


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
    """Finish a batch of prefixes: ``(solutions, classes, placements, nodes_visited)``.

    Without ``keep`` classes are not counted here (0): see :func:`classes`."""
    batch = np.ascontiguousarray(prefix_batch, dtype=np.int32)
    if keep:
        return solve_prefixes(n, batch, mirror, keep)
    total, visited = count_prefixes(n, batch, mirror)
    return total, 0, np.empty((0, n), dtype=np.int32), visited


def classes(n: int, placements: int) -> int:
    """Classes under the 8 symmetries of ``placements`` placements (Burnside, module docstring)."""
    if n == 1:
        return 1
    fixed = placements + count_invariant(n, False) + 2 * count_invariant(n, True)
    if fixed % 8:
        raise RuntimeError(f"n={n}: {placements} placements give a non-integer class count")
    return fixed // 8


def solve_all(n: int, keep: bool = False):
    """The whole search in one call on this thread (mirrored and counted unless ``keep``)."""
    mirror = not keep
    out = solve(n, _prefixes(n, 1, first_row_limit(n, mirror)), mirror, keep)
    if keep:
        return out
    return out[0], classes(n, out[0]), out[2], out[3]
