"""Every set of ``k`` queens that dominates the ``n x n`` board: numba bitboard search.

The enumeration of every set, kept as the independent check of the class search
(:mod:`knight.queens.orbits`): it shares only the cover table with it.

The search picks queens one at a time. At each node it branches only on the queens
that cover the first uncovered square (row-major); trying them in square order and
forbidding the ones already tried in later siblings makes every set appear exactly
once. A node is cut when the ``r`` queens left cannot cover the uncovered squares even
by the most optimistic count (the sum of the ``r`` largest numbers of uncovered
squares any allowed queen covers). When everything is covered before ``k`` queens are
placed, the remaining queens go on any allowed squares (every superset dominates).

Nodes are ``(chosen squares, forbidden bitboard)``; :func:`frontier` expands the tree
to a fixed depth and :func:`solve_nodes` finishes a batch of such nodes, so the
search can be split into independent tasks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knight.queens.bits import full_board, keep_largest, lowbit_index, pop_lowest, popcount, queen_cover
from knight.queens.symmetry import _insertion_sort, set_orbit, square_images

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(nogil=True, cache=True)
def _bit(q):
    return _ONE << np.uint64(q & 63)


@njit(nogil=True, cache=True)
def _record(chosen, k, images, scratch, work, out, n_out, keep):
    """Sort the set, test whether it represents its class; append it to ``out`` if ``keep``."""
    for i in range(k):
        scratch[i] = chosen[i]
    _insertion_sort(scratch, k)
    rep, _ = set_orbit(scratch, images, work)
    if keep:
        if n_out >= out.shape[0]:
            bigger = np.empty((2 * out.shape[0] + 16, k), dtype=np.int32)
            bigger[: out.shape[0]] = out
            out = bigger
        out[n_out, :] = scratch
    return rep, out


@njit(nogil=True, cache=True)
def _expand(d, k, cover, full, cov, forb, cand, uncov, top):
    """Prepare depth ``d``: set ``cand[d]``; return 0 (dead), 1 (expand), 2 (leaf), 3 (solution).

    2: one queen left and something uncovered: ``cand[d]`` holds the queens covering
    the first uncovered square, ``uncov`` the uncovered squares. 3: all ``k`` queens
    placed and everything covered.
    """
    W = full.shape[0]
    r = k - d
    n_unc = 0
    for w in range(W):
        uncov[w] = full[w] & ~cov[d, w]
        n_unc += popcount(uncov[w])
    if n_unc == 0:
        # Dominated already: the r queens left go on any allowed squares.
        if r == 0:
            return 3
        avail = 0
        for w in range(W):
            cand[d, w] = full[w] & ~forb[d, w]
            avail += popcount(cand[d, w])
        return 1 if avail >= r else 0
    if r == 0:
        return 0
    u = -1
    for w in range(W):
        if uncov[w] != _ZERO:
            u = 64 * w + np.int64(lowbit_index(uncov[w]))
            break
    any_cand = False
    for w in range(W):
        cand[d, w] = cover[u, w] & ~forb[d, w]
        if cand[d, w] != _ZERO:
            any_cand = True
    if not any_cand:
        return 0
    if r == 1:
        return 2
    # Bound: the r best allowed queens must be able to cover n_unc squares.
    for i in range(r):
        top[i] = 0
    for w in range(W):
        allowed = full[w] & ~forb[d, w]
        while allowed != _ZERO:
            q = 64 * w + np.int64(lowbit_index(allowed))
            allowed &= allowed - _ONE
            g = 0
            for v in range(W):
                g += popcount(cover[q, v] & uncov[v])
            keep_largest(top, r, g)
    s = 0
    for i in range(r):
        s += top[i]
    return 1 if s >= n_unc else 0


@njit(nogil=True, cache=True)
def _search_state(k, W):
    """Per-depth bitboards (covered, forbidden, candidates; k+1 x W words), the uncovered
    scratch word array, the bound's top counts and the chosen squares, all zero."""
    return (
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros(W, dtype=np.uint64),
        np.zeros(k + 1, dtype=np.int64),
        np.zeros(k, dtype=np.int32),
    )


@njit(nogil=True, cache=True)
def _choose(d, q, cover, cov, forb, chosen):
    """Put queen ``q`` at depth ``d``: later siblings may not use it; depth d+1 inherits
    the coverage plus ``q``'s and the forbidden squares."""
    forb[d, q >> 6] |= _bit(q)
    chosen[d] = q
    for w in range(cov.shape[1]):
        cov[d + 1, w] = cov[d, w] | cover[q, w]
        forb[d + 1, w] = forb[d, w]


