"""The class search of :mod:`knight.queens.orbits` as it was before its kernels were split
(main at e7d978c): the yardstick of ``benchmarks/bench_baselines.py``. Not used by the library.

Kept byte for byte apart from this docstring and the helpers it imports from the library
(bit helpers and symmetry tables, unchanged), so that the benchmark compares the old
kernel's code with the new one in one process.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from knight.queens.bits import (
    full_board,
    keep_largest,
    lowbit_index,
    pop_lowest,
    popcount,
    queen_cover,
    words,
)
from knight.queens.symmetry import _compare, _insertion_sort, square_images

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# Pruning ideas, as bits of ``opts`` (each measured by ``benchmarks/bench_queens.py --pruning``).
#: Branch on the uncovered square with the fewest allowed queens (else the first one).
FEWEST = 1
#: Cut a node with two queens left when its two best queens cannot cover the rest.
BOUND_TWO = 2
#: The same bound with three or more queens left (it also feeds CHILD_CUT).
BOUND_MORE = 4
#: Line bound: the r fullest lines of each of the four families must hold the rest.
BOUND_LINES = 8
#: Skip a candidate whose own gain plus the r - 1 best gains cannot cover the rest.
CHILD_CUT = 16
#: Sharpen the child cut: the parent's best queens lose what the child's queen covers
#: (needs BOUND_MORE, which finds those queens).
CHILD_OVERLAP = 32
#: How many of a node's best queens CHILD_OVERLAP keeps.
TOP_KEPT = 24
#: The ideas that paid (the others measured slower or cut nothing more).
DEFAULT_OPTS = FEWEST | BOUND_TWO | BOUND_MORE | CHILD_CUT | CHILD_OVERLAP


@lru_cache(maxsize=64)
def line_table(n: int) -> np.ndarray:
    """``int32[n*n, 4]``: the line ids of each square: row ``r``, column ``n + c``,
    diagonal ``2n + (r - c + n - 1)``, anti-diagonal ``4n - 1 + (r + c)`` (``6n - 2`` lines)."""
    r, c = np.divmod(np.arange(n * n), n)
    table = np.stack([r, n + c, 2 * n + (r - c + n - 1), 4 * n - 1 + (r + c)], axis=1).astype(np.int32)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def orbit_boards(n: int) -> np.ndarray:
    """``uint64[n*n, W]``: bitboard of each square's orbit under the 8 symmetries."""
    images = square_images(n)
    out = np.zeros((n * n, words(n)), dtype=np.uint64)
    for s in range(n * n):
        for t in set(images[:, s].tolist()):
            out[s, t // 64] |= np.uint64(1) << np.uint64(t % 64)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def corner_cover(n: int) -> np.ndarray:
    """``bool[n*n]``: the square covers square 0 (row 0, column 0 or the main diagonal)."""
    r, c = np.divmod(np.arange(n * n), n)
    out = (r == 0) | (c == 0) | (r == c)
    out.flags.writeable = False
    return out


@njit(nogil=True, cache=True)
def _has(b, s):
    return (b[s >> 6] >> np.uint64(s & 63)) & _ONE


@njit(nogil=True, cache=True)
def _drop(d, s, allowed, ca, lines):
    """Forbid square ``s`` at depth ``d`` (it must be allowed there)."""
    allowed[d, s >> 6] ^= _ONE << np.uint64(s & 63)
    for j in range(4):
        ca[d, lines[s, j]] -= 1


@njit(nogil=True, cache=True)
def _gain(d, q, cu, unc, lines):
    """Uncovered squares (at depth ``d``) that a queen on ``q`` would cover."""
    g = cu[d, lines[q, 0]] + cu[d, lines[q, 1]] + cu[d, lines[q, 2]] + cu[d, lines[q, 3]]
    if _has(unc[d], q):
        g -= 3
    return g


@njit(nogil=True, cache=True)
def _child_fails(d, q, g, k, cover, unc, allowed, n_unc, tq, tg, best):
    """CHILD_OVERLAP: True when the ``r - 1`` queens after ``q`` (gain ``g``) cannot cover
    what ``q`` leaves: the node's kept best queens lose their overlap with ``q``, the
    others gain at most the smallest kept gain."""
    W = unc.shape[1]
    rr = k - d - 1
    T = tq.shape[1]
    for i in range(rr):
        best[i] = tg[d, T - 1]
    for i in range(T):
        x = tq[d, i]
        if x < 0 or x == q or not _has(allowed[d], x):
            continue
        lost = 0
        for w in range(W):
            lost += popcount(cover[x, w] & cover[q, w] & unc[d, w])
        gx = tg[d, i] - np.int64(lost)
        keep_largest(best, rr, gx)
    tot = 0
    for i in range(rr):
        tot += best[i]
    return tot < n_unc[d] - g


@njit(nogil=True, cache=True)
def _key_first(sq, m, corner):
    """Smallest square of ``sq[:m]`` covering square 0 (``sq`` sorted), or a large number."""
    for i in range(m):
        if corner[sq[i]]:
            return sq[i]
    return 1 << 30


@njit(nogil=True, cache=True)
def classify(chosen, k, images, corner, scratch, work):
    """``(is_representative, orbit_size)`` of the set ``chosen[:k]`` (any order).

    The representative is the orbit member with the smallest ``(a, sorted squares)``
    key (module docstring). ``scratch``/``work``: int32[k] buffers; ``scratch`` is left
    holding the sorted set.
    """
    for i in range(k):
        scratch[i] = chosen[i]
    _insertion_sort(scratch, k)
    a = _key_first(scratch, k, corner)
    stab = 1
    for g in range(1, images.shape[0]):
        for i in range(k):
            work[i] = images[g, scratch[i]]
        _insertion_sort(work, k)
        b = _key_first(work, k, corner)
        if b < a:
            return False, 0
        if b > a:
            continue
        cmp = _compare(work, scratch, k)
        if cmp < 0:
            return False, 0
        if cmp == 0:
            stab += 1
    return True, images.shape[0] // stab


@njit(nogil=True, cache=True)
def _record(chosen, k, images, corner, scratch, work, sym, keep, reps, orbits, n_cls):
    """Account for the set ``chosen[:k]``: ``(solutions added, classes added, reps, orbits)``."""
    rep, size = classify(chosen, k, images, corner, scratch, work)
    ds = 1
    if sym:
        ds = size if rep else 0
    if rep and keep:
        reps = _grow(reps, n_cls)
        orbits = _grow(orbits, n_cls)
        reps[n_cls, :] = scratch
        orbits[n_cls, 0] = size
    return ds, 1 if rep else 0, reps, orbits


@njit(nogil=True, cache=True)
def _grow(out, m):
    if m < out.shape[0]:
        return out
    bigger = np.empty((2 * out.shape[0] + 16, out.shape[1]), dtype=out.dtype)
    bigger[: out.shape[0]] = out
    return bigger


@njit(nogil=True, cache=True)
def _expand(d, k, cover, lines, unc, allowed, cu, ca, n_unc, cand, top, need, tq, tg, opts):
    """Prepare depth ``d``; set ``cand[d]``. Returns 0 dead, 1 branch, 2 last queen, 3 done,
    4 two queens left.

    1 and 4: ``cand[d]`` holds the queens to try. 2: one queen left; ``cand[d]`` holds
    the queens that cover every uncovered square. 3: ``k`` queens and nothing uncovered.
    """
    W = unc.shape[1]
    r = k - d
    nu = n_unc[d]
    need[d] = -(1 << 30)
    if nu == 0:
        if r == 0:
            return 3
        avail = 0
        for w in range(W):
            cand[d, w] = allowed[d, w]
            avail += popcount(allowed[d, w])
        return 1 if avail >= r else 0
    if r == 0:
        return 0
    # Branching square: square 0 at the root, else the fewest allowed queens covering it.
    u = -1
    if (d == 0 and _has(unc[0], 0)) or (opts & FEWEST) == 0:
        for w in range(W):
            if unc[d, w] != _ZERO:
                u = 64 * w + np.int64(lowbit_index(unc[d, w]))
                break
    else:
        best = 1 << 30
        for w in range(W):
            x = unc[d, w]
            while x != _ZERO:
                s = 64 * w + np.int64(lowbit_index(x))
                x &= x - _ONE
                c = ca[d, lines[s, 0]] + ca[d, lines[s, 1]] + ca[d, lines[s, 2]] + ca[d, lines[s, 3]]
                if _has(allowed[d], s):
                    c -= 3
                if c < best:
                    best = c
                    u = s
                    if c == 0:
                        return 0
    if r == 1:
        any_q = False
        for w in range(W):
            x = cover[u, w] & allowed[d, w]
            keep = _ZERO
            while x != _ZERO:
                q = 64 * w + np.int64(lowbit_index(x))
                b = x & (_ZERO - x)
                x ^= b
                if _gain(d, q, cu, unc, lines) == nu:
                    keep |= b
            cand[d, w] = keep
            if keep != _ZERO:
                any_q = True
        return 2 if any_q else 0
    if opts & BOUND_LINES:
        # Line bound: r queens lie on at most r lines of each family; the r fullest
        # rows, columns, diagonals and anti-diagonals must hold the nu squares.
        n = (cu.shape[1] + 2) // 6
        tot = 0
        for fam in range(4):
            lo = 0 if fam == 0 else (n if fam == 1 else (2 * n if fam == 2 else 4 * n - 1))
            hi = n if fam == 0 else (2 * n if fam == 1 else (4 * n - 1 if fam == 2 else 6 * n - 2))
            for i in range(r):
                top[i] = 0
            for j in range(lo, hi):
                g = cu[d, j]
                keep_largest(top, r, g)
            for i in range(r):
                tot += top[i]
        if tot < nu:
            return 0
    # Bound: the r best allowed queens must be able to cover the nu uncovered squares.
    if (r == 2 and (opts & BOUND_TWO) == 0) or (r > 2 and (opts & BOUND_MORE) == 0):
        for w in range(W):
            cand[d, w] = cover[u, w] & allowed[d, w]
        return 4 if r == 2 else 1
    for i in range(r):
        top[i] = 0
    T = tq.shape[1] if (r > 2 and (opts & CHILD_OVERLAP)) else 0
    for i in range(T):
        tq[d, i] = -1
        tg[d, i] = 0
    for w in range(W):
        x = allowed[d, w]
        while x != _ZERO:
            q = 64 * w + np.int64(lowbit_index(x))
            x &= x - _ONE
            g = _gain(d, q, cu, unc, lines)
            keep_largest(top, r, g)
            if T > 0 and g > tg[d, T - 1]:
                i = T - 1
                while i > 0 and tg[d, i - 1] < g:
                    tg[d, i] = tg[d, i - 1]
                    tq[d, i] = tq[d, i - 1]
                    i -= 1
                tg[d, i] = g
                tq[d, i] = q
    s = 0
    for i in range(r):
        s += top[i]
    if s < nu:
        return 0
    # A child's queen must leave no more than its r - 1 successors can cover.
    need[d] = nu - (s - top[r - 1])
    for w in range(W):
        cand[d, w] = cover[u, w] & allowed[d, w]
    return 4 if r == 2 else 1


@njit(nogil=True, cache=True)
def _descend(d, q, cover, lines, unc, allowed, cu, ca, n_unc):
    """Depth ``d + 1`` after queen ``q``: inherits depth ``d`` less what ``q`` covers."""
    W = unc.shape[1]
    L = cu.shape[1]
    for j in range(L):
        cu[d + 1, j] = cu[d, j]
        ca[d + 1, j] = ca[d, j]
    gone = 0
    for w in range(W):
        allowed[d + 1, w] = allowed[d, w]
        x = unc[d, w] & cover[q, w]
        unc[d + 1, w] = unc[d, w] ^ x
        while x != _ZERO:
            s = 64 * w + np.int64(lowbit_index(x))
            x &= x - _ONE
            gone += 1
            for j in range(4):
                cu[d + 1, lines[s, j]] -= 1
    n_unc[d + 1] = n_unc[d] - gone


@njit(nogil=True, cache=True)
def run(cover, full, lines, images, corner, orbit, k, sym, node_chosen, node_forb, stop, keep, opts):
    """Finish the nodes, or (``stop`` > 0) list the live nodes at depth ``stop``.

    ``node_chosen``: int32[m, D] squares already chosen; ``node_forb``: uint64[m, W]
    squares not to choose below the node. Returns ``(solutions, classes, nodes, reps,
    orbits, next_chosen, next_forb)``: ``reps`` int32[classes, k] (sorted squares) and
    ``orbits`` int32[classes] when ``keep``; ``next_*`` the nodes at depth ``stop``.
    With ``sym``, solutions are orbit sizes summed over representatives.
    """
    W = full.shape[0]
    L = 1 + lines.max()
    D = node_chosen.shape[1]
    unc = np.zeros((k + 1, W), dtype=np.uint64)
    allowed = np.zeros((k + 1, W), dtype=np.uint64)
    cand = np.zeros((k + 1, W), dtype=np.uint64)
    cu = np.zeros((k + 1, L), dtype=np.int32)
    ca = np.zeros((k + 1, L), dtype=np.int32)
    n_unc = np.zeros(k + 1, dtype=np.int64)
    top = np.zeros(k + 1, dtype=np.int64)
    need = np.zeros(k + 1, dtype=np.int64)
    tq = np.zeros((k + 1, TOP_KEPT), dtype=np.int64)
    tg = np.zeros((k + 1, TOP_KEPT), dtype=np.int64)
    best = np.zeros(k + 1, dtype=np.int64)
    chosen = np.zeros(k, dtype=np.int32)
    scratch = np.zeros(k, dtype=np.int32)
    work = np.zeros(k, dtype=np.int32)
    reps = np.empty((16 if keep else 0, k), dtype=np.int32)
    orbits = np.empty((16 if keep else 0, 1), dtype=np.int32)
    depth_out = stop if stop > 0 else 1
    next_c = np.empty((64 if stop > 0 else 0, depth_out), dtype=np.int32)
    next_f = np.empty((64 if stop > 0 else 0, W), dtype=np.uint64)
    n_next = 0
    n_sol = 0
    n_cls = 0
    visited = 0
    for m in range(node_chosen.shape[0]):
        # Node state at depth D, from scratch.
        for j in range(L):
            cu[D, j] = 0
            ca[D, j] = 0
        nu = 0
        for w in range(W):
            c = _ZERO
            for i in range(D):
                c |= cover[node_chosen[m, i], w]
            unc[D, w] = full[w] & ~c
            allowed[D, w] = full[w] & ~node_forb[m, w]
            x = unc[D, w]
            while x != _ZERO:
                s = 64 * w + np.int64(lowbit_index(x))
                x &= x - _ONE
                nu += 1
                for j in range(4):
                    cu[D, lines[s, j]] += 1
            x = allowed[D, w]
            while x != _ZERO:
                s = 64 * w + np.int64(lowbit_index(x))
                x &= x - _ONE
                for j in range(4):
                    ca[D, lines[s, j]] += 1
        n_unc[D] = nu
        for i in range(D):
            chosen[i] = node_chosen[m, i]
        d = D
        last_root = -1
        visited += 1
        state = _expand(d, k, cover, lines, unc, allowed, cu, ca, n_unc, cand, top, need, tq, tg, opts)
        if state == 0:
            continue
        while True:
            if state == 4:
                # Two queens left: each candidate, then every queen covering the rest.
                while True:
                    q = pop_lowest(cand, d)
                    if q < 0:
                        break
                    allowed[d, q >> 6] ^= _ONE << np.uint64(q & 63)
                    if (opts & CHILD_CUT) and _gain(d, q, cu, unc, lines) < need[d]:
                        continue
                    chosen[d] = q
                    # The second queen covers the squares ``q`` leaves: it lies on the
                    # lines of the first of them (a) and of the first off a's lines (b).
                    a = -1
                    for w in range(W):
                        rest = unc[d, w] & ~cover[q, w]
                        if rest != _ZERO:
                            a = 64 * w + np.int64(lowbit_index(rest))
                            break
                    b = -1
                    if a >= 0:
                        for w in range(W):
                            rest = unc[d, w] & ~cover[q, w] & ~cover[a, w]
                            if rest != _ZERO:
                                b = 64 * w + np.int64(lowbit_index(rest))
                                break
                    u2 = a
                    for w in range(W):
                        x = allowed[d, w]
                        if a >= 0:
                            x &= cover[a, w]
                        if b >= 0:
                            x &= cover[b, w]
                        while x != _ZERO:
                            q2 = 64 * w + np.int64(lowbit_index(x))
                            x &= x - _ONE
                            ok = True
                            if u2 >= 0:
                                for v in range(W):
                                    if unc[d, v] & ~cover[q, v] & ~cover[q2, v] != _ZERO:
                                        ok = False
                                        break
                            if ok:
                                chosen[d + 1] = q2
                                ds, dc, reps, orbits = _record(
                                    chosen, k, images, corner, scratch, work, sym, keep, reps, orbits, n_cls
                                )
                                n_sol += ds
                                n_cls += dc
                visited += 1
                if d == D:
                    break
                d -= 1
                state = 1
                continue
            if state == 3 or state == 2:
                # Record: the finished set, or each last queen covering everything.
                while True:
                    if state == 2:
                        q = pop_lowest(cand, d)
                        if q < 0:
                            break
                        chosen[d] = q
                    ds, dc, reps, orbits = _record(
                        chosen, k, images, corner, scratch, work, sym, keep, reps, orbits, n_cls
                    )
                    n_sol += ds
                    n_cls += dc
                    if state == 3:
                        break
                if d == D:
                    break
                d -= 1
                state = 1
                continue
            if sym and d == 0 and last_root >= 0:
                # Later root siblings may not hold any image of the queen just tried.
                for w in range(W):
                    x = allowed[0, w] & orbit[last_root, w]
                    while x != _ZERO:
                        s = 64 * w + np.int64(lowbit_index(x))
                        x &= x - _ONE
                        _drop(0, s, allowed, ca, lines)
                    cand[0, w] &= ~orbit[last_root, w]
            q = pop_lowest(cand, d)
            if q < 0:
                if d == D:
                    break
                d -= 1
                continue
            if d == 0:
                last_root = q
            _drop(d, q, allowed, ca, lines)
            if opts & CHILD_CUT:
                g = _gain(d, q, cu, unc, lines)
                if g < need[d]:
                    continue
                if (
                    (opts & CHILD_OVERLAP)
                    and (opts & BOUND_MORE)
                    and k - d > 2
                    and n_unc[d] > 0
                    and _child_fails(d, q, g, k, cover, unc, allowed, n_unc, tq, tg, best)
                ):
                    continue
            chosen[d] = q
            _descend(d, q, cover, lines, unc, allowed, cu, ca, n_unc)
            visited += 1
            if d + 1 == stop:
                nxt = _expand(d + 1, k, cover, lines, unc, allowed, cu, ca, n_unc, cand, top, need, tq, tg, opts)
                if nxt != 0:
                    next_c = _grow(next_c, n_next)
                    next_f = _grow(next_f, n_next)
                    for i in range(stop):
                        next_c[n_next, i] = chosen[i]
                    for w in range(W):
                        next_f[n_next, w] = full[w] & ~allowed[d + 1, w]
                    n_next += 1
                state = 1
                continue
            d += 1
            state = _expand(d, k, cover, lines, unc, allowed, cu, ca, n_unc, cand, top, need, tq, tg, opts)
            if state == 0:
                d -= 1
                state = 1
    return (n_sol, n_cls, visited, reps[:n_cls], orbits[:n_cls, 0], next_c[:n_next], next_f[:n_next])


def tables(n: int):
    """The per-board tables :func:`run` takes after ``cover, full``."""
    return (queen_cover(n), full_board(n), line_table(n), square_images(n), corner_cover(n), orbit_boards(n))
