"""Tie-tree engine: every tie order from a start at the cost of the distinct paths.

Conventions (CONVENTIONS.md): moves are 0-based here (index ``m`` is move ``m + 1``);
an order is a permutation of the moves, highest priority first, identified by its
lexicographic rank (0 .. 40,319). A *tie point* is a step where two or more
candidates share the least degree.

The search (:func:`_tree`, numba) walks from a start while the least-degree
candidate is unique. At a tie among the moves ``T`` it branches on each ``t`` in
``T``, adding the constraints "``t`` before ``u``" for every other ``u`` in ``T``;
constraints are kept as a transitively closed bitmask ``after[m]`` (bit ``x`` set:
``m`` comes before ``x``) and a branch that would close a cycle is dropped (no order
reaches it). At a path end (a leaf) the orders of the leaf are exactly the linear
extensions of the accumulated constraints; they are expanded straight into ranks
with an incremental Lehmer code and given the leaf's outcome. The leaves of a start
partition the 40,320 orders; the kernel checks that every rank is written exactly
once.

When only some orders are wanted, the kernel instead carries the wanted ranks down
the tree: at each tie the current slice of ranks is partitioned in place by the
branch each order takes (the move of ``T`` it ranks first), empty branches are
pruned and a leaf labels the ranks of its slice.

Symmetry: for an orbit of starts, only the representative ``s0`` (smallest square
of the orbit) is searched. For a start ``t = g·s0`` the run under ``o'`` is the image
under ``g`` of the run from ``s0`` under ``g⁻¹·o'``: same visited count, completeness,
closedness and tie count, end square mapped by ``g``.

Memory per call: a few tables of 40,320 entries, and stacks of board-size length.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.board import Board
from knight.orders import N_ORDERS, priorities
from knight.symmetry import group
from knight.warnsdorff import _BLOCKED, padded

#: ``_WEIGHT[i]``: Lehmer weight (7 - i)! of position ``i`` in an order.
_WEIGHT = np.array([5040, 720, 120, 24, 6, 2, 1, 1], dtype=np.int64)
#: Population count of a byte.
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)

#: Wanted orders at the representative start above which the full tree is expanded.
FULL_THRESHOLD = N_ORDERS // 4


@nb.njit(nogil=True, cache=True)
def _expand(after, leaf, leaf_of, weight, popcount):
    """Write ``leaf`` into ``leaf_of[rank]`` for every order consistent with ``after``.

    ``after[m]`` (uint8 bitmask, transitively closed): moves that must come after ``m``.
    Returns (orders written, ranks that were already written: must be 0).
    """
    before = np.zeros(8, np.int64)
    for a in range(8):
        for m in range(8):
            if (after[a] >> m) & 1:
                before[m] |= 1 << a
    nxt = np.zeros(9, np.int64)
    chosen = np.zeros(8, np.int64)
    acc = np.zeros(9, np.int64)
    used = 0
    lvl = 0
    count = 0
    clash = 0
    while lvl >= 0:
        if lvl == 8:
            r = acc[8]
            if leaf_of[r] != -1:
                clash += 1
            leaf_of[r] = leaf
            count += 1
            lvl -= 1
            used &= ~(1 << chosen[lvl])
            continue
        m = nxt[lvl]
        while m < 8:
            if ((used >> m) & 1) == 0 and (before[m] & ~used) == 0:
                break
            m += 1
        if m == 8:
            lvl -= 1
            if lvl >= 0:
                used &= ~(1 << chosen[lvl])
            continue
        nxt[lvl] = m + 1
        chosen[lvl] = m
        smaller_unused = popcount[(~used) & ((1 << m) - 1) & 0xFF]
        acc[lvl + 1] = acc[lvl] + smaller_unused * weight[lvl]
        used |= 1 << m
        lvl += 1
        nxt[lvl] = 0
    return count, clash


@nb.njit(nogil=True, cache=True)
def _tree(deg0, offsets, p0, size, full, wanted, prio, weight, popcount,
          leaf_of, leaf_visited, leaf_end, leaf_ties):
    """Search the tie tree from padded square ``p0``; label orders with their leaf.

    ``deg0, offsets`` come from :func:`knight.warnsdorff.padded`; ``size`` is the
    number of board squares. ``full``: label all 40,320 ranks (constraint mode);
    otherwise label only the sorted ranks ``wanted`` (slice mode, ``prio`` =
    :func:`knight.orders.priorities`). ``leaf_of`` (int32[40320]) receives the leaf
    of each labelled rank, -1 elsewhere; ``leaf_visited``, ``leaf_end`` (padded end
    square) and ``leaf_ties`` (capacity 40,320) the outcome of each leaf.
    Returns (leaves, knight steps walked, ranks labelled, ranks labelled twice).
    """
    deg = deg0.copy()
    path = np.empty(size, np.int64)
    saved = np.empty(size, np.int32)
    f_pos = np.empty(size, np.int64)
    f_k = np.empty(size, np.int64)
    f_next = np.empty(size, np.int64)
    f_cand = np.empty((size, 8), np.int64)
    f_after = np.empty((size, 8), np.uint8)
    f_bounds = np.empty((size if not full else 1, 9), np.int64)
    after = np.zeros(8, np.uint8)
    cand = np.empty(8, np.int64)
    cnt = np.zeros(9, np.int64)
    seg = wanted.copy()
    tmp = np.empty_like(seg)
    br = np.empty(seg.shape[0], np.int64)
    lo = 0
    hi = seg.shape[0]
    cap = leaf_visited.shape[0]
    leaf_of[:] = -1
    limit = _BLOCKED - 8  # visited and margin squares never drop below this

    path[0] = p0
    saved[0] = deg[p0]
    deg[p0] = _BLOCKED
    for k in range(8):
        deg[p0 + offsets[k]] -= 1
    n = 1
    nf = 0
    leaves = 0
    steps = 0
    labelled = 0
    clash = 0
    while True:
        # Walk forward while the least-degree candidate is unique.
        cur = path[n - 1]
        bestd = limit
        nbest = 0
        for m in range(8):
            d = deg[cur + offsets[m]]
            if d < bestd:
                bestd = d
                nbest = 1
                cand[0] = m
            elif d == bestd and d < limit:
                cand[nbest] = m
                nbest += 1
        if nbest == 1:
            nxt = cur + offsets[cand[0]]
            saved[n] = deg[nxt]
            deg[nxt] = _BLOCKED
            path[n] = nxt
            n += 1
            for k in range(8):
                deg[nxt + offsets[k]] -= 1
            steps += 1
            continue
        if nbest >= 2:
            # A tie point: push a frame.
            f = nf
            f_pos[f] = n
            f_k[f] = nbest
            f_next[f] = 0
            for j in range(nbest):
                f_cand[f, j] = cand[j]
            for j in range(8):
                f_after[f, j] = after[j]
            if not full:
                # Partition seg[lo:hi] by the branch each order takes.
                for j in range(9):
                    cnt[j] = 0
                for i in range(lo, hi):
                    o = seg[i]
                    bj = 0
                    bp = prio[o, cand[0]]
                    for j in range(1, nbest):
                        p = prio[o, cand[j]]
                        if p < bp:
                            bp = p
                            bj = j
                    br[i] = bj
                    cnt[bj + 1] += 1
                f_bounds[f, 0] = lo
                for j in range(nbest):
                    f_bounds[f, j + 1] = f_bounds[f, j] + cnt[j + 1]
                for j in range(nbest):
                    cnt[j] = f_bounds[f, j]
                for i in range(lo, hi):
                    bj = br[i]
                    tmp[cnt[bj]] = seg[i]
                    cnt[bj] += 1
                for i in range(lo, hi):
                    seg[i] = tmp[i]
            nf += 1
        else:
            # A leaf: the path ends here.
            if leaves >= cap:
                return leaves, steps, labelled, clash + 1
            leaf_visited[leaves] = n
            leaf_end[leaves] = path[n - 1]
            leaf_ties[leaves] = nf
            if full:
                c, x = _expand(after, leaves, leaf_of, weight, popcount)
                labelled += c
                clash += x
            else:
                for i in range(lo, hi):
                    r = seg[i]
                    if leaf_of[r] != -1:
                        clash += 1
                    leaf_of[r] = leaves
                labelled += hi - lo
            leaves += 1
        # Take the next viable branch of the innermost tie frame, popping exhausted ones.
        advanced = False
        while nf > 0:
            f = nf - 1
            stop = f_pos[f]
            while n > stop:
                n -= 1
                u = path[n]
                for k in range(8):
                    deg[u + offsets[k]] += 1
                deg[u] = saved[n]
            for j in range(8):
                after[j] = f_after[f, j]
            k_t = f_k[f]
            b = f_next[f]
            while b < k_t:
                if full:
                    t = f_cand[f, b]
                    ok = True
                    for j in range(k_t):
                        if j != b and (after[f_cand[f, j]] >> t) & 1:
                            ok = False  # some other u of T already precedes t
                            break
                    if ok:
                        break
                elif f_bounds[f, b + 1] > f_bounds[f, b]:
                    break
                b += 1
            if b == k_t:
                nf -= 1
                continue
            f_next[f] = b + 1
            t = f_cand[f, b]
            if full:
                down = 0
                for j in range(k_t):
                    if j != b:
                        u = f_cand[f, j]
                        down |= (1 << u) | after[u]
                for a in range(8):
                    if a == t or (after[a] >> t) & 1:
                        after[a] |= down
            else:
                lo = f_bounds[f, b]
                hi = f_bounds[f, b + 1]
            cur = path[n - 1]
            nxt = cur + offsets[t]
            saved[n] = deg[nxt]
            deg[nxt] = _BLOCKED
            path[n] = nxt
            n += 1
            for k in range(8):
                deg[nxt + offsets[k]] -= 1
            steps += 1
            advanced = True
            break
        if not advanced:
            break
    return leaves, steps, labelled, clash


@nb.njit(nogil=True, cache=True)
def _fill(starts, elems, inverse, squares, images, ranks, leaf_of, leaf_visited, leaf_end,
          leaf_closed, leaf_ties, size, o_start, o_order, o_visited, o_end, o_complete,
          o_closed, o_ties):
    """Rows (start ``starts[i]`` = ``elems[i]``·s0, rank ``ranks[j]``) from the leaves of s0.

    ``images[g, r]``: rank of g·o_r; ``squares[g, s]``: image of square ``s``;
    ``leaf_end`` holds board squares. Row ``i * len(ranks) + j``.
    """
    nr = ranks.shape[0]
    for i in range(starts.shape[0]):
        g = elems[i]
        ginv = inverse[g]
        base = i * nr
        for j in range(nr):
            r = ranks[j]
            leaf = leaf_of[images[ginv, r]]
            row = base + j
            v = leaf_visited[leaf]
            o_start[row] = starts[i]
            o_order[row] = r
            o_visited[row] = v
            o_end[row] = squares[g, leaf_end[leaf]]
            o_complete[row] = v == size
            o_closed[row] = leaf_closed[leaf]
            o_ties[row] = leaf_ties[leaf]


def search(board: Board, start: int, wanted=None, full: bool | None = None):
    """Search the tie tree from board square ``start``.

    ``wanted``: sorted ranks to label (default all). ``full`` forces constraint mode
    (True) or slice mode (False); by default constraint mode is used when more than
    :data:`FULL_THRESHOLD` ranks are wanted. Returns a dict: ``leaf_of`` (int32[40320],
    leaf of each labelled rank, -1 elsewhere), per leaf ``visited``, ``end`` (board
    square), ``closed``, ``ties``, ``orders`` (ranks labelled), and ``steps``.
    Raises ``RuntimeError`` if the leaves do not partition the wanted ranks.
    """
    wanted = np.arange(N_ORDERS, dtype=np.int64) if wanted is None else np.unique(np.asarray(wanted, np.int64))
    if full is None:
        full = len(wanted) > FULL_THRESHOLD
    deg0, offsets, index = padded(board)
    unpad = np.full(len(deg0), -1, np.int64)
    unpad[index] = np.arange(board.size)
    leaf_of = np.empty(N_ORDERS, np.int32)
    leaf_visited = np.empty(N_ORDERS, np.uint32)
    leaf_end = np.empty(N_ORDERS, np.int64)
    leaf_ties = np.empty(N_ORDERS, np.uint16)
    leaves, steps, labelled, clash = _tree(
        deg0, offsets, int(index[start]), board.size, bool(full),
        wanted if not full else np.empty(0, np.int64), priorities(), _WEIGHT, _POPCOUNT,
        leaf_of, leaf_visited, leaf_end, leaf_ties,
    )
    expected = N_ORDERS if full else len(wanted)
    if clash or labelled != expected:
        raise RuntimeError(
            f"tie tree from square {start} on {board.name}: leaves label {labelled} ranks "
            f"({clash} twice), expected each of {expected} exactly once"
        )
    end = unpad[leaf_end[:leaves]]
    visited = leaf_visited[:leaves]
    nb_ = board.neighbours[start]
    closed = (visited == board.size) & np.isin(end, nb_[nb_ >= 0])
    return {
        "leaf_of": leaf_of,
        "visited": visited,
        "end": end,
        "closed": closed,
        "ties": leaf_ties[:leaves],
        "orders": np.bincount(leaf_of[leaf_of >= 0], minlength=leaves),
        "steps": int(steps),
        "full": bool(full),
    }


def tree_orbit(board: Board, starts: np.ndarray, ranks: np.ndarray, full: bool | None = None) -> dict[str, np.ndarray]:
    """Rows for ``starts`` (one symmetry orbit, sorted) x ``ranks`` (sorted), like
    :func:`knight.sweep.brute_orbit`, searching only the orbit's smallest square.

    Returns ``start, order, visited, end, complete, closed, ties`` (rows by start, then
    rank) and ``steps`` (knight steps walked, one-element array). ``full`` as in
    :func:`search`.
    """
    starts = np.asarray(starts, np.int64)
    ranks = np.asarray(ranks, np.int64)
    grp = group(board)
    if len(starts) == 0 or len(ranks) == 0:
        raise ValueError("tree_orbit needs at least one start and one rank")
    s0 = int(grp.squares[:, starts[0]].min())
    # One element per start mapping s0 onto it (the first one, in element order).
    hits = grp.squares[:, s0][:, None] == starts[None, :]  # [G, len(starts)]
    if not hits.any(axis=0).all():
        bad = int(starts[~hits.any(axis=0)][0])
        raise ValueError(f"start {bad} is not in the orbit of square {s0} on {board.name}")
    elems = hits.argmax(axis=0).astype(np.int64)
    images = grp.order_images()
    inverse = np.ascontiguousarray(grp.inverse, np.int64)
    # Ranks needed at s0: g⁻¹·o' for every requested (t = g·s0, o').
    if len(ranks) == N_ORDERS:
        wanted = None
    else:
        wanted = np.unique(images[inverse[np.unique(elems)]][:, ranks])
    res = search(board, s0, wanted, full)
    n = len(starts) * len(ranks)
    out = {
        "start": np.empty(n, np.uint32),
        "order": np.empty(n, np.uint16),
        "visited": np.empty(n, np.uint32),
        "end": np.empty(n, np.uint32),
        "complete": np.empty(n, np.bool_),
        "closed": np.empty(n, np.bool_),
        "ties": np.empty(n, np.uint16),
    }
    _fill(starts, elems, inverse, np.ascontiguousarray(grp.squares, np.int64), images, ranks,
          res["leaf_of"], res["visited"], res["end"], res["closed"], res["ties"], board.size,
          out["start"], out["order"], out["visited"], out["end"], out["complete"],
          out["closed"], out["ties"])
    out["steps"] = np.array([res["steps"]], np.int64)
    return out


__all__ = ["search", "tree_orbit", "FULL_THRESHOLD"]
