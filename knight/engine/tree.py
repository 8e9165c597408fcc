"""Tie-tree engine: every tie order from a start at the cost of the distinct paths.

Conventions (docs/conventions.md): moves are 0-based here (index ``m`` is move
``m + 1``); an order is a permutation of the moves, highest priority first,
identified by its lexicographic rank (0 .. 40,319). The rules swept are those whose
residual ties a tie order breaks (:data:`knight.engine.tiebreak.ORDER_RULES`: ``fixed``,
``pohl``, ``roth``, ``corner``). At each step the least-degree candidates are
narrowed by the rule's key (:func:`knight.engine.tiebreak.narrow`; ``fixed`` has none); a
*residual tie point* is a step where two or more candidates are left, so that the
order decides. For ``fixed`` that is a plain tie point.

Search. From a start the knight walks while one candidate is left: the engine's one
step, :func:`knight.engine.step.enter`, visits a square and returns the candidates from
it in one pass over its eight neighbours (in move order, given the padded width), and
:func:`_forced` repeats it while a single candidate is left. At a
residual tie among the moves ``T`` the search branches on each ``t`` in ``T``: the
orders whose first move of ``T`` is ``t``. Two kernels share
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

Constraint mode walks two lanes side by side (:func:`_tree_full`): each turn of its
inner loop (:func:`_side_by_side`) takes a step of each, so that one lane's step fills
the time the other's spends waiting on its look-ups. Under ``fixed`` that loop also
walks through ties with a single branch (most ties), so that it stops only at a leaf or
a tie with two or more branches. Lane 0 starts at the root; a lane with no branch left
takes the lowest branch left at the other lane's oldest open frame, a large subtree
(:func:`_steal`). Each lane has its own half of the degrees, frames and copies; both
record into the same leaves, numbered in the order they are reached (which leaf a rank
gets does not depend on it). The lanes share every array, and the branching code is
written once for both inside the search's loop: numba then counts no references there.

A tie with a single branch is walked through like a forced move (its tie still
counts); a tie with two or more opens a frame (:func:`_open`): one row of an int64 array
whose columns are the ``F_*`` constants, and a copy of the degree array (one byte a
square, :func:`_save`) and the square it leaves from. Backtracking takes the next branch
of a frame (:func:`_branch`, in both modes and when a lane takes the other's branch),
which copies the frame's degrees back (:func:`_load`), so a step is never undone square
by square, and no path is kept. The
leaves of a start partition the wanted ranks; the kernels count the labels and
:func:`search` raises unless every rank is labelled exactly once. A leaf's tie count
is the number of residual tie points on its path, as a single run counts them.

Symmetry: for an orbit of starts only the representative ``s0`` (smallest square of
the orbit) is searched. For ``t = g·s0`` the run under ``o'`` is the image under
``g`` of the run from ``s0`` under ``g⁻¹·o'`` (the degrees and the rules' keys are
invariant under the board's symmetries): same visited count, completeness,
closedness and tie count, end square mapped by ``g``. A start fixed by some
symmetries needs no special case in that mapping: any ``g`` with ``g·s0 = t`` gives the same rows
(the first one in element order is used). Slice mode is chosen when at most
:data:`FULL_THRESHOLD` ranks are wanted at ``s0``. When a mirror ``g`` fixes ``s0``
itself (a square on a diagonal or a middle line), the tree from ``s0`` is its own mirror
image: constraint mode walks one branch of each mirror pair at the first step and
records each leaf twice, once for the mirror-image orders (end mapped by ``g``), so such
a start costs half its tree.

Memory per call: a few tables of 40,320 entries, stacks of board-size length and one
padded board (one byte a square) per open frame, for each lane.
"""

from __future__ import annotations

import mmap
import sys
from typing import NamedTuple

import numba as nb
import numpy as np

from knight.core.board import Board
from knight.core.orders import LEHMER_WEIGHTS, N_ORDERS, check_ranks, priorities
from knight.core.symmetry import fixing_mirror, group, image
from knight.engine.layout import BLOCKED, padded, unpad
from knight.engine.step import LEVEL, enter
from knight.engine.tiebreak import FIXED, ORDER_RULES, narrow, rule_code