@njit(nogil=True, cache=True)
def solve_nodes(cover, full, images, k, node_chosen, node_forb, keep):
    """Finish every node; return ``(solutions, classes, sets, nodes_visited)``.

    ``node_chosen``: int32[m, D] squares already chosen; ``node_forb``: uint64[m, W]
    squares that may not be chosen below the node. ``sets`` is int32[solutions, k]
    (sorted squares, search order) when ``keep``, else empty.
    """
    W = full.shape[0]
    D = node_chosen.shape[1]
    cov, forb, cand, uncov, top, chosen = _search_state(k, W)
    scratch = np.zeros(k, dtype=np.int32)
    work = np.zeros(k, dtype=np.int32)
    out = np.empty((16 if keep else 0, k), dtype=np.int32)
    n_sol = 0
    n_cls = 0
    visited = 0
    for m in range(node_chosen.shape[0]):
        for w in range(W):
            cov[D, w] = _ZERO
            forb[D, w] = node_forb[m, w]
        for i in range(D):
            chosen[i] = node_chosen[m, i]
            for w in range(W):
                cov[D, w] |= cover[chosen[i], w]
        d = D
        state = _expand(d, k, cover, full, cov, forb, cand, uncov, top)
        visited += 1
        if state == 3:
            rep, out = _record(chosen, k, images, scratch, work, out, n_sol, keep)
            n_sol += 1
            n_cls += rep
            continue
        if state == 0:
            continue
        while True:
            if state == 2:
                # One queen left: try every candidate for the first uncovered square.
                for w in range(W):
                    c = cand[d, w]
                    while c != _ZERO:
                        q = 64 * w + np.int64(lowbit_index(c))
                        c &= c - _ONE
                        ok = True
                        for v in range(W):
                            if uncov[v] & ~cover[q, v] != _ZERO:
                                ok = False
                                break
                        if ok:
                            chosen[d] = q
                            rep, out = _record(chosen, k, images, scratch, work, out, n_sol, keep)
                            n_sol += 1
                            n_cls += rep
                    cand[d, w] = _ZERO
                state = 1
                if d == D:
                    break
                d -= 1
                continue
            # Pop the lowest remaining candidate at depth d.
            q = pop_lowest(cand, d)
            if q < 0:
                if d == D:
                    break
                d -= 1
                continue
            _choose(d, q, cover, cov, forb, chosen)
            visited += 1
            state = _expand(d + 1, k, cover, full, cov, forb, cand, uncov, top)
            if state == 3:
                rep, out = _record(chosen, k, images, scratch, work, out, n_sol, keep)
                n_sol += 1
                n_cls += rep
                state = 1
            elif state != 0:
                d += 1
            else:
                state = 1
    return n_sol, n_cls, out[:n_sol] if keep else out[:0], visited


@njit(nogil=True, cache=True)
def _frontier(cover, full, k, depth):
    """Nodes at ``depth`` (< k) below the root that survive the bound of their parents."""
    W = full.shape[0]
    cov, forb, cand, uncov, top, chosen = _search_state(k, W)
    cap = 64
    out_c = np.empty((cap, depth), dtype=np.int32)
    out_f = np.empty((cap, W), dtype=np.uint64)
    m = 0
    if depth == 0:
        out_c = np.empty((1, 0), dtype=np.int32)
        out_f = np.zeros((1, W), dtype=np.uint64)
        return out_c, out_f
    d = 0
    state = _expand(0, k, cover, full, cov, forb, cand, uncov, top)
    if state == 0:
        return out_c[:0], out_f[:0]
    while True:
        q = pop_lowest(cand, d)
        if q < 0:
            if d == 0:
                break
            d -= 1
            continue
        _choose(d, q, cover, cov, forb, chosen)
        if d + 1 == depth:
            if m == out_c.shape[0]:
                nc = np.empty((2 * m, depth), dtype=np.int32)
                nf = np.empty((2 * m, W), dtype=np.uint64)
                nc[:m] = out_c
                nf[:m] = out_f
                out_c, out_f = nc, nf
            out_c[m, :] = chosen[:depth]
            out_f[m, :] = forb[depth]
            m += 1
            continue
        state = _expand(d + 1, k, cover, full, cov, forb, cand, uncov, top)
        if state == 1:
            d += 1
        # A leaf state (2) cannot occur above depth k - 1 >= depth; 0 and 3 end here.
    return out_c[:m], out_f[:m]


def frontier(n: int, k: int, target: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes of the shallowest depth (at most ``k - 1``) with at least ``target`` of them.

    Returns ``(chosen int32[m, D], forbidden uint64[m, W])`` in search order.
    """
    cover, full = queen_cover(n), full_board(n)
    nodes = _frontier(cover, full, k, 0)
    for depth in range(1, k):
        if nodes[0].shape[0] >= target:
            break
        nodes = _frontier(cover, full, k, depth)
    return nodes


def solve(n: int, k: int, chosen: np.ndarray, forbidden: np.ndarray, keep: bool):
    """Finish a batch of nodes: ``(solutions, classes, sets, nodes_visited)``."""
    return solve_nodes(
        queen_cover(n),
        full_board(n),
        square_images(n),
        k,
        np.ascontiguousarray(chosen, dtype=np.int32),
        np.ascontiguousarray(forbidden, dtype=np.uint64),
        keep,
    )


def solve_all(n: int, k: int, keep: bool = False):
    """The whole search in one call on this thread: ``(solutions, classes, sets, nodes)``."""
    chosen, forbidden = _frontier(queen_cover(n), full_board(n), k, 0)
    return solve(n, k, chosen, forbidden, keep)
