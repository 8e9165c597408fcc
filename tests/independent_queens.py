"""A second, independent count of dominating sets of queens below given search nodes.

Nothing here comes from ``knight.queens``: the cover table, the search, its bound and the
symmetry key are written again from the definitions (docs/conventions.md, "Queens"), so
that the class search's units can be checked unit by unit against another program.

A node is ``(chosen squares, forbidden squares)``: its completions are the sets of ``k``
queens holding every chosen square, no forbidden one, that cover the board. The search
is a plain depth-first search over bitboards (``W`` 64-bit words): it branches on the
uncovered square with the fewest allowed queens covering it, each queen tried in square
order and forbidden in its later siblings, and cuts a node when the ``r`` largest numbers
of uncovered squares any allowed queen covers (popcounts of bitboards) add up to less
than what is uncovered; a queen whose own number plus the ``r - 1`` largest falls short
starts no child. No other cut, no symmetry: every completion is listed.

:func:`representatives` then keeps the completions that are the class search's
representatives: a set's key is ``(a, b, sorted squares)`` with ``a`` its smallest square
covering square 0 (row 0, column 0, the main diagonal) and ``b`` its smallest square
covering the second square of ``a`` (:func:`second_squares`), and the representative of
a class is its member of smallest key.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def cover_table(n: int) -> np.ndarray:
    """uint64[n*n, W]: the squares a queen on each square covers (its own, row, column, diagonals)."""
    W = (n * n + 63) // 64
    out = np.zeros((n * n, W), dtype=np.uint64)
    for q in range(n * n):
        qr, qc = divmod(q, n)
        for s in range(n * n):
            r, c = divmod(s, n)
            if r == qr or c == qc or r - c == qr - qc or r + c == qr + qc:
                out[q, s // 64] |= np.uint64(1) << np.uint64(s % 64)
    return out


def bitboard(n: int, squares) -> np.ndarray:
    W = (n * n + 63) // 64
    out = np.zeros(W, dtype=np.uint64)
    for s in squares:
        out[int(s) // 64] |= np.uint64(1) << np.uint64(int(s) % 64)
    return out


@njit(cache=True)
def _popcount(x):
    """Set bits of a uint64 (the classic SWAR sum)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _count_bits(b):
    c = 0
    for w in range(b.shape[0]):
        c += _popcount(b[w])
    return c


@njit(cache=True)
def _largest(counts, r):
    """``(sum, smallest)`` of the ``r`` largest values of a multiset given as ``counts[v]``
    (how many times value ``v`` occurs), padded with zeros when it has fewer than ``r``:
    read off the histogram from the top value down."""
    total, taken, smallest = 0, 0, 0
    v = counts.shape[0] - 1
    while v > 0 and taken < r:
        c = min(counts[v], r - taken)
        if c > 0:
            total += c * v
            taken += c
            smallest = v
        v -= 1
    return total, (smallest if taken == r else 0)