#: Wanted orders at the representative start above which the full tree is expanded.
FULL_THRESHOLD = N_ORDERS // 4

#: Degrees of visited and margin squares never drop below this (at most 8 decrements).
_LIMIT = BLOCKED - 8
#: ``_WEIGHT[i]``: (7 - i)!, the weight of position ``i`` of an order in its rank.
_WEIGHT = LEHMER_WEIGHTS
#: Population count of a byte, and index of its lowest set bit (8 for 0).
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_LOWBIT = np.array([(i & -i).bit_length() - 1 if i else 8 for i in range(256)], dtype=np.int64)
#: ``_SPREAD[mask]``: byte ``m`` is 0xFF for each bit ``m`` of ``mask`` (as int64 bits).
_SPREAD = np.array([sum(0xFF << (8 * m) for m in range(8) if i >> m & 1) for i in range(256)], np.uint64).view(np.int64)

# Columns of a tie frame (one row per tie point with two or more branches on the path).
F_POS = 0  #: path length at the tie
F_TIES = 1  #: residual tie points on the path up to this one, included
F_MASK = 2  #: the tied moves left after the rule's key (bit m: move m)
F_TODO = 3  #: branches not taken yet (bit m: the orders ranking m first among F_MASK)
F_AFTER = 4  #: full mode: the constraints on entry (see _constrain)
F_BEFORE = 5
F_SQUARE = 6  #: the padded square the branches leave from
F_BOUNDS = 7  #: slice mode, 9 columns: branch m holds the ranks seg[b[m]:b[m + 1]]
N_FIELDS = F_BOUNDS + 9

# Columns of a leaf (one row per distinct path).
L_VISITED = 0  #: squares visited
L_END = 1  #: padded end square
L_TIES = 2  #: residual tie points on the path
L_MIRROR = 3  #: 1: the mirror image of the leaf before it (full mode, see _tree_full)
N_LEAF_FIELDS = 4


class Walk(NamedTuple):
    """The walking state of a search, for one lane or two (:func:`_walk`): ``deg``
    (int8 degrees of the padded board, see :func:`knight.engine.layout.padded`, then
    margin cells up to a multiple of 8; a lane's after the other's), ``frames``
    (int64[board size, N_FIELDS] a lane) and ``snap`` (int64[board size, lane cells / 8]
    a lane: the degrees at each open frame, copied eight cells to a word)."""

    deg: np.ndarray
    frames: np.ndarray
    snap: np.ndarray


class Geometry(NamedTuple):
    """What a kernel needs of the board: ``offsets`` (int64[8], padded step of each
    move), ``lowest`` (int64[256]: the step of the lowest move of each bitmask),
    ``rows``, ``cols``, the padded ``width`` (cols + 4), the ``rule`` code and ``level``
    (:data:`knight.engine.step.LEVEL`)."""

    offsets: np.ndarray
    lowest: np.ndarray
    rows: int
    cols: int
    width: int
    rule: int
    level: np.ndarray


@nb.njit(nogil=True, cache=True)
def _forced(deg, cur, mask, move, width, offsets, level):
    """Walk on from padded square ``cur`` while its candidates ``mask`` are a single
    move; return (the square reached, its candidates, knight steps walked).

    The search's common case in a loop of its own, whose few variables stay in
    registers (in the search's main loop they are spilled to memory on every step).
    """
    k = 0
    while mask != 0 and mask & (mask - 1) == 0:
        cur += offsets[np.uint64(move)]
        mask, move = enter(deg, cur, width, level)
        k += 1
    return cur, mask, k


@nb.njit(nogil=True, cache=True)
def _save(snap, row, words, o):
    """Copy the degrees at word offset ``o`` (``snap.shape[1]`` words) into ``snap[row]``."""
    for i in range(snap.shape[1]):
        snap[row, i] = words[o + i]


@nb.njit(nogil=True, cache=True)
def _load(words, o, snap, row):
    """Copy ``snap[row]`` back to the degrees at word offset ``o``."""
    for i in range(snap.shape[1]):
        words[o + i] = snap[row, i]


