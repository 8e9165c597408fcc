"""Tie-tree engine: every tie order from a start at the cost of the distinct paths.

Conventions (CONVENTIONS.md): moves are 0-based here (index ``m`` is move ``m + 1``);
an order is a permutation of the moves, highest priority first, identified by its
lexicographic rank (0 .. 40,319). A *tie point* is a step where two or more
candidates share the least degree.

The search (:func:`_tree`, numba) walks from a start while the least-degree
candidate is unique. At a tie among the moves ``T`` it branches on each ``t`` in
``T``, adding the constraints "``t`` before ``u``" for every other ``u`` in ``T``.
Constraints are a transitively closed partial order on the 8 moves, packed in two
int64 words (byte ``m`` of ``after``: moves that must follow ``m``; of ``before``:
moves that must precede it); a branch whose ``t`` already has a tied move before it
would close a cycle and is dropped (no order reaches it). At a path end (a leaf) the
orders of the leaf are exactly the linear extensions of the constraints; they are
expanded straight into ranks (depth-first over positions, incremental Lehmer code)
and labelled with the leaf. The leaves of a start partition the 40,320 orders; the
kernel counts labels and checks that every rank is labelled exactly once. The tie
count of a leaf is the number of tie points on its path (the tie frames on the
stack), as brute force counts it per run.

When only some orders are wanted, the kernel instead carries the wanted ranks down
the tree: at each tie the current slice of ranks is partitioned in place by the
branch each order takes (the move of ``T`` it ranks first), empty branches are
pruned and a leaf labels the ranks of its slice.

Symmetry: for an orbit of starts, only the representative ``s0`` (smallest square
of the orbit) is searched. For a start ``t = g·s0`` the run under ``o'`` is the image
under ``g`` of the run from ``s0`` under ``g⁻¹·o'``: same visited count, completeness,
closedness and tie count, end square mapped by ``g``. A start fixed by some
symmetries (odd-board centre, diagonal squares, middle rows of a rectangle) needs no
special case: the representative's table covers all 40,320 orders, and any ``g``
with ``g·s0 = t`` gives the same rows (the first one in element order is used).
Slice mode is chosen when at most :data:`FULL_THRESHOLD` ranks are wanted at ``s0``.

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
#: Population count of a byte, and index of its lowest set bit (8 for 0).
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_LOWBIT = np.array([(i & -i).bit_length() - 1 if i else 8 for i in range(256)], dtype=np.int64)

#: Wanted orders at the representative start above which the full tree is expanded.
FULL_THRESHOLD = N_ORDERS // 4


@nb.njit(nogil=True, cache=True)
def _expand(before, leaf, leaf_of, weight, popcount, lowbit, scratch):
    """Write ``leaf`` into ``leaf_of[rank]`` for every order consistent with ``before``.

    ``before`` packs one byte per move: byte ``m`` = bitmask of the moves that must
    come before ``m`` (transitively closed). Depth-first over positions, choosing
    among the moves whose predecessors are all placed; the rank grows as a Lehmer
    code. ``scratch``: int64[3, 8]. Returns (orders written, ranks already written:
    must be 0).
    """
    avail = scratch[0]
    acc = scratch[1]
    chosen = scratch[2]
    a = 0
    for m in range(8):
        if (before >> (8 * m)) & 0xFF == 0:
            a |= 1 << m
    avail[0] = a
    acc[0] = 0
    used = 0
    lvl = 0
    count = 0
    clash = 0
    while lvl >= 0:
        a = avail[lvl]
        if a == 0:
            lvl -= 1
            if lvl >= 0:
                used &= ~(1 << chosen[lvl])
            continue
        m = lowbit[a]
        avail[lvl] = a & (a - 1)
        r = acc[lvl] + popcount[~used & ((1 << m) - 1) & 0xFF] * weight[lvl]
        if lvl == 7:
            if leaf_of[r] != -1:
                clash += 1
            leaf_of[r] = leaf
            count += 1
            continue
        chosen[lvl] = m
        used |= 1 << m
        lvl += 1
        acc[lvl] = r
        a = 0
        rem = ~used & 0xFF
        while rem:
            u = lowbit[rem]
            rem &= rem - 1
            if (before >> (8 * u)) & 0xFF & ~used == 0:
                a |= 1 << u
        avail[lvl] = a
    return count, clash


@nb.njit(nogil=True, cache=True)
def _tree(deg0, offsets, p0, size, full, wanted, prio, weight, popcount, lowbit,
          leaf_of, leaf_visited, leaf_end, leaf_ties):
    """Search the tie tree from padded square ``p0``; label orders with their leaf.

    ``deg0, offsets`` come from :func:`knight.warnsdorff.padded`; ``size`` is the
    number of board squares. ``full``: label all 40,320 ranks (constraint mode);
    otherwise label only the sorted ranks ``wanted`` (slice mode, ``prio`` =
    :func:`knight.orders.priorities`). ``leaf_of`` (int32[40320]) receives the leaf
    of each labelled rank, -1 elsewhere; ``leaf_visited``, ``leaf_end`` (padded end
    square) and ``leaf_ties`` (capacity 40,320) the outcome of each leaf.
    Constraints are two int64 words, one byte per move: byte ``m`` of ``after`` holds
    the moves that must follow ``m``, byte ``m`` of ``before`` those that must precede
    it (both transitively closed). A tie point with a single live branch (the other
    tied moves already follow it, or no wanted rank takes another branch) is walked
    through like a forced move; only tie points with two or more live branches push
    a frame. Squares are undone one by one on backtracking (``saved`` keeps each
    square's degree from before it was visited), never by copying the board.
    Returns (leaves, knight steps walked, ranks labelled, ranks labelled twice).
    """
    deg = deg0.copy()
    o0, o1, o2, o3 = offsets[0], offsets[1], offsets[2], offsets[3]
    o4, o5, o6, o7 = offsets[4], offsets[5], offsets[6], offsets[7]
    path = np.empty(size, np.int64)
    saved = np.empty(size, np.int32)
    # Tie frames (tie points with two or more live branches): path length at the tie,
    # tie points on the path so far, the tied moves (mask), the branches (list: live
    # moves in constraint mode, every tied move in slice mode), the next branch, the
    # constraints on entry and (slice mode) the bounds of each branch's ranks.
    f_pos = np.empty(size, np.int64)
    f_ties = np.empty(size, np.int64)
    f_mask = np.empty(size, np.int64)
    f_k = np.empty(size, np.int64)
    f_next = np.empty(size, np.int64)
    f_cand = np.empty((size, 8), np.int64)
    f_after = np.empty(size, np.int64)
    f_before = np.empty(size, np.int64)
    f_bounds = np.empty((size if not full else 1, 9), np.int64)
    after = 0
    before = 0
    cand = np.empty(8, np.int64)
    cnt = np.zeros(9, np.int64)
    scratch = np.zeros((3, 8), np.int64)
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
    nt = 0  # tie points on the current path
    nf = 0
    leaves = 0
    steps = 0
    labelled = 0
    clash = 0
    while True:
        cur = path[n - 1]
        d0 = deg[cur + o0]
        d1 = deg[cur + o1]
        d2 = deg[cur + o2]
        d3 = deg[cur + o3]
        d4 = deg[cur + o4]
        d5 = deg[cur + o5]
        d6 = deg[cur + o6]
        d7 = deg[cur + o7]
        bestd = min(min(min(d0, d1), min(d2, d3)), min(min(d4, d5), min(d6, d7)))
        mask = 0
        if bestd < limit:
            mask = ((d0 == bestd) | ((d1 == bestd) << 1) | ((d2 == bestd) << 2) | ((d3 == bestd) << 3)
                    | ((d4 == bestd) << 4) | ((d5 == bestd) << 5) | ((d6 == bestd) << 6)
                    | ((d7 == bestd) << 7))
        nbest = popcount[mask]
        go = -1  # move to make next
        if nbest == 1:
            go = lowbit[mask]
        elif nbest >= 2:
            # A tie point.
            nt += 1
            k_t = 0
            if full:
                # Live branches: tied moves with no other tied move already before them.
                # With a single one, it already precedes the others: nothing to add.
                rem = mask
                while rem:
                    t = lowbit[rem]
                    rem &= rem - 1
                    if (before >> (8 * t)) & mask == 0:
                        cand[k_t] = t
                        k_t += 1
                if k_t == 1:
                    go = cand[0]
            else:
                # Partition seg[lo:hi] by the branch each order takes: the tied move it ranks first.
                rem = mask
                while rem:
                    cand[k_t] = lowbit[rem]
                    rem &= rem - 1
                    k_t += 1
                for j in range(9):
                    cnt[j] = 0
                for i in range(lo, hi):
                    o = seg[i]
                    bj = 0
                    bp = prio[o, cand[0]]
                    for j in range(1, k_t):
                        p = prio[o, cand[j]]
                        if p < bp:
                            bp = p
                            bj = j
                    br[i] = bj
                    cnt[bj + 1] += 1
                live = 0
                for j in range(k_t):
                    if cnt[j + 1] > 0:
                        live += 1
                        go = cand[j]
                if live > 1:
                    go = -1
                    f = nf
                    f_bounds[f, 0] = lo
                    for j in range(k_t):
                        f_bounds[f, j + 1] = f_bounds[f, j] + cnt[j + 1]
                    for j in range(k_t):
                        cnt[j] = f_bounds[f, j]
                    for i in range(lo, hi):
                        bj = br[i]
                        tmp[cnt[bj]] = seg[i]
                        cnt[bj] += 1
                    for i in range(lo, hi):
                        seg[i] = tmp[i]
            if go < 0:
                # Two or more live branches: push a frame.
                f = nf
                f_pos[f] = n
                f_ties[f] = nt
                f_mask[f] = mask
                f_k[f] = k_t
                f_next[f] = 0
                f_after[f] = after
                f_before[f] = before
                for j in range(k_t):
                    f_cand[f, j] = cand[j]
                nf += 1
        else:
            # A leaf: the path ends here.
            if leaves >= cap:
                return leaves, steps, labelled, clash + 1
            leaf_visited[leaves] = n
            leaf_end[leaves] = path[n - 1]
            leaf_ties[leaves] = nt
            if full:
                c, x = _expand(before, leaves, leaf_of, weight, popcount, lowbit, scratch)
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
        if go < 0:
            # Take the next branch of the innermost frame, popping exhausted frames.
            while nf > 0:
                f = nf - 1
                stop = f_pos[f]
                while n > stop:
                    n -= 1
                    u = path[n]
                    deg[u + o0] += 1
                    deg[u + o1] += 1
                    deg[u + o2] += 1
                    deg[u + o3] += 1
                    deg[u + o4] += 1
                    deg[u + o5] += 1
                    deg[u + o6] += 1
                    deg[u + o7] += 1
                    deg[u] = saved[n]
                k_t = f_k[f]
                b = f_next[f]
                if not full:
                    while b < k_t and f_bounds[f, b + 1] == f_bounds[f, b]:
                        b += 1
                if b >= k_t:
                    nf -= 1
                    continue
                f_next[f] = b + 1
                go = f_cand[f, b]
                nt = f_ties[f]
                if full:
                    # t before every other tied move, closed transitively.
                    after = f_after[f]
                    before = f_before[f]
                    others = f_mask[f] & ~(1 << go)
                    up = ((before >> (8 * go)) & 0xFF) | (1 << go)  # t and the moves before it
                    down = others  # the other tied moves and the moves after them
                    rem = others
                    while rem:
                        u = lowbit[rem]
                        rem &= rem - 1
                        down |= (after >> (8 * u)) & 0xFF
                    rem = up
                    while rem:
                        a = lowbit[rem]
                        rem &= rem - 1
                        after |= down << (8 * a)
                    rem = down
                    while rem:
                        d = lowbit[rem]
                        rem &= rem - 1
                        before |= up << (8 * d)
                else:
                    lo = f_bounds[f, b]
                    hi = f_bounds[f, b + 1]
                break
            if go < 0:
                break
        # Move.
        cur = path[n - 1]
        nxt = cur + offsets[go]
        saved[n] = deg[nxt]
        deg[nxt] = _BLOCKED
        path[n] = nxt
        n += 1
        deg[nxt + o0] -= 1
        deg[nxt + o1] -= 1
        deg[nxt + o2] -= 1
        deg[nxt + o3] -= 1
        deg[nxt + o4] -= 1
        deg[nxt + o5] -= 1
        deg[nxt + o6] -= 1
        deg[nxt + o7] -= 1
        steps += 1
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
        wanted if not full else np.empty(0, np.int64), priorities(), _WEIGHT, _POPCOUNT, _LOWBIT,
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
    if starts.min() < 0 or starts.max() >= board.size:
        raise ValueError(f"start squares must lie in 0..{board.size - 1} on {board.name}")
    if ranks.min() < 0 or ranks.max() >= N_ORDERS:
        raise ValueError(f"order ranks must lie in 0..{N_ORDERS - 1}")
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