@njit(cache=True)
def _search(n, k, cover, chosen, depth, uncovered, allowed, out, m):
    """List in ``out`` (from row ``m``) every completion of the node; return the new row count."""
    W = cover.shape[1]
    r = k - depth
    nu = _count_bits(uncovered)
    if nu == 0 and r == 0:
        if m < out.shape[0]:
            for i in range(k):
                out[m, i] = chosen[i]
        return m + 1
    if r == 0:
        return m
    if nu == 0:
        # Covered already: any r further allowed queens complete the set (rare; listed plainly).
        squares = np.empty(n * n, np.int64)
        a = 0
        for s in range(n * n):
            if (allowed[s // 64] >> np.uint64(s % 64)) & np.uint64(1):
                squares[a] = s
                a += 1
        idx = np.arange(r)
        if a < r:
            return m
        while True:
            if m < out.shape[0]:
                for i in range(depth):
                    out[m, i] = chosen[i]
                for i in range(r):
                    out[m, depth + i] = squares[idx[i]]
            m += 1
            j = r - 1
            while j >= 0 and idx[j] == a - r + j:
                j -= 1
            if j < 0:
                return m
            idx[j] += 1
            for i in range(j + 1, r):
                idx[i] = idx[i - 1] + 1
    # Gains of every allowed queen, counted by value; the bound.
    gains = np.zeros(n * n, np.int64)
    counts = np.zeros(nu + 1, np.int64)  # a gain is at most what is uncovered
    for q in range(n * n):
        if (allowed[q // 64] >> np.uint64(q % 64)) & np.uint64(1):
            g = 0
            for w in range(W):
                g += _popcount(cover[q, w] & uncovered[w])
            gains[q] = g
            counts[g] += 1
    total, smallest = _largest(counts, r)
    if total < nu:
        return m
    # A queen whose gain plus the r - 1 largest cannot cover the rest starts no child.
    need = nu - (total - smallest)
    # The uncovered square with the fewest allowed queens covering it.
    best, u = 1 << 30, -1
    for s in range(n * n):
        if (uncovered[s // 64] >> np.uint64(s % 64)) & np.uint64(1):
            c = 0
            for w in range(W):
                c += _popcount(cover[s, w] & allowed[w])  # the cover relation is symmetric
            if c < best:
                best, u = c, s
    if best == 0:
        return m
    here = allowed.copy()
    child_unc = np.empty(W, np.uint64)
    for q in range(n * n):
        if not ((cover[u, q // 64] >> np.uint64(q % 64)) & np.uint64(1)):
            continue
        if not ((here[q // 64] >> np.uint64(q % 64)) & np.uint64(1)):
            continue
        here[q // 64] &= ~(np.uint64(1) << np.uint64(q % 64))
        if gains[q] < need or (r == 1 and gains[q] != nu):
            continue
        chosen[depth] = q
        for w in range(W):
            child_unc[w] = uncovered[w] & ~cover[q, w]
        m = _search(n, k, cover, chosen, depth + 1, child_unc, here, out, m)
    return m


def completions(n: int, k: int, chosen, forbidden, cover=None) -> list[tuple[int, ...]]:
    """Every completion of the node (``chosen`` squares, ``forbidden`` a bitboard or a list
    of squares), as sorted tuples, sorted."""
    cover = cover_table(n) if cover is None else cover
    chosen = [int(s) for s in chosen]
    forbidden = np.asarray(forbidden)
    if forbidden.dtype != np.uint64:
        forbidden = bitboard(n, forbidden)
    W = cover.shape[1]
    full = bitboard(n, range(n * n))
    uncovered = full.copy()
    for q in chosen:
        uncovered &= ~cover[q]
    allowed = full & ~forbidden
    for q in chosen:
        allowed[q // 64] &= ~(np.uint64(1) << np.uint64(q % 64))
    buf = np.zeros(k, np.int64)
    buf[: len(chosen)] = chosen
    rows = 64
    while True:
        out = np.zeros((rows, k), np.int64)
        m = _search(n, k, cover, buf.copy(), len(chosen), uncovered[:W].copy(), allowed.copy(), out, 0)
        if m <= rows:
            return sorted(tuple(sorted(int(x) for x in row)) for row in out[:m])
        rows = 2 * m


def images(n: int, squares) -> list[tuple[int, ...]]:
    """The 8 images of a set under the symmetries of the square, each sorted."""
    m = n - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    ]
    out = []
    for g in maps:
        out.append(tuple(sorted(g(*divmod(s, n))[0] * n + g(*divmod(s, n))[1] for s in squares)))
    return out


def covers(n: int, q: int, s: int) -> bool:
    """A queen on ``q`` covers square ``s``."""
    (qr, qc), (r, c) = divmod(q, n), divmod(s, n)
    return r == qr or c == qc or r - c == qr - qc or r + c == qr + qc


def second_squares(n: int) -> dict[int, int]:
    """``{a: second square}`` for the root queens ``a`` of the class search: the squares
    covering square 0, in order, each but those in the orbit of an earlier one. Below
    ``a`` the squares allowed are those not in such an orbit, less ``a``; the second square
    is the square ``a`` leaves uncovered with the fewest allowed squares covering it (the
    first in square order of those)."""
    allowed = set(range(n * n))
    out = {}
    for a in range(n * n):
        if a not in allowed or not covers(n, a, 0):
            continue
        below = allowed - {a}
        best = None
        for s in range(n * n):
            if covers(n, a, s):
                continue
            count = sum(1 for q in below if covers(n, q, s))
            if best is None or count < best[0]:
                best = (count, s)
        if best is not None:
            out[a] = best[1]
        allowed -= {x for img in images(n, [a]) for x in img}
    return out


def key(n: int, squares, second: dict[int, int]) -> tuple:
    """``(a, b, sorted squares)`` of a set (module docstring)."""
    squares = sorted(squares)
    corner = [s for s in squares if covers(n, s, 0)]
    a = corner[0] if corner else 1 << 30
    u = second.get(a)
    cover_u = [s for s in squares if u is not None and covers(n, s, u)]
    return (a, cover_u[0] if cover_u else 1 << 30, tuple(squares))


def representatives(n: int, sets, second: dict[int, int] | None = None) -> list[tuple[tuple[int, ...], int]]:
    """``(set, orbit size)`` of each set that is its class's member of smallest key, sorted."""
    second = second_squares(n) if second is None else second
    out = []
    for s in sets:
        imgs = images(n, s)
        if min(imgs, key=lambda t: key(n, t, second)) == tuple(sorted(s)):
            out.append((tuple(sorted(s)), len(set(imgs))))
    return sorted(out)