@nb.njit(nogil=True, cache=True, inline="always")
def _open(frames, row, snap, words, o, n, square, ties, mask, todo):
    """Open frame ``row`` at path length ``n``, padded ``square`` (of the lane's own
    cells), ``ties`` tie points, tied moves ``mask`` and branches ``todo`` not taken
    yet, with a copy of the degrees at word offset ``o`` of ``words``. Its constraints
    or bounds are the caller's to write."""
    frames[row, F_POS] = n
    frames[row, F_SQUARE] = square
    frames[row, F_TIES] = ties
    frames[row, F_MASK] = mask
    frames[row, F_TODO] = todo
    _save(snap, row, words, o)


@nb.njit(nogil=True, cache=True, inline="always")
def _innermost(frames, fb, nf):
    """The open frames of a lane (rows ``fb .. fb + nf - 1``) once those above its
    innermost frame with a branch left are dropped: the new ``nf`` (0: none left)."""
    while nf > 0 and frames[fb + nf - 1, F_TODO] == 0:
        nf -= 1
    return nf


@nb.njit(nogil=True, cache=True, inline="always")
def _branch(frames, row, snap, words, o):
    """Back to frame ``row``: take its lowest branch not taken yet and copy its degrees
    back to word offset ``o`` of ``words``. Returns (the branch's move, path length,
    tie points, padded square of the frame)."""
    todo = frames[row, F_TODO]
    frames[row, F_TODO] = todo & (todo - 1)
    _load(words, o, snap, row)
    return _LOWBIT[todo], frames[row, F_POS], frames[row, F_TIES], frames[row, F_SQUARE]


@nb.njit(nogil=True, cache=True)
def _record(leaf, i, n, end, ties, mirror):
    """Write leaf ``i``: ``n`` squares visited, padded ``end``, ``ties`` residual tie
    points, ``mirror`` (1: the image of leaf ``i - 1``)."""
    leaf[i, L_VISITED] = n
    leaf[i, L_END] = end
    leaf[i, L_TIES] = ties
    leaf[i, L_MIRROR] = mirror


#: mmap's MAP_NORESERVE on Linux (the mmap module of Python 3.11 does not name it).
_MAP_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


def _reserve(rows: int, cols: int) -> np.ndarray:
    """An int64[rows, cols] array of address space only: pages are backed by memory when
    first written (zero until then), and the reservation is not counted against the
    machine's memory (MAP_NORESERVE), so that a large board's bound on open frames
    (about N^4 bytes on N x N) costs only the frames used."""
    nbytes = max(rows * cols * 8, 8)
    if nbytes < 1 << 28:
        return np.empty((rows, cols), np.int64)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE
    return np.frombuffer(mmap.mmap(-1, nbytes, flags=flags), np.int64).reshape(rows, cols)


