"""Benchmark baseline only: knight/engine/tree.py as it was before issue 19 (commit e7d978c),
kept importable so that benchmarks/bench_tree.py can time it against the current kernel
in the same process. Not used by the library.

Tie-tree engine: every tie order from a start at the cost of the distinct paths.

Conventions (docs/conventions.md): moves are 0-based here (index ``m`` is move
``m + 1``); an order is a permutation of the moves, highest priority first,
identified by its lexicographic rank (0 .. 40,319). The rules swept are those whose
residual ties a tie order breaks (:data:`knight.engine.tiebreak.ORDER_RULES`: ``fixed``,
``pohl``, ``roth``, ``corner``). At each step the least-degree candidates are
narrowed by the rule's key (:func:`knight.engine.tiebreak.narrow`; ``fixed`` has none); a
*residual tie point* is a step where two or more candidates are left, so that the
order decides. For ``fixed`` that is a plain tie point.

Search. From a start the knight walks while one candidate is left (:func:`_least`,
:func:`_visit`). At a residual tie among the moves ``T`` the search branches on each
``t`` in ``T``: the orders whose first move of ``T`` is ``t``. Two kernels share
these steps and differ in how a branch is represented:

- :func:`_tree_full` (every rank) keeps the branch as constraints "``t`` before
  ``u``" (``u`` in ``T``): a transitively closed partial order on the 8 moves in two
  int64 words (:func:`_constrain`). A ``t`` that another tied move already precedes
  is reached by no order and is not a branch (:func:`_live`). At a leaf (no
  candidate) the orders of the leaf are the linear extensions of the constraints,
  expanded straight into ranks (:func:`_expand`).
- :func:`_tree_slice` (a few ranks) carries the sorted wanted ranks down the tree,
  partitioning the current slice at each tie by the branch each order takes
  (:func:`_partition`); empty branches are not taken; a leaf labels its slice.

A tie with a single branch is walked through like a forced move (its tie still
counts); a tie with two or more pushes a frame: one row of an int64 array whose
columns are the ``F_*`` constants. Backtracking undoes squares one by one
(:func:`_undo`), never copying the board. The leaves of a start partition the wanted
ranks; the kernels count the labels and :func:`search` raises unless every rank is
labelled exactly once. A leaf's tie count is the number of residual tie points on
its path, as a single run counts them.

Symmetry: for an orbit of starts only the representative ``s0`` (smallest square of
the orbit) is searched. For ``t = g·s0`` the run under ``o'`` is the image under
``g`` of the run from ``s0`` under ``g⁻¹·o'`` (the degrees and the rules' keys are
invariant under the board's symmetries): same visited count, completeness,
closedness and tie count, end square mapped by ``g``. A start fixed by some
symmetries needs no special case: any ``g`` with ``g·s0 = t`` gives the same rows
(the first one in element order is used). Slice mode is chosen when at most
:data:`FULL_THRESHOLD` ranks are wanted at ``s0``.

Memory per call: a few tables of 40,320 entries, and stacks of board-size length.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.core.board import MOVES, Board
from knight.core.orders import LEHMER_WEIGHTS, N_ORDERS, priorities
from knight.core.symmetry import group
from knight.engine.layout import BLOCKED, padded, unpad
from knight.engine.tiebreak import FIXED, ORDER_RULES, narrow, rule_code

#: Wanted orders at the representative start above which the full tree is expanded.
FULL_THRESHOLD = N_ORDERS // 4

#: Degrees of visited and margin squares never drop below this (at most 8 decrements).
_LIMIT = BLOCKED - 8
#: ``_WEIGHT[i]``: (7 - i)!, the weight of position ``i`` of an order in its rank.
_WEIGHT = LEHMER_WEIGHTS
#: Row and column steps of the moves: move ``m`` goes ``_DR[m] * width + _DC[m]`` in the
#: padded layout (constants, so the eight steps cost no loads in the hot loops).
_DR = np.ascontiguousarray(MOVES[:, 0])
_DC = np.ascontiguousarray(MOVES[:, 1])
#: Population count of a byte, and index of its lowest set bit (8 for 0).
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_LOWBIT = np.array([(i & -i).bit_length() - 1 if i else 8 for i in range(256)], dtype=np.int64)

# Columns of a tie frame (one row per tie point with two or more branches on the path).
F_POS = 0  #: path length at the tie
F_TIES = 1  #: residual tie points on the path up to this one, included
F_MASK = 2  #: the tied moves left after the rule's key (bit m: move m)
F_TODO = 3  #: branches not taken yet (bit m: the orders ranking m first among F_MASK)
F_AFTER = 4  #: full mode: the constraints on entry (see _constrain)
F_BEFORE = 5
F_BOUNDS = 6  #: slice mode, 9 columns: branch m holds the ranks seg[b[m]:b[m + 1]]
N_FIELDS = F_BOUNDS + 9

# Columns of a leaf (one row per distinct path).
L_VISITED = 0  #: squares visited
L_END = 1  #: padded end square
L_TIES = 2  #: residual tie points on the path
N_LEAF_FIELDS = 3


@nb.njit(nogil=True, cache=True)
def _visit(deg, path, saved, n, p, width):
    """Append padded square ``p`` to the path of length ``n``; return ``n + 1``.

    ``saved[n]`` keeps the degree ``p`` had, for :func:`_undo`. ``width``: padded row length.
    """
    saved[n] = deg[p]
    deg[p] = BLOCKED
    path[n] = p
    for k in range(8):
        deg[p + _DR[k] * width + _DC[k]] -= 1
    return n + 1


@nb.njit(nogil=True, cache=True)
def _undo(deg, path, saved, n, stop, width):
    """Take squares off the end of the path until ``stop`` are left; return ``stop``."""
    while n > stop:
        n -= 1
        p = path[n]
        for k in range(8):
            deg[p + _DR[k] * width + _DC[k]] += 1
        deg[p] = saved[n]
    return n


@nb.njit(nogil=True, cache=True)
def _least(deg, p, width):
    """Bitmask of the moves from ``p`` to a candidate of least degree (0: no candidate)."""
    best = _LIMIT
    for k in range(8):
        best = min(best, deg[p + _DR[k] * width + _DC[k]])
    mask = 0
    if best < _LIMIT:
        for k in range(8):
            mask |= (deg[p + _DR[k] * width + _DC[k]] == best) * (1 << k)
    return mask


@nb.njit(nogil=True, cache=True)
def _push(frames, nf, n, ties, mask, todo, after, before):
    """Write tie frame ``nf`` (its bounds, in slice mode, are written by :func:`_partition`)."""
    frames[nf, F_POS] = n
    frames[nf, F_TIES] = ties
    frames[nf, F_MASK] = mask
    frames[nf, F_TODO] = todo
    frames[nf, F_AFTER] = after
    frames[nf, F_BEFORE] = before


@nb.njit(nogil=True, cache=True)
def _next_branch(frames, nf):
    """Drop exhausted frames and take the next branch of the innermost one.

    Returns (frames left, the branch's move), or (0, -1) when the search is over.
    """
    while nf > 0:
        todo = frames[nf - 1, F_TODO]
        if todo:
            frames[nf - 1, F_TODO] = todo & (todo - 1)
            return nf, _LOWBIT[todo]
        nf -= 1
    return 0, -1


@nb.njit(nogil=True, cache=True)
def _record(leaf, i, n, end, ties):
    """Write leaf ``i``: ``n`` squares visited, padded ``end``, ``ties`` residual tie points."""
    leaf[i, L_VISITED] = n
    leaf[i, L_END] = end
    leaf[i, L_TIES] = ties


# --- constraint mode -----------------------------------------------------------------
@nb.njit(nogil=True, cache=True)
def _live(before, mask):
    """Moves of ``mask`` that no other move of ``mask`` must precede (the branches).

    ``before``: byte ``m`` = moves that must come before ``m``.
    """
    live = 0
    rem = mask
    while rem:
        t = _LOWBIT[rem]
        rem &= rem - 1
        if (before >> (8 * t)) & mask == 0:
            live |= 1 << t
    return live


@nb.njit(nogil=True, cache=True)
def _constrain(after, before, mask, t):
    """Add "``t`` before every other move of ``mask``" and close transitively.

    ``after`` / ``before`` hold one byte per move: byte ``m`` = the moves that must
    come after / before ``m``. Returns the new (after, before).
    """
    others = mask & ~(1 << t)
    up = ((before >> (8 * t)) & 0xFF) | (1 << t)  # t and the moves before it
    down = others  # the other tied moves and the moves after them
    rem = others
    while rem:
        u = _LOWBIT[rem]
        rem &= rem - 1
        down |= (after >> (8 * u)) & 0xFF
    rem = up
    while rem:
        a = _LOWBIT[rem]
        rem &= rem - 1
        after |= down << (8 * a)
    rem = down
    while rem:
        d = _LOWBIT[rem]
        rem &= rem - 1
        before |= up << (8 * d)
    return after, before


@nb.njit(nogil=True, cache=True)
def _expand(before, leaf, leaf_of, scratch):
    """Write ``leaf`` into ``leaf_of[rank]`` for every order consistent with ``before``.

    Depth-first over positions, choosing among the moves whose predecessors are all
    placed; the rank grows as a Lehmer code. ``scratch``: int64[3, 8]. Returns
    (orders written, ranks already written: must be 0).
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
        m = _LOWBIT[a]
        avail[lvl] = a & (a - 1)
        r = acc[lvl] + _POPCOUNT[~used & ((1 << m) - 1) & 0xFF] * _WEIGHT[lvl]
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
            u = _LOWBIT[rem]
            rem &= rem - 1
            if (before >> (8 * u)) & 0xFF & ~used == 0:
                a |= 1 << u
        avail[lvl] = a
    return count, clash


@nb.njit(nogil=True, cache=True)
def _tree_full(deg0, offsets, p0, rows, cols, rule, leaf_of, leaf):
    """Search the tie tree from padded square ``p0``, labelling all 40,320 ranks.

    ``deg0, offsets``: :func:`knight.engine.layout.padded`; ``rule``: a rule code of
    :data:`knight.engine.tiebreak.ORDER_RULES`. ``leaf_of`` (int32[40320]) receives the leaf
    of each rank, ``leaf`` (int64[40320, N_LEAF_FIELDS]) each leaf's outcome.
    Returns (leaves, knight steps walked, ranks labelled, ranks labelled twice).
    """
    deg = deg0.copy()
    width = cols + 4
    path = np.empty(rows * cols, np.int64)
    saved = np.empty(rows * cols, np.int32)
    frames = np.empty((rows * cols, N_FIELDS), np.int64)
    scratch = np.zeros((3, 8), np.int64)
    leaf_of[:] = -1
    after = 0
    before = 0
    n = _visit(deg, path, saved, 0, p0, width)
    ties = nf = leaves = steps = labelled = clash = 0
    while True:
        # The candidates left after the least degree and the rule's key.
        cur = path[n - 1]
        mask = _least(deg, cur, width)
        if rule != FIXED and _POPCOUNT[mask] > 1:
            mask = narrow(rule, mask, deg, cur, offsets, width, rows, cols, _LIMIT, None)
        if _POPCOUNT[mask] == 1:  # a forced move
            n = _visit(deg, path, saved, n, cur + offsets[_LOWBIT[mask]], width)
            steps += 1
            continue
        if mask:  # a residual tie point
            ties += 1
            live = _live(before, mask)
            if _POPCOUNT[live] == 1:  # it already precedes the other tied moves
                n = _visit(deg, path, saved, n, cur + offsets[_LOWBIT[live]], width)
                steps += 1
                continue
            _push(frames, nf, n, ties, mask, live, after, before)
            nf += 1
        else:  # a leaf: no candidate left
            if leaves == leaf.shape[0]:
                return leaves, steps, labelled, clash + 1
            _record(leaf, leaves, n, path[n - 1], ties)
            c, x = _expand(before, leaves, leaf_of, scratch)
            labelled += c
            clash += x
            leaves += 1
        # Backtrack to the innermost frame with a branch left and enter that branch.
        nf, t = _next_branch(frames, nf)
        if t < 0:
            return leaves, steps, labelled, clash
        f = nf - 1
        n = _undo(deg, path, saved, n, frames[f, F_POS], width)
        ties = frames[f, F_TIES]
        after, before = _constrain(frames[f, F_AFTER], frames[f, F_BEFORE], frames[f, F_MASK], t)
        n = _visit(deg, path, saved, n, path[n - 1] + offsets[t], width)
        steps += 1


# --- slice mode ----------------------------------------------------------------------
@nb.njit(nogil=True, cache=True)
def _partition(seg, lo, hi, mask, prio, frames, f, branch, tmp):
    """Group ``seg[lo:hi]`` by the move of ``mask`` each order ranks first.

    Writes the bounds into ``frames[f, F_BOUNDS:]`` (branch ``m`` gets
    ``seg[b[m]:b[m + 1]]``; the order within a branch is kept) and returns the
    bitmask of the non-empty branches. ``branch``, ``tmp``: scratch as long as ``seg``.
    """
    b = F_BOUNDS
    for m in range(9):
        frames[f, b + m] = 0
    # Count the orders of each branch into b[m + 1], then turn counts into bounds.
    for i in range(lo, hi):
        o = seg[i]
        rem = mask
        first = 8
        best = 8
        while rem:
            m = _LOWBIT[rem]
            rem &= rem - 1
            p = prio[o, m]
            if p < best:
                best = p
                first = m
        branch[i] = first
        frames[f, b + first + 1] += 1
    todo = 0
    frames[f, b] = lo
    for m in range(8):
        if frames[f, b + m + 1]:
            todo |= 1 << m
        frames[f, b + m + 1] += frames[f, b + m]
    if _POPCOUNT[todo] > 1:
        for i in range(lo, hi):
            m = branch[i]
            tmp[frames[f, b + m]] = seg[i]
            frames[f, b + m] += 1
        # The scatter advanced each b[m] to b[m + 1]: shift the bounds back.
        for m in range(8, 0, -1):
            frames[f, b + m] = frames[f, b + m - 1]
        frames[f, b] = lo
        for i in range(lo, hi):
            seg[i] = tmp[i]
    return todo


@nb.njit(nogil=True, cache=True)
def _label(seg, lo, hi, leaf, leaf_of):
    """Write ``leaf`` into ``leaf_of`` for the ranks ``seg[lo:hi]``; return ranks already written."""
    clash = 0
    for i in range(lo, hi):
        r = seg[i]
        if leaf_of[r] != -1:
            clash += 1
        leaf_of[r] = leaf
    return clash


@nb.njit(nogil=True, cache=True)
def _tree_slice(deg0, offsets, p0, rows, cols, rule, wanted, prio, leaf_of, leaf):
    """Search the tie tree from padded square ``p0``, labelling only the ranks ``wanted``.

    As :func:`_tree_full`, with ``wanted`` sorted ranks and ``prio`` =
    :func:`knight.core.orders.priorities`; ``leaf_of`` is -1 at the ranks not wanted.
    """
    deg = deg0.copy()
    width = cols + 4
    path = np.empty(rows * cols, np.int64)
    saved = np.empty(rows * cols, np.int32)
    frames = np.empty((rows * cols, N_FIELDS), np.int64)
    seg = wanted.copy()
    branch = np.empty_like(seg)
    tmp = np.empty_like(seg)
    leaf_of[:] = -1
    lo = 0
    hi = seg.shape[0]
    n = _visit(deg, path, saved, 0, p0, width)
    ties = nf = leaves = steps = labelled = clash = 0
    while True:
        # The candidates left after the least degree and the rule's key.
        cur = path[n - 1]
        mask = _least(deg, cur, width)
        if rule != FIXED and _POPCOUNT[mask] > 1:
            mask = narrow(rule, mask, deg, cur, offsets, width, rows, cols, _LIMIT, None)
        if _POPCOUNT[mask] == 1:  # a forced move
            n = _visit(deg, path, saved, n, cur + offsets[_LOWBIT[mask]], width)
            steps += 1
            continue
        if mask:  # a residual tie point
            ties += 1
            todo = _partition(seg, lo, hi, mask, prio, frames, nf, branch, tmp)
            if _POPCOUNT[todo] == 1:  # every wanted order here takes the same branch
                n = _visit(deg, path, saved, n, cur + offsets[_LOWBIT[todo]], width)
                steps += 1
                continue
            _push(frames, nf, n, ties, mask, todo, 0, 0)
            nf += 1
        else:  # a leaf: no candidate left
            if leaves == leaf.shape[0]:
                return leaves, steps, labelled, clash + 1
            _record(leaf, leaves, n, path[n - 1], ties)
            clash += _label(seg, lo, hi, leaves, leaf_of)
            labelled += hi - lo
            leaves += 1
        # Backtrack to the innermost frame with a branch left and enter that branch.
        nf, t = _next_branch(frames, nf)
        if t < 0:
            return leaves, steps, labelled, clash
        f = nf - 1
        n = _undo(deg, path, saved, n, frames[f, F_POS], width)
        ties = frames[f, F_TIES]
        lo = frames[f, F_BOUNDS + t]
        hi = frames[f, F_BOUNDS + t + 1]
        n = _visit(deg, path, saved, n, path[n - 1] + offsets[t], width)
        steps += 1


@nb.njit(nogil=True, cache=True)
def _fill(
    starts,
    elems,
    inverse,
    squares,
    images,
    ranks,
    leaf_of,
    leaf_visited,
    leaf_end,
    leaf_closed,
    leaf_ties,
    size,
    o_start,
    o_order,
    o_visited,
    o_end,
    o_complete,
    o_closed,
    o_ties,
):
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


def _rule(rule: str) -> int:
    """Code of a rule the tie tree sweeps; ``ValueError`` for any other."""
    if rule not in ORDER_RULES:
        raise ValueError(f"the tie tree sweeps the rules {', '.join(ORDER_RULES)}, not {rule!r}")
    return rule_code(rule)


def search(board: Board, start: int, wanted=None, full: bool | None = None, *, rule: str = "fixed"):
    """Search the tie tree of ``rule`` from board square ``start``.

    ``wanted``: sorted ranks to label (default all). ``full`` forces constraint mode
    (True) or slice mode (False); by default constraint mode is used when more than
    :data:`FULL_THRESHOLD` ranks are wanted. ``rule``: one of
    :data:`knight.engine.tiebreak.ORDER_RULES`. Returns a dict: ``leaf_of`` (int32[40320],
    leaf of each labelled rank, -1 elsewhere), per leaf ``visited``, ``end`` (board
    square), ``closed``, ``ties`` (residual tie points), ``orders`` (ranks labelled),
    and ``steps``, ``full``. Raises ``RuntimeError`` if the leaves do not partition
    the wanted ranks.
    """
    code = _rule(rule)
    wanted = np.arange(N_ORDERS, dtype=np.int64) if wanted is None else np.unique(np.asarray(wanted, np.int64))
    if full is None:
        full = len(wanted) > FULL_THRESHOLD
    deg0, offsets, index = padded(board)
    leaf_of = np.empty(N_ORDERS, np.int32)
    leaf = np.empty((N_ORDERS, N_LEAF_FIELDS), np.int64)
    geometry = (deg0, offsets, int(index[start]), board.rows, board.cols, code)
    if full:
        leaves, steps, labelled, clash = _tree_full(*geometry, leaf_of, leaf)
    else:
        leaves, steps, labelled, clash = _tree_slice(*geometry, wanted, priorities(), leaf_of, leaf)
    expected = N_ORDERS if full else len(wanted)
    if clash or labelled != expected:
        raise RuntimeError(
            f"tie tree ({rule}) from square {start} on {board.name}: leaves label {labelled} "
            f"ranks ({clash} twice), expected each of {expected} exactly once"
        )
    end = unpad(leaf[:leaves, L_END], board.cols)
    visited = leaf[:leaves, L_VISITED].astype(np.uint32)
    nb_ = board.neighbours[start]
    closed = (visited == board.size) & np.isin(end, nb_[nb_ >= 0])
    return {
        "leaf_of": leaf_of,
        "visited": visited,
        "end": end,
        "closed": closed,
        "ties": leaf[:leaves, L_TIES].astype(np.uint16),
        "orders": np.bincount(leaf_of[leaf_of >= 0], minlength=leaves),
        "steps": int(steps),
        "full": bool(full),
    }


def tree_orbit(
    board: Board, starts: np.ndarray, ranks: np.ndarray, full: bool | None = None, *, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows for ``starts`` (one symmetry orbit, sorted) x ``ranks`` (sorted) under
    ``rule``, searching only the orbit's smallest square; for ``fixed`` exactly the
    rows of :func:`knight.engine.sweep.brute_orbit`.

    Returns ``start, order, visited, end, complete, closed, ties`` (residual tie
    points; rows by start, then rank) and ``steps`` (knight steps walked,
    one-element array). ``full`` and ``rule`` as in :func:`search`.
    """
    _rule(rule)
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
    res = search(board, s0, wanted, full, rule=rule)
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
    _fill(
        starts,
        elems,
        inverse,
        np.ascontiguousarray(grp.squares, np.int64),
        images,
        ranks,
        res["leaf_of"],
        res["visited"],
        res["end"],
        res["closed"],
        res["ties"],
        board.size,
        out["start"],
        out["order"],
        out["visited"],
        out["end"],
        out["complete"],
        out["closed"],
        out["ties"],
    )
    out["steps"] = np.array([res["steps"]], np.int64)
    return out


__all__ = ["search", "tree_orbit", "FULL_THRESHOLD"]