def _walk(deg0: np.ndarray, size: int, lanes: int = 1) -> Walk:
    """A fresh walking state on ``lanes`` copies of ``deg0`` (int8) for a board of
    ``size`` squares: lane ``k``'s cells start at ``k * span`` (``span``: ``len(deg0)``
    rounded up to a multiple of 8), its frames and copies at row ``k * size``."""
    span = -(-len(deg0) // 8) * 8
    deg = np.full(lanes * span, BLOCKED, np.int8)
    for k in range(lanes):
        deg[k * span : k * span + len(deg0)] = deg0
    return Walk(
        deg,
        np.empty((lanes * size, N_FIELDS), np.int64),
        # One row per possible open frame; only the rows used are ever touched.
        _reserve(lanes * size, span // 8),
    )


# --- constraint mode -----------------------------------------------------------------
@nb.njit(nogil=True, cache=True)
def _mirror(before, sigma):
    """The constraints ``before`` (see :func:`_constrain`) with each move ``m`` renamed
    ``sigma[m]``: those of the mirror-image orders."""
    out = 0
    for m in range(8):
        b = (before >> (8 * m)) & 0xFF
        img = 0
        while b:
            img |= 1 << sigma[_LOWBIT[b]]
            b &= b - 1
        out |= img << (8 * sigma[m])
    return out


@nb.njit(nogil=True, cache=True)
def _live(after, mask):
    """Moves of ``mask`` that no other move of ``mask`` must precede (the branches).

    ``after``: byte ``m`` = moves that must come after ``m``; the bytes of the moves of
    ``mask`` are selected (:data:`_SPREAD`) and OR-folded, without a loop.
    """
    x = after & _SPREAD[mask]
    x |= x >> 32
    x |= x >> 16
    x |= x >> 8
    return mask & ~x & 0xFF


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


#: Columns of the lanes' state in :func:`_tree_full` (int64[2, N_LANE_FIELDS], one row a lane).
S_CUR = 0  #: padded square (the lane's own cells: lane 1's lie ``span`` cells on)
S_MASK = 1  #: its candidates
S_MOVE = 2  #: the lowest move of the mask
S_N = 3  #: path length
S_TIES = 4  #: residual tie points so far
S_AFTER = 5  #: constraints (see _constrain)
S_BEFORE = 6
S_NF = 7  #: open frames
S_LO = 8  #: no open frame below this one has a branch left
S_ON = 9  #: 1: walking; 0: nothing left (until it takes a branch of the other lane)
N_LANE_FIELDS = 10


@nb.njit(nogil=True, cache=True, inline="always")
def _side_by_side(deg, st, rule, offsets, lowest, width, level):
    """Walk both lanes of ``st`` (see :func:`_tree_full`) a step of each per turn until one
    needs the branching code: a leaf, a tie (under a rule with a key), or a tie with two
    or more branches (under ``fixed``). Returns the steps each lane walked. Inlined by
    numba: a call would count references to its arrays each time."""
    ca, ma, va = st[0, S_CUR], st[0, S_MASK], st[0, S_MOVE]
    cb, mb, vb = st[1, S_CUR], st[1, S_MASK], st[1, S_MOVE]
    k = 0
    if rule == FIXED:
        # Ties with a single branch too: a tied move that no other tied move must
        # precede is the move every order of the lane takes (_live; a single
        # candidate is its own branch).
        aa, ab = st[0, S_AFTER], st[1, S_AFTER]
        ta, tb = st[0, S_TIES], st[1, S_TIES]
        while True:
            la = _live(aa, ma)
            lb = _live(ab, mb)
            if la == 0 or la & (la - 1) or lb == 0 or lb & (lb - 1):
                break
            ta += ma != la
            tb += mb != lb
            ca += lowest[la]
            cb += lowest[lb]
            ma, va = enter(deg, ca, width, level)
            mb, vb = enter(deg, cb, width, level)
            k += 1
        st[0, S_TIES], st[1, S_TIES] = ta, tb
    else:
        while ma != 0 and ma & (ma - 1) == 0 and mb != 0 and mb & (mb - 1) == 0:
            ca += offsets[np.uint64(va)]
            cb += offsets[np.uint64(vb)]
            ma, va = enter(deg, ca, width, level)
            mb, vb = enter(deg, cb, width, level)
            k += 1
    st[0, S_CUR], st[0, S_MASK], st[0, S_MOVE] = ca, ma, va
    st[1, S_CUR], st[1, S_MASK], st[1, S_MOVE] = cb, mb, vb
    st[0, S_N] += k
    st[1, S_N] += k
    return k


@nb.njit(nogil=True, cache=True)
def _steal(st, w, frames, snap, words, deg, offsets, width, level):
    """Lane ``w`` of ``st`` (see :func:`_tree_full`), with nothing left, takes the lowest
    branch left at the other lane's oldest open frame, if any, and enters it. Returns
    the steps walked (1, or 0 when the other lane has no branch left)."""
    v = 1 - w
    fb = v * (frames.shape[0] // 2)
    f = st[v, S_LO]
    while f < st[v, S_NF] and frames[fb + f, F_TODO] == 0:
        f += 1
    st[v, S_LO] = f
    if f == st[v, S_NF]:
        return 0
    row = fb + f
    t, n, ties, square = _branch(frames, row, snap, words, w * snap.shape[1])
    p = square + w * (deg.shape[0] // 2) + offsets[t]
    st[w, S_MASK], st[w, S_MOVE] = enter(deg, p, width, level)
    st[w, S_CUR] = p
    st[w, S_N] = n + 1
    st[w, S_TIES] = ties
    st[w, S_AFTER], st[w, S_BEFORE] = _constrain(frames[row, F_AFTER], frames[row, F_BEFORE], frames[row, F_MASK], t)
    st[w, S_NF] = st[w, S_LO] = 0
    st[w, S_ON] = 1
    return 1


@nb.njit(nogil=True, cache=True)
def _canon(sigma):
    """The moves ``m < sigma[m]`` of a mirror's move image ``sigma`` (0 if empty): the
    one move of each mirror pair walked at the root."""
    canon = 0
    if sigma.shape[0] == 8:
        for m in range(8):
            if m < sigma[m]:
                canon |= 1 << m
    return canon


@nb.njit(nogil=True, cache=True)
def _tree_full(walk, geo, p0, leaf_of, leaf, sigma):
    """Search the tie tree from padded square ``p0``, labelling all 40,320 ranks.

    ``walk``: a two-lane :class:`Walk` (:func:`_walk`) on the board's initial degrees;
    ``geo``: :class:`Geometry`. ``leaf_of`` (int32[40320]) receives the leaf of each
    rank, ``leaf`` (int64[40320, N_LEAF_FIELDS]) each leaf's outcome. Returns (leaves,
    knight steps walked, ranks labelled, ranks labelled twice). The two lanes: module
    docstring; their state is ``st``, one row a lane (``S_*``). ``sigma`` (int64[8], or
    empty): the move image of a mirror that fixes ``p0``, whose halving the module
    docstring describes (each leaf recorded twice, ``L_MIRROR``; the end square of the
    second is mapped by the caller).
    """
    scratch = np.zeros((3, 8), np.int64)
    canon = _canon(sigma)
    halved = 0
    leaf_of[:] = -1
    deg, frames, snap = walk
    words = deg.view(np.int64)
    span = deg.shape[0] // 2  # cells of a lane
    nw = span // 8  # words of a lane
    depth = frames.shape[0] // 2  # frame rows of a lane
    lanes = (deg[:span], deg[span:])  # a lane's cells, for the rules' keys
    offsets, lowest, width, rule, level = geo.offsets, geo.lowest, geo.width, geo.rule, geo.level
    st = np.zeros((2, N_LANE_FIELDS), np.int64)
    st[0, S_CUR] = p0
    st[0, S_MASK], st[0, S_MOVE] = enter(deg, p0, width, level)
    st[0, S_N] = st[0, S_ON] = 1
    leaves = walked = labelled = clash = 0
    while st[0, S_ON] or st[1, S_ON]:
        if st[0, S_ON] and st[1, S_ON]:
            walked += 2 * _side_by_side(deg, st, rule, offsets, lowest, width, level)
        else:
            w = 0 if st[0, S_ON] else 1
            cur, mask, k = _forced(deg, st[w, S_CUR], st[w, S_MASK], st[w, S_MOVE], width, offsets, level)
            st[w, S_CUR], st[w, S_MASK] = cur, mask
            st[w, S_N] += k
            walked += k
        for w in range(2):
            mask = st[w, S_MASK]
            if not st[w, S_ON] or (mask != 0 and mask & (mask - 1) == 0):
                continue
            off = w * span
            fb = w * depth
            cur, n, ties, nf = st[w, S_CUR], st[w, S_N], st[w, S_TIES], st[w, S_NF]
            after, before = st[w, S_AFTER], st[w, S_BEFORE]
            p = cur + lowest[mask]  # the next square if the key leaves one candidate
            if mask & (mask - 1):  # two or more candidates
                if rule != FIXED:
                    mask = narrow(rule, mask, lanes[w], cur - off, offsets, width, geo.rows, geo.cols, _LIMIT, None)
                    p = cur + lowest[mask]
                if mask & (mask - 1):  # a residual tie point
                    ties += 1
                    live = _live(after, mask) if after else mask
                    if canon and n == 1:  # at p0: one move of each mirror pair
                        live &= canon
                        halved = 1
                        if not live & (live - 1):  # one pair: its mirror is no longer implied
                            after, before = _constrain(after, before, mask, _LOWBIT[live])
                    if live & (live - 1):  # two or more branches: open a frame, take the first
                        row = fb + nf
                        _open(frames, row, snap, words, w * nw, n, cur - off, ties, mask, live & (live - 1))
                        frames[row, F_AFTER], frames[row, F_BEFORE] = after, before
                        nf += 1
                        after, before = _constrain(after, before, mask, _LOWBIT[live])
                    p = cur + lowest[live]
            else:  # a leaf: no candidate left
                if leaves + halved >= leaf.shape[0]:
                    return leaves, walked, labelled, clash + 1
                for h in range(1 + halved):  # h = 1: the mirror image, for the mirror-image orders
                    _record(leaf, leaves, n, cur - off, ties, h)
                    c, x = _expand(_mirror(before, sigma) if h else before, leaves, leaf_of, scratch)
                    labelled += c
                    clash += x
                    leaves += 1
                nf = _innermost(frames, fb, nf)  # back to the innermost frame with a branch left
                if nf == 0:
                    st[w, S_ON] = st[w, S_NF] = st[w, S_LO] = 0
                    continue
                row = fb + nf - 1
                t, n, ties, square = _branch(frames, row, snap, words, w * nw)
                after, before = _constrain(frames[row, F_AFTER], frames[row, F_BEFORE], frames[row, F_MASK], t)
                p = square + off + offsets[t]
            st[w, S_MASK], st[w, S_MOVE] = enter(deg, p, width, level)
            st[w, S_CUR], st[w, S_N], st[w, S_TIES], st[w, S_NF] = p, n + 1, ties, nf
            st[w, S_AFTER], st[w, S_BEFORE] = after, before
            st[w, S_LO] = min(st[w, S_LO], nf)  # a frame opened later lies at nf or above
            walked += 1
        for w in range(2):  # a lane with nothing left takes a branch of the other
            if st[w, S_ON] or not st[1 - w, S_ON]:
                continue
            walked += _steal(st, w, frames, snap, words, deg, offsets, width, level)
    return leaves, walked, labelled, clash


# --- slice mode ----------------------------------------------------------------------
@nb.njit(nogil=True, cache=True)
def _partition(seg, lo, hi, mask, prio, bounds, scratch):
    """Group ``seg[lo:hi]`` by the move of ``mask`` each order ranks first.

    Writes the bounds into ``bounds`` (9 entries: branch ``m`` gets
    ``seg[bounds[m]:bounds[m + 1]]``; the order within a branch is kept) and returns
    the bitmask of the non-empty branches. ``scratch``: int64[2, len(seg)].
    """
    branch = scratch[0]
    tmp = scratch[1]
    bounds[:] = 0
    # Count the orders of each branch into bounds[m + 1], then turn counts into bounds.
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
        bounds[first + 1] += 1
    todo = 0
    bounds[0] = lo
    for m in range(8):
        if bounds[m + 1]:
            todo |= 1 << m
        bounds[m + 1] += bounds[m]
    if _POPCOUNT[todo] > 1:
        for i in range(lo, hi):
            m = branch[i]
            tmp[bounds[m]] = seg[i]
            bounds[m] += 1
        # The scatter advanced each bounds[m] to bounds[m + 1]: shift the bounds back.
        for m in range(8, 0, -1):
            bounds[m] = bounds[m - 1]
        bounds[0] = lo
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
def _tree_slice(walk, geo, p0, wanted, prio, leaf_of, leaf):
    """Search the tie tree from padded square ``p0``, labelling only the ranks ``wanted``.

    As :func:`_tree_full`, with ``wanted`` sorted ranks and ``prio`` =
    :func:`knight.core.orders.priorities`; ``leaf_of`` is -1 at the ranks not wanted.
    """
    seg = wanted.copy()
    scratch = np.empty((2, seg.shape[0]), np.int64)
    bounds = np.empty(9, np.int64)
    leaf_of[:] = -1
    lo = 0
    hi = seg.shape[0]
    deg, frames, snap = walk
    words = deg.view(np.int64)
    offsets, lowest, width, rule, level = geo.offsets, geo.lowest, geo.width, geo.rule, geo.level
    cur = p0
    mask, move = enter(deg, cur, width, level)
    n = 1
    ties = nf = leaves = walked = labelled = clash = 0
    while True:
        cur, mask, k = _forced(deg, cur, mask, move, width, offsets, level)
        n += k
        walked += k
        p = cur + lowest[mask]  # the next square if the move is forced
        if mask & (mask - 1):  # two or more candidates
            if rule != FIXED:
                mask = narrow(rule, mask, deg, cur, offsets, width, geo.rows, geo.cols, _LIMIT, None)
                p = cur + lowest[mask]
            if mask & (mask - 1):  # a residual tie point
                ties += 1
                todo = _partition(seg, lo, hi, mask, prio, bounds, scratch)
                if todo & (todo - 1):  # two or more branches: open a frame, take the first
                    _open(frames, nf, snap, words, 0, n, cur, ties, mask, todo & (todo - 1))
                    frames[nf, F_BOUNDS : F_BOUNDS + 9] = bounds
                    nf += 1
                    t = _LOWBIT[todo]
                    lo, hi = bounds[t], bounds[t + 1]
                p = cur + lowest[todo]
        elif mask == 0:  # a leaf: no candidate left
            if leaves == leaf.shape[0]:
                return leaves, walked, labelled, clash + 1
            _record(leaf, leaves, n, cur, ties, 0)
            clash += _label(seg, lo, hi, leaves, leaf_of)
            labelled += hi - lo
            leaves += 1
            nf = _innermost(frames, 0, nf)  # back to the innermost frame with a branch left
            if nf == 0:
                return leaves, walked, labelled, clash
            f = nf - 1
            t, n, ties, square = _branch(frames, f, snap, words, 0)
            lo, hi = frames[f, F_BOUNDS + t], frames[f, F_BOUNDS + t + 1]
            p = square + offsets[t]
        cur = p
        mask, move = enter(deg, cur, width, level)
        n += 1
        walked += 1


class _Leaves(NamedTuple):
    """Per-leaf outcome of a search, for :func:`_fill`: visited, board end square, closed, ties."""

    visited: np.ndarray
    end: np.ndarray
    closed: np.ndarray
    ties: np.ndarray


class _Plan(NamedTuple):
    """The rows :func:`_fill` writes: start ``starts[i]`` = ``elems[i]``·s0 under rank
    ``ranks[j]``, row ``i * len(ranks) + j``; ``inverse``, ``squares``, ``images``: the
    group's tables; ``leaf_of``: leaf of each rank at s0; ``size``: squares."""

    starts: np.ndarray
    elems: np.ndarray
    inverse: np.ndarray
    squares: np.ndarray
    images: np.ndarray
    ranks: np.ndarray
    leaf_of: np.ndarray
    size: int


@nb.njit(nogil=True, cache=True)
def _fill(plan, leaves, out):
    """Rows of ``plan`` from the ``leaves`` of s0 (:class:`_Leaves`) into ``out`` (a tuple
    of arrays: start, order, visited, end, complete, closed, ties).

    ``images[g, r]``: rank of g·o_r; ``squares[g, s]``: image of square ``s``.
    """
    o_start, o_order, o_visited, o_end, o_complete, o_closed, o_ties = out
    nr = plan.ranks.shape[0]
    for i in range(plan.starts.shape[0]):
        g = plan.elems[i]
        ginv = plan.inverse[g]
        base = i * nr
        for j in range(nr):
            r = plan.ranks[j]
            leaf = plan.leaf_of[plan.images[ginv, r]]
            row = base + j
            v = leaves.visited[leaf]
            o_start[row] = plan.starts[i]
            o_order[row] = r
            o_visited[row] = v
            o_end[row] = plan.squares[g, leaves.end[leaf]]
            o_complete[row] = v == plan.size
            o_closed[row] = leaves.closed[leaf]
            o_ties[row] = leaves.ties[leaf]


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
    wanted = np.arange(N_ORDERS, dtype=np.int64) if wanted is None else np.unique(check_ranks(wanted))
    if len(wanted) == 0:
        # No rank would steer the slice kernel at a tie: it must never be entered so.
        raise ValueError(f"tie tree from square {start}: wanted ranks must be 1 or more")
    if full is None:
        full = len(wanted) > FULL_THRESHOLD
    deg0, offsets, index = padded(board)
    leaf_of = np.empty(N_ORDERS, np.int32)
    leaf = np.empty((N_ORDERS, N_LEAF_FIELDS), np.int64)
    walk = _walk(deg0, board.size, 2 if full else 1)
    geo = Geometry(offsets, offsets[_LOWBIT & 7], board.rows, board.cols, board.cols + 4, code, LEVEL)
    p0 = int(index[start])
    mirror = fixing_mirror(board, start) if full else None
    if full:
        sigma = mirror[1] if mirror else np.empty(0, np.int64)
        leaves, steps, labelled, clash = _tree_full(walk, geo, p0, leaf_of, leaf, sigma)
    else:
        leaves, steps, labelled, clash = _tree_slice(walk, geo, p0, wanted, priorities(), leaf_of, leaf)
    expected = N_ORDERS if full else len(wanted)
    if clash or labelled != expected:
        raise RuntimeError(
            f"tie tree ({rule}) from square {start} on {board.name}: leaves label {labelled} "
            f"ranks ({clash} twice), expected each of {expected} exactly once"
        )
    end = unpad(leaf[:leaves, L_END], board.cols)
    if mirror:
        images = leaf[:leaves, L_MIRROR] == 1
        end[images] = image(board, mirror[0], end[images])
    visited = leaf[:leaves, L_VISITED].astype(np.uint32)
    # Closed: complete and the end one knight move from the start (by coordinates: the
    # board's neighbour table is 32 bytes a square, too much to build for one start).
    dr, dc = np.abs(end // board.cols - start // board.cols), np.abs(end % board.cols - start % board.cols)
    closed = (visited == board.size) & (dr * dc == 2)
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


def _orbit_plan(board: Board, starts: np.ndarray, ranks: np.ndarray) -> tuple[int, np.ndarray, np.ndarray | None]:
    """The orbit's smallest square s0, the element mapping s0 onto each start (the first
    in element order), and the ranks needed at s0 (None: all)."""
    grp = group(board)
    if len(starts) == 0 or len(ranks) == 0:
        raise ValueError("tree_orbit needs at least one start and one rank")
    if starts.min() < 0 or starts.max() >= board.size:
        raise ValueError(f"start squares must lie in 0..{board.size - 1} on {board.name}")
    check_ranks(ranks)
    s0 = int(grp.squares[:, starts[0]].min())
    hits = grp.squares[:, s0][:, None] == starts[None, :]  # [G, len(starts)]
    if not hits.any(axis=0).all():
        bad = int(starts[~hits.any(axis=0)][0])
        raise ValueError(f"start {bad} is not in the orbit of square {s0} on {board.name}")
    elems = hits.argmax(axis=0).astype(np.int64)
    # Ranks needed at s0: g⁻¹·o' for every requested (t = g·s0, o').
    if len(ranks) == N_ORDERS:
        return s0, elems, None
    images = grp.order_images()
    return s0, elems, np.unique(images[grp.inverse[np.unique(elems)]][:, ranks])


def tree_orbit(
    board: Board, starts: np.ndarray, ranks: np.ndarray, full: bool | None = None, *, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows for ``starts`` (one symmetry orbit, sorted) x ``ranks`` (sorted) under
    ``rule``, searching only the orbit's smallest square; for ``fixed`` exactly the
    rows of :func:`knight.engine.brute.brute_orbit`.

    Returns ``start, order, visited, end, complete, closed, ties`` (residual tie
    points; rows by start, then rank) and ``steps`` (knight steps walked,
    one-element array). ``full`` and ``rule`` as in :func:`search`.
    """
    _rule(rule)
    starts = np.asarray(starts, np.int64)
    ranks = np.asarray(ranks, np.int64)
    s0, elems, wanted = _orbit_plan(board, starts, ranks)
    res = search(board, s0, wanted, full, rule=rule)
    grp = group(board)
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
    plan = _Plan(
        starts,
        elems,
        np.ascontiguousarray(grp.inverse, np.int64),
        np.ascontiguousarray(grp.squares, np.int64),
        grp.order_images(),
        ranks,
        res["leaf_of"],
        board.size,
    )
    _fill(plan, _Leaves(res["visited"], res["end"], res["closed"], res["ties"]), tuple(out.values()))
    out["steps"] = np.array([res["steps"]], np.int64)
    return out


__all__ = ["search", "tree_orbit", "FULL_THRESHOLD"]
