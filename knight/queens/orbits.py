"""Dominating sets of ``k`` queens, one representative per symmetry class (numba).

Search: pick queens one at a time; at each node branch on the queens covering one
uncovered square, trying them in square order and forbidding each tried queen in its
later siblings, so every set appears at most once. The branching square is square 0
(the top-left corner) at the root and, below it, the uncovered square with the fewest
allowed queens covering it (a square with none cuts the node). Coverage is kept per
*line* (row, column, diagonal, anti-diagonal): a queen covers exactly its four lines,
so the uncovered squares a queen would newly cover, and the allowed queens covering a
square, are each four table look-ups (minus the square itself, counted four times).

Cuts: the ``r`` queens left can cover at most the sum of the ``r`` largest numbers of
uncovered squares any allowed queen covers (its *gain*); at the last queen it must
cover them all. A candidate is skipped before its child is built when its gain plus
the ``r - 1`` best gains left after it cannot cover the rest; for the best
``TOP_KEPT`` queens those gains are made exact by removing the squares the candidate
covers too. By the same bound a queen whose gain is under that least gain is in no set
below the node, so it is forbidden there. Two last queens are paired directly: the
second lies on the lines of two squares the first leaves uncovered, at most a dozen
squares.

Symmetry: a set's key is ``(a, b, sorted squares)`` where ``a`` is its smallest square
among those covering square 0 (row 0, column 0 and the main diagonal) and ``b`` its
smallest square covering ``second[a]``, the square the search branches on below the
root queen ``a`` (:func:`second_squares`); a class's representative is the member with
the smallest key. With ``sym`` the root, after trying queen ``q`` on a square covering
square 0, forbids in its later siblings the whole orbit of ``q`` (any set of those
subtrees holding an image of ``q`` has an image with a smaller ``a``). Below a root
queen ``a`` that a symmetry ``g`` fixes (a corner, a square of the main diagonal, the
middle of row 0 of an odd board), depth 1 branches on ``second[a]`` and, after trying
``c``, forbids ``g(c)`` in the later siblings: a set there holding ``g(c)`` has the
image under ``g`` holding ``a`` and ``c``, whose ``b`` is smaller. Each set found is
kept only when it is its class's representative, counting its orbit size (8 over its
stabiliser's order); the representative is never one of the sets forbidden. Without
``sym`` every set is found and counts 1: the enumeration of all sets, whose
representatives give the classes.

Nodes ``(chosen squares, forbidden bitboard)`` split the search into units:
:func:`run` with ``stop`` (1 .. k-2) returns the nodes at that depth instead of finishing them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from knight.queens.bits import (
    full_board,
    keep_largest,
    lowbit_index,
    pop_lowest,
    popcount,
    queen_cover,
    words,
)
from knight.queens.symmetry import _insertion_sort, orbit, square_images

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# Pruning ideas, as bits of ``opts`` (each timed by ``benchmarks/bench_queens.py --pruning``).
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
#: With ``sym``: below a root queen that a symmetry fixes, branch on its second square
#: and forbid the images under that symmetry of the queens tried (module docstring).
SECOND = 64
#: How many of a node's best queens CHILD_OVERLAP keeps (the fastest of the counts tried
#: on sampled nodes of dominate 19 10 and on dominate 13 7: docs/queens.md).
TOP_KEPT = 32
#: Forbid below a node every queen whose gain is under the node's ``need``: with the
#: ``r - 1`` best gains it cannot cover the rest, so no set below the node holds it (needs
#: a bound, BOUND_TWO or BOUND_MORE, which finds ``need``). The branching square is then
#: the one fewest of the remaining queens cover, and often one that none does.
USELESS = 128
#: The ideas a plan's nodes are listed with (:func:`nodes_at`). USELESS is left out: it
#: changes which nodes are listed, and so the plan and its fingerprint, without changing
#: what the units find.
PLAN_OPTS = FEWEST | BOUND_TWO | BOUND_MORE | CHILD_CUT | CHILD_OVERLAP | SECOND
#: The ideas that paid (the others were slower or cut nothing more).
DEFAULT_OPTS = PLAN_OPTS | USELESS


@lru_cache(maxsize=64)
def line_table(n: int) -> np.ndarray:
    """``uint16[n*n, 4]``: the line ids of each square: row ``r``, column ``n + c``,
    diagonal ``2n + (r - c + n - 1)``, anti-diagonal ``4n - 1 + (r + c)`` (``6n - 2`` lines).
    Unsigned, as are the squares of the search's hot loops: numba then indexes without
    the wrap-around of negative indices (0.91 of the CPU time of signed ones)."""
    r, c = np.divmod(np.arange(n * n), n)
    table = np.stack([r, n + c, 2 * n + (r - c + n - 1), 4 * n - 1 + (r + c)], axis=1).astype(np.uint16)
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


#: What :func:`_expand` finds at a node, and so what the search does there next.
#: Cut: no dominating set lies below the node.
DEAD = 0
#: Branch: ``candidates[d]`` holds the queens to try, one child each.
BRANCH = 1
#: One queen left: ``candidates[d]`` holds the queens that cover every uncovered square.
LAST_QUEEN = 2
#: ``k`` queens placed and nothing uncovered: the chosen queens are a dominating set.
COMPLETE = 3
#: Two queens left: ``candidates[d]`` holds the first queens to try; each is paired directly.
TWO_LEFT = 4

#: Indices of :attr:`Found.counts`.
SOLUTIONS, CLASSES, NODES, LISTED = range(4)


class Tables(NamedTuple):
    """The per-board tables of the search (:func:`tables`), ``W`` words a bitboard."""

    cover: np.ndarray  # uint64[n*n, W]: squares a queen on each square covers
    full: np.ndarray  # uint64[W]: every square of the board
    lines: np.ndarray  # uint16[n*n, 4]: line ids of each square (line_table)
    images: np.ndarray  # int32[8, n*n]: image of each square under each symmetry
    corner: np.ndarray  # bool[n*n]: the square covers square 0
    orbit: np.ndarray  # uint64[n*n, W]: bitboard of each square's orbit
    second: np.ndarray  # int64[n*n]: the square depth 1 branches on below each root queen, -1 none


class Levels(NamedTuple):
    """The search's state at each depth ``d`` (queens placed), row or element ``d`` of each
    array of ``k + 1``; depth ``d + 1`` is depth ``d`` less what its queen covers."""

    uncovered: np.ndarray  # uint64[k+1, W]: squares no chosen queen covers
    allowed: np.ndarray  # uint64[k+1, W]: squares a queen may still take
    candidates: np.ndarray  # uint64[k+1, W]: queens still to try at this depth
    line_uncovered: np.ndarray  # int32[k+1, L]: uncovered squares on each line
    line_allowed: np.ndarray  # int32[k+1, L]: allowed squares on each line
    n_uncovered: np.ndarray  # int64[k+1]: uncovered squares
    need: np.ndarray  # int64[k+1]: least gain a child's queen must have (CHILD_CUT)
    top_queens: np.ndarray  # int64[k+1, TOP_KEPT]: the best allowed queens (CHILD_OVERLAP), -1 none
    top_gains: np.ndarray  # int64[k+1, TOP_KEPT]: their gains, decreasing
    largest: np.ndarray  # int64[k+1]: scratch, the largest values of a scan (keep_largest)
    scan_queens: np.ndarray  # int64[n*n]: scratch of _best_gains, the allowed queens of a scan
    scan_gains: np.ndarray  # int64[n*n]: their gains
    hist: np.ndarray  # int64[4n]: how many of them have each gain
    hist_start: np.ndarray  # int64[4n]: slot of the first kept queen of each gain
    scan_count: np.ndarray  # int64[1]: queens in the last scan of _best_gains


class Found(NamedTuple):
    """What a search has found: ``counts`` (int64[4], indexed by SOLUTIONS, CLASSES, NODES
    visited and nodes LISTED); ``kept`` (int32[., k + 1]), each kept class's sorted squares
    then its orbit size; ``listed`` (uint64[., stop + W]), each listed node's chosen
    squares then its forbidden bitboard. Rows past the counts are room to grow (:func:`_grow`)."""

    counts: np.ndarray
    kept: np.ndarray
    listed: np.ndarray


class Buffers(NamedTuple):
    """The search's working arrays besides its :class:`Levels`: ``chosen`` (int32[k], the
    queen placed at each depth), ``sorted_set`` and ``image_set`` (int32[k], for
    :func:`classify`) and ``partners`` (int64[n*n], the second queens of :func:`_partners`)."""

    chosen: np.ndarray
    sorted_set: np.ndarray
    image_set: np.ndarray
    partners: np.ndarray


# Speed (benchmarks/bench_baselines.py against the kernel before these tuples): a call
# copies every array of a tuple argument and, in numba, may count references to each, so
# the helpers called once or more per node that take Levels are inlined (inline="always"),
# and the loop of _finish binds the arrays it uses once and passes them one by one. The
# arrays the search works on are borrowed (_borrowed): numba still counts references
# where a helper takes an array, but on a borrowed one the count is a test of a null
# pointer instead of an atomic increment and decrement (which took about a quarter of
# the search's time).


@intrinsic
def _borrowed(typingctx, arrays):
    """The tuple of arrays ``arrays`` without owners: the same data, shapes and strides, no
    reference counts. Whoever borrows them keeps ``arrays`` alive while they are used."""
    if not isinstance(arrays, types.BaseTuple) or not all(isinstance(t, types.Array) for t in arrays):
        return None

    def codegen(context, builder, signature, args):
        out = args[0]
        for i, ty in enumerate(signature.return_type):
            arr = cgutils.create_struct_proxy(ty)(context, builder, value=builder.extract_value(out, i))
            arr.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
            arr.parent = context.get_constant_null(types.pyobject)
            out = builder.insert_value(out, arr._getvalue(), i)
        return out

    return arrays(arrays), codegen


@njit(nogil=True, cache=True)
def _has(b, s):
    return (b[s >> 6] >> np.uint64(s & 63)) & _ONE


@njit(nogil=True, cache=True)
def _drop(d, s, allowed, line_allowed, lines):
    """Forbid square ``s`` at depth ``d`` (it must be allowed there)."""
    allowed[d, s >> 6] ^= _ONE << np.uint64(s & 63)
    for j in range(4):
        line_allowed[d, lines[s, j]] -= 1


@njit(nogil=True, cache=True)
def _gain(d, q, line_uncovered, uncovered, lines):
    """Uncovered squares (at depth ``d``) that a queen on ``q`` would cover."""
    g = (
        line_uncovered[d, lines[q, 0]]
        + line_uncovered[d, lines[q, 1]]
        + line_uncovered[d, lines[q, 2]]
        + line_uncovered[d, lines[q, 3]]
    )
    if _has(uncovered[d], q):
        g -= 3
    return g


@njit(nogil=True, cache=True, inline="always")
def _child_fails(d, q, g, k, cover, lv):
    """CHILD_OVERLAP: True when the ``r - 1`` queens after ``q`` (gain ``g``) cannot cover
    what ``q`` leaves: the node's kept best queens lose their overlap with ``q``, the
    others gain at most the smallest kept gain.

    The kept gains are decreasing and a queen's gain only falls, so the test stops as soon
    as its answer is known: when the ``r - 1`` best reach what is left to cover, or when
    not even the next kept queen's uncorrected gain could lift them to it."""
    uncovered = lv.uncovered
    allowed = lv.allowed
    top_queens = lv.top_queens
    top_gains = lv.top_gains
    best = lv.largest
    W = uncovered.shape[1]
    rr = k - d - 1
    T = top_queens.shape[1]
    qu = np.uint64(q)
    target = lv.n_uncovered[d] - g
    for i in range(rr):
        best[i] = top_gains[d, T - 1]
    tot = rr * top_gains[d, T - 1]
    fails = tot < target
    i = 0
    while fails and i < T:
        x = top_queens[d, i]
        gx = top_gains[d, i]
        i += 1
        if x < 0:
            break
        most = tot  # each of the rr best becomes at most the larger of itself and gx
        for j in range(rr):
            if gx > best[j]:
                most += gx - best[j]
        if most < target:
            break
        # A bit test rather than _has: a row view made in this loop counts references.
        xu = np.uint64(x)
        if x == q or (allowed[d, xu >> np.uint64(6)] >> (xu & np.uint64(63))) & _ONE == _ZERO:
            continue
        for w in range(W):
            gx -= np.int64(popcount(cover[xu, w] & cover[qu, w] & uncovered[d, w]))
        if gx > best[rr - 1]:
            tot += gx - best[rr - 1]
            j = rr - 1
            while j > 0 and best[j - 1] < gx:
                best[j] = best[j - 1]
                j -= 1
            best[j] = gx
            fails = tot < target
    return fails


@njit(nogil=True, cache=True)
def classify(chosen, k, images, corner, second, lines, scratch, work):
    """``(is_representative, orbit_size)`` of the set ``chosen[:k]`` (any order): its
    :func:`knight.queens.symmetry.orbit` with the class search's key (module docstring).
    ``scratch``/``work``: int32[k] buffers; ``scratch`` is left holding the sorted set.
    """
    for i in range(k):
        scratch[i] = chosen[i]
    _insertion_sort(scratch, k)
    return orbit(scratch[:k], images, work, corner, second, lines)


@njit(nogil=True, cache=True)
def _record(chosen, k, tab, sym, keep, counts, kept, sorted_set, image_set):
    """Count the dominating set ``chosen[:k]`` in ``counts`` and, with ``keep``, keep it in
    ``kept`` when it is its class's representative; return ``kept`` (grown if needed).
    ``sorted_set`` and ``image_set`` are :func:`classify`'s buffers."""
    rep, size = classify(chosen, k, tab.images, tab.corner, tab.second, tab.lines, sorted_set, image_set)
    if sym:
        counts[SOLUTIONS] += size if rep else 0
    else:
        counts[SOLUTIONS] += 1
    if rep:
        if keep:
            kept = _grow(kept, counts[CLASSES] + 1)
            kept[counts[CLASSES], :k] = sorted_set
            kept[counts[CLASSES], k] = size
        counts[CLASSES] += 1
    return kept


@njit(nogil=True, cache=True)
def _grow(out, rows):
    """``out``, or a copy of it with at least ``rows`` rows (and at least twice as many)."""
    if rows <= out.shape[0]:
        return out
    bigger = np.empty((max(rows, 2 * out.shape[0] + 16), out.shape[1]), dtype=out.dtype)
    bigger[: out.shape[0]] = out
    return bigger


@njit(nogil=True, cache=True, inline="always")
def _branch_square(d, lines, lv, opts, fixed):
    """The uncovered square to branch on at depth ``d`` (some must be uncovered): square 0
    at the root, ``fixed`` when it is a square (depth 1 of the class search: the
    ``second`` square of the root queen), else (FEWEST) the one with the fewest allowed
    queens covering it, or -1 when one has none (the node is dead)."""
    uncovered = lv.uncovered
    W = uncovered.shape[1]
    if fixed >= 0:
        return fixed
    if (d == 0 and _has(uncovered[0], 0)) or (opts & FEWEST) == 0:
        for w in range(W):
            if uncovered[d, w] != _ZERO:
                return 64 * w + np.int64(lowbit_index(uncovered[d, w]))
    u = -1
    best = 1 << 30
    line_allowed = lv.line_allowed
    for w in range(W):
        x = uncovered[d, w]
        while x != _ZERO:
            s = np.uint64(64 * w) + lowbit_index(x)
            x &= x - _ONE
            c = (
                line_allowed[d, lines[s, 0]]
                + line_allowed[d, lines[s, 1]]
                + line_allowed[d, lines[s, 2]]
                + line_allowed[d, lines[s, 3]]
            )
            if _has(lv.allowed[d], s):
                c -= 3
            if c < best:
                best = c
                u = np.int64(s)
                if c == 0:
                    return -1
    return u


@njit(nogil=True, cache=True, inline="always")
def _last_queens(d, u, cover, lines, lv):
    """One queen left at depth ``d``: ``candidates[d]`` = the allowed queens covering all
    the uncovered squares (all lie on the lines of square ``u``); LAST_QUEEN, or DEAD."""
    W = lv.uncovered.shape[1]
    nu = lv.n_uncovered[d]
    any_q = False
    for w in range(W):
        x = cover[u, w] & lv.allowed[d, w]
        keep = _ZERO
        while x != _ZERO:
            q = 64 * w + np.int64(lowbit_index(x))
            b = x & (_ZERO - x)
            x ^= b
            if _gain(d, q, lv.line_uncovered, lv.uncovered, lines) == nu:
                keep |= b
        lv.candidates[d, w] = keep
        if keep != _ZERO:
            any_q = True
    return LAST_QUEEN if any_q else DEAD


@njit(nogil=True, cache=True, inline="always")
def _lines_hold(d, r, lv):
    """BOUND_LINES: ``r`` queens lie on at most ``r`` lines of each family, so the ``r``
    fullest rows, columns, diagonals and anti-diagonals must hold the uncovered squares."""
    line_uncovered = lv.line_uncovered
    top = lv.largest
    n = (line_uncovered.shape[1] + 2) // 6
    tot = 0
    for fam in range(4):
        lo = 0 if fam == 0 else (n if fam == 1 else (2 * n if fam == 2 else 4 * n - 1))
        hi = n if fam == 0 else (2 * n if fam == 1 else (4 * n - 1 if fam == 2 else 6 * n - 2))
        for i in range(r):
            top[i] = 0
        for j in range(lo, hi):
            keep_largest(top, r, line_uncovered[d, j])
        for i in range(r):
            tot += top[i]
    return tot >= lv.n_uncovered[d]


@njit(nogil=True, cache=True, inline="always")
def _best_gains(d, r, lines, lv):
    """The sum of the ``r`` largest gains of the allowed queens at depth ``d`` (the ``r``
    largest left in ``largest``). One pass computes the gains into the scan's scratch and
    counts them by value (a gain is at most 4n), for :func:`_keep_best`."""
    top = lv.largest
    W = lv.uncovered.shape[1]
    lu = lv.line_uncovered[d]
    unc = lv.uncovered[d]
    allowed = lv.allowed[d]
    queens = lv.scan_queens
    gains = lv.scan_gains
    hist = lv.hist
    hist[:] = 0
    # Unsigned indices, here and in the passes over the scan: numba then indexes
    # without the wrap-around of negative indices.
    m = np.uint64(0)
    for w in range(W):
        x = allowed[w]
        while x != _ZERO:
            q = np.uint64(64 * w) + lowbit_index(x)
            x &= x - _ONE
            g = lu[lines[q, 0]] + lu[lines[q, 1]] + lu[lines[q, 2]] + lu[lines[q, 3]]
            g -= 3 * np.int64((unc[w] >> (q & np.uint64(63))) & _ONE)
            queens[m] = q
            gains[m] = g
            hist[np.uint64(g)] += 1
            m += np.uint64(1)
    lv.scan_count[0] = m
    # The r largest gains, from the counts (zeros when fewer queens).
    i = 0
    v = hist.shape[0] - 1
    while i < r and v > 0:
        c = hist[v]
        while c > 0 and i < r:
            top[i] = v
            i += 1
            c -= 1
        v -= 1
    while i < r:
        top[i] = 0
        i += 1
    s = 0
    for i in range(r):
        s += top[i]
    return s


@njit(nogil=True, cache=True, inline="always")
def _keep_best(d, lv):
    """CHILD_OVERLAP: keep the TOP_KEPT best queens of the last :func:`_best_gains` scan
    (at depth ``d``) and their gains: by gain, decreasing, then in square order (-1 and 0
    past the queens of positive gain); a counting sort cut at TOP_KEPT."""
    hist = lv.hist
    queens = lv.scan_queens
    gains = lv.scan_gains
    T = lv.top_queens.shape[1]
    tq = lv.top_queens[d]
    tg = lv.top_gains[d]
    # Slot of the first queen of each gain value, from the highest value down.
    start = lv.hist_start
    at = 0
    for v in range(hist.shape[0] - 1, 0, -1):
        start[v] = at
        at += hist[v]
    for i in range(T):
        tq[i] = -1
        tg[i] = 0
    for j in range(np.uint64(at + hist[0])):  # every queen of the scan
        g = np.uint64(gains[j])
        if g > 0 and start[g] < T:
            tq[start[g]] = queens[j]
            tg[start[g]] = g
            start[g] += 1


@njit(nogil=True, cache=True, inline="always")
def _forbid_useless(d, lines, lv):
    """USELESS: forbid at depth ``d`` the queens of the last :func:`_best_gains` scan whose
    gain is under ``need[d]`` (the scan holds every allowed queen). When most go (with
    three queens left, nearly all do), the allowed squares are counted afresh from the
    queens kept instead."""
    need = lv.need[d]
    queens = lv.scan_queens
    gains = lv.scan_gains
    allowed = lv.allowed
    line_allowed = lv.line_allowed
    m = np.uint64(lv.scan_count[0])
    hist = lv.hist
    kept = 0
    for v in range(max(need, 0), hist.shape[0]):
        kept += hist[v]
    if 2 * kept >= np.int64(m):
        for j in range(m):
            if gains[j] < need:
                s = np.uint64(queens[j])
                allowed[d, s >> np.uint64(6)] ^= _ONE << (s & np.uint64(63))
                for i in range(4):
                    line_allowed[d, lines[s, i]] -= 1
        return
    for w in range(allowed.shape[1]):
        allowed[d, w] = _ZERO
    for j in range(line_allowed.shape[1]):
        line_allowed[d, j] = 0
    for j in range(m):
        if gains[j] >= need:
            s = np.uint64(queens[j])
            allowed[d, s >> np.uint64(6)] |= _ONE << (s & np.uint64(63))
            for i in range(4):
                line_allowed[d, lines[s, i]] += 1


@njit(nogil=True, cache=True)
def _expand(d, k, cover, lines, lv, opts, fixed):
    """Prepare depth ``d``: set ``candidates[d]`` and ``need[d]``; return the node's state
    (DEAD, BRANCH, LAST_QUEEN, COMPLETE or TWO_LEFT). ``fixed``: the square to branch on,
    or -1 (:func:`_branch_square`)."""
    W = lv.uncovered.shape[1]
    r = k - d  # queens left to place
    nu = lv.n_uncovered[d]
    lv.need[d] = -(1 << 30)
    if nu == 0:
        if r == 0:
            return COMPLETE
        avail = 0
        for w in range(W):
            lv.candidates[d, w] = lv.allowed[d, w]
            avail += popcount(lv.allowed[d, w])
        return BRANCH if avail >= r else DEAD
    if r == 0:
        return DEAD
    if r == 1:
        u = _branch_square(d, lines, lv, opts, fixed)
        return DEAD if u < 0 else _last_queens(d, u, cover, lines, lv)
    if (opts & BOUND_LINES) and not _lines_hold(d, r, lv):
        return DEAD
    # Bound: the r best allowed queens must be able to cover the nu uncovered squares. It
    # comes before the branching square, which then counts only the queens USELESS leaves.
    bound = (r == 2 and (opts & BOUND_TWO)) or (r > 2 and (opts & BOUND_MORE))
    if bound:
        s = _best_gains(d, r, lines, lv)
        if s < nu:
            return DEAD
        # A child's queen must leave no more than its r - 1 successors can cover.
        lv.need[d] = nu - (s - lv.largest[r - 1])
        if opts & USELESS:
            _forbid_useless(d, lines, lv)
    u = _branch_square(d, lines, lv, opts, fixed)
    if u < 0:
        return DEAD
    if bound and r > 2 and (opts & CHILD_OVERLAP):
        _keep_best(d, lv)
    for w in range(W):
        lv.candidates[d, w] = cover[u, w] & lv.allowed[d, w]
    return TWO_LEFT if r == 2 else BRANCH


@njit(nogil=True, cache=True)
def _descend(d, q, cover, lines, uncovered, allowed, line_uncovered, line_allowed, n_uncovered):
    """Depth ``d + 1`` after queen ``q``: inherits depth ``d`` less what ``q`` covers."""
    W = uncovered.shape[1]
    L = line_uncovered.shape[1]
    for j in range(L):
        line_uncovered[d + 1, j] = line_uncovered[d, j]
        line_allowed[d + 1, j] = line_allowed[d, j]
    gone = 0
    for w in range(W):
        allowed[d + 1, w] = allowed[d, w]
        x = uncovered[d, w] & cover[q, w]
        uncovered[d + 1, w] = uncovered[d, w] ^ x
        while x != _ZERO:
            s = np.uint64(64 * w) + lowbit_index(x)
            x &= x - _ONE
            gone += 1
            for j in range(4):
                line_uncovered[d + 1, lines[s, j]] -= 1
    n_uncovered[d + 1] = n_uncovered[d] - gone


@njit(nogil=True, cache=True)
def _start(tab, lv, node_chosen, forbidden, chosen):
    """Depth ``D = len(node_chosen)`` from scratch: the node of the queens ``node_chosen``
    (int32[D], copied into ``chosen``) whose subtree may not use the squares of the
    bitboard ``forbidden``."""
    lines = tab.lines
    D = node_chosen.shape[0]
    for j in range(lv.line_uncovered.shape[1]):
        lv.line_uncovered[D, j] = 0
        lv.line_allowed[D, j] = 0
    nu = 0
    for w in range(tab.full.shape[0]):
        c = _ZERO
        for i in range(D):
            c |= tab.cover[node_chosen[i], w]
        lv.uncovered[D, w] = tab.full[w] & ~c
        lv.allowed[D, w] = tab.full[w] & ~forbidden[w]
        x = lv.uncovered[D, w]
        while x != _ZERO:
            s = 64 * w + np.int64(lowbit_index(x))
            x &= x - _ONE
            nu += 1
            for j in range(4):
                lv.line_uncovered[D, lines[s, j]] += 1
        x = lv.allowed[D, w]
        while x != _ZERO:
            s = 64 * w + np.int64(lowbit_index(x))
            x &= x - _ONE
            for j in range(4):
                lv.line_allowed[D, lines[s, j]] += 1
    lv.n_uncovered[D] = nu
    for i in range(D):
        chosen[i] = node_chosen[i]


@njit(nogil=True, cache=True)
def _partners(d, q, cover, uncovered, allowed, partners):
    """Two queens left at depth ``d``, the first on ``q``: the allowed second queens that
    cover every square ``q`` leaves uncovered, into ``partners``; returns their number."""
    W = uncovered.shape[1]
    # The second queen covers the squares ``q`` leaves: it lies on the lines of the first
    # of them (a) and of the first off a's lines (b).
    a = -1
    for w in range(W):
        rest = uncovered[d, w] & ~cover[q, w]
        if rest != _ZERO:
            a = 64 * w + np.int64(lowbit_index(rest))
            break
    b = -1
    if a >= 0:
        for w in range(W):
            rest = uncovered[d, w] & ~cover[q, w] & ~cover[a, w]
            if rest != _ZERO:
                b = 64 * w + np.int64(lowbit_index(rest))
                break
    m = 0
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
            if a >= 0:
                for v in range(W):
                    if uncovered[d, v] & ~cover[q, v] & ~cover[q2, v] != _ZERO:
                        ok = False
                        break
            if ok:
                partners[m] = q2
                m += 1
    return m


@njit(nogil=True, cache=True)
def _fixed_square(d, sym, tab, chosen, opts):
    """The square depth ``d`` must branch on, or -1 (FEWEST decides): with ``sym`` and
    SECOND, depth 1 branches on the ``second`` square of its root queen."""
    if sym and d == 1 and (opts & SECOND):
        return tab.second[chosen[0]]
    return -1


@njit(nogil=True, cache=True)
def _list_node(d, k, tab, lv, chosen, sym, opts, counts, listed):
    """List the node at depth ``d`` (the ``stop`` depth) in ``listed`` unless it is dead;
    return ``listed`` (grown if needed)."""
    if _expand(d, k, tab.cover, tab.lines, lv, opts, _fixed_square(d, sym, tab, chosen, opts)) == DEAD:
        return listed
    n = counts[LISTED]
    listed = _grow(listed, n + 1)
    for i in range(d):
        listed[n, i] = chosen[i]
    for w in range(tab.full.shape[0]):
        listed[n, d + w] = tab.full[w] & ~lv.allowed[d, w]
    counts[LISTED] += 1
    return listed


@njit(nogil=True, cache=True)
def _forbid_images(tab, lv, q):
    """At the root: forbid every image of queen ``q`` (just tried) in its later siblings."""
    for w in range(tab.full.shape[0]):
        x = lv.allowed[0, w] & tab.orbit[q, w]
        while x != _ZERO:
            s = 64 * w + np.int64(lowbit_index(x))
            x &= x - _ONE
            _drop(0, s, lv.allowed, lv.line_allowed, tab.lines)
        lv.candidates[0, w] &= ~tab.orbit[q, w]


@njit(nogil=True, cache=True)
def _forbid_fixed_images(tab, lv, a, c):
    """At depth 1 below the root queen ``a``: forbid in the later siblings of ``c`` (just
    tried) its images under the symmetries that fix ``a``."""
    images = tab.images
    for g in range(1, images.shape[0]):
        if images[g, a] != a:
            continue
        s = images[g, c]
        if s != c and _has(lv.allowed[1], s):
            _drop(1, s, lv.allowed, lv.line_allowed, tab.lines)
            lv.candidates[1, s >> 6] &= ~(_ONE << np.uint64(s & 63))


@njit(nogil=True, cache=True)
def _finish(D, k, tab, lv, buf, sym, stop, keep, opts, found):
    """Search the node loaded at depth ``D`` (:func:`_start`) depth first; with ``stop``,
    list its live descendants at depth ``stop`` instead of searching them. Returns
    ``found``, its arrays grown if needed."""
    cover, lines = tab.cover, tab.lines
    uncovered, allowed, candidates, line_uncovered, line_allowed, n_uncovered, need = lv[:7]
    chosen, sorted_set, image_set, partners = buf
    counts, kept, listed = found
    d = D
    last_root = -1
    last_one = -1  # the depth-1 queen tried last (its fixed images go before the next)
    counts[NODES] += 1
    state = _expand(d, k, cover, lines, lv, opts, _fixed_square(d, sym, tab, chosen, opts))
    if state == DEAD:
        return found
    while True:
        if state != BRANCH:
            # A leaf: record the sets it completes. COMPLETE: the chosen queens; LAST_QUEEN:
            # with each candidate; TWO_LEFT: with each candidate and each of its partners.
            if state == COMPLETE:
                kept = _record(chosen, k, tab, sym, keep, counts, kept, sorted_set, image_set)
            while state != COMPLETE:
                q = pop_lowest(candidates, d)
                if q < 0:
                    break
                if state == LAST_QUEEN:
                    chosen[d] = q
                    kept = _record(chosen, k, tab, sym, keep, counts, kept, sorted_set, image_set)
                    continue
                allowed[d, q >> 6] ^= _ONE << np.uint64(q & 63)
                if (opts & CHILD_CUT) and _gain(d, q, line_uncovered, uncovered, lines) < need[d]:
                    continue
                chosen[d] = q
                for i in range(_partners(d, q, cover, uncovered, allowed, partners)):
                    chosen[d + 1] = partners[i]
                    kept = _record(chosen, k, tab, sym, keep, counts, kept, sorted_set, image_set)
            if state == TWO_LEFT:
                counts[NODES] += 1
            if d == D:
                break
            d -= 1
            state = BRANCH
            continue
        # BRANCH: the next candidate becomes the queen at depth d, unless a cut skips it.
        if sym and d == 0 and last_root >= 0:
            _forbid_images(tab, lv, last_root)
        if sym and d == 1 and last_one >= 0 and (opts & SECOND):
            _forbid_fixed_images(tab, lv, chosen[0], last_one)
        q = pop_lowest(candidates, d)
        if q < 0:
            if d == D:
                break
            d -= 1
            continue
        if d == 0:
            last_root = q
            last_one = -1
        if d == 1:
            last_one = q
        _drop(d, q, allowed, line_allowed, lines)
        if opts & CHILD_CUT:
            g = _gain(d, q, line_uncovered, uncovered, lines)
            if g < need[d]:
                continue
            if (
                (opts & CHILD_OVERLAP)
                and (opts & BOUND_MORE)
                and k - d > 2
                and n_uncovered[d] > 0
                and _child_fails(d, q, g, k, cover, lv)
            ):
                continue
        chosen[d] = q
        _descend(d, q, cover, lines, uncovered, allowed, line_uncovered, line_allowed, n_uncovered)
        counts[NODES] += 1
        if d + 1 == stop:
            listed = _list_node(d + 1, k, tab, lv, chosen, sym, opts, counts, listed)
            continue
        d += 1
        state = _expand(d, k, cover, lines, lv, opts, _fixed_square(d, sym, tab, chosen, opts))
        if state == DEAD:
            d -= 1
            state = BRANCH
    return Found(counts, kept, listed)


@njit(nogil=True, cache=True)
def _keep_alive(lv, buf, tab):
    """Nothing, but a use of the owners of the borrowed arrays after their last use (numba
    frees an array after the last use of the name that owns it)."""
    return lv[0].shape[0] + buf[0].shape[0] + tab[0].shape[0]


@njit(nogil=True, cache=True)
def run(tab, k, sym, node_chosen, node_forb, stop, keep, opts):
    """Finish the nodes, or (``stop`` > 0) list the live nodes at depth ``stop``.

    ``tab``: :func:`tables`; ``node_chosen``: int32[m, D] squares already chosen;
    ``node_forb``: uint64[m, W] squares not to choose below the node. Returns
    ``(solutions, classes, nodes, reps, orbits, next_chosen, next_forb)``: ``reps``
    int32[classes, k] (sorted squares) and ``orbits`` int32[classes] when ``keep``;
    ``next_*`` the nodes at depth ``stop``. With ``sym``, solutions are orbit sizes summed
    over representatives.
    """
    W = tab.full.shape[0]
    L = 1 + tab.lines.max()
    lv = Levels(
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros((k + 1, W), dtype=np.uint64),
        np.zeros((k + 1, L), dtype=np.int32),
        np.zeros((k + 1, L), dtype=np.int32),
        np.zeros(k + 1, dtype=np.int64),
        np.zeros(k + 1, dtype=np.int64),
        np.zeros((k + 1, TOP_KEPT), dtype=np.int64),
        np.zeros((k + 1, TOP_KEPT), dtype=np.int64),
        np.zeros(k + 1, dtype=np.int64),
        np.zeros(tab.cover.shape[0], dtype=np.int64),
        np.zeros(tab.cover.shape[0], dtype=np.int64),
        np.zeros(4 * (L + 2) // 6 + 1, dtype=np.int64),
        np.zeros(4 * (L + 2) // 6 + 1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    n_squares = tab.cover.shape[0]
    buf = Buffers(np.zeros(k, np.int32), np.zeros(k, np.int32), np.zeros(k, np.int32), np.zeros(n_squares, np.int64))
    # The search works on borrowed arrays; lv, buf and tab own them until _keep_alive.
    blv, bbuf, btab = _borrowed(lv), _borrowed(buf), _borrowed(tab)
    depth_out = stop if stop > 0 else 1
    found = Found(
        np.zeros(4, dtype=np.int64),
        np.empty((16 if keep else 0, k + 1), dtype=np.int32),
        np.empty((64 if stop > 0 else 0, depth_out + W), dtype=np.uint64),
    )
    D = node_chosen.shape[1]
    for m in range(node_chosen.shape[0]):
        _start(btab, blv, node_chosen[m], node_forb[m], bbuf.chosen)
        found = _finish(D, k, btab, blv, bbuf, sym, stop, keep, opts, found)
    _keep_alive(lv, buf, tab)
    solutions, classes, nodes, listed = found.counts
    return (
        solutions,
        classes,
        nodes,
        found.kept[:classes, :k].copy(),
        found.kept[:classes, k].copy(),
        found.listed[:listed, :depth_out].astype(np.int32),
        found.listed[:listed, depth_out:].copy(),
    )


@lru_cache(maxsize=64)
def second_squares(n: int) -> np.ndarray:
    """``int64[n*n]``: for each root queen ``a`` of the class search, the square depth 1
    branches on below it (-1 when ``a`` is no root queen or covers the board).

    The root tries the squares covering square 0 in order, each forbidding its orbit in
    the later ones; below ``a`` the allowed squares are the rest less ``a``, and the second
    square is the one ``a`` leaves uncovered with the fewest of them covering it (the
    first such in square order)."""
    lines = line_table(n).astype(np.int64)
    same = (lines[:, None, :] == lines[None, :, :]).any(axis=2)  # [n*n, n*n]: covers
    orbit = square_images(n)
    allowed = np.ones(n * n, dtype=bool)
    out = np.full(n * n, -1, dtype=np.int64)
    for a in np.flatnonzero(corner_cover(n)):
        if not allowed[a]:
            continue
        below = allowed.copy()
        below[a] = False
        left = ~same[a]
        if left.any():
            count = np.where(left, same[:, below].sum(axis=1), 1 << 30)
            out[a] = int(np.argmin(count))
        allowed[orbit[:, a]] = False
    out.flags.writeable = False
    return out


def tables(n: int) -> Tables:
    """The per-board tables :func:`run` takes."""
    return Tables(
        queen_cover(n),
        full_board(n),
        line_table(n),
        square_images(n),
        corner_cover(n),
        orbit_boards(n),
        second_squares(n),
    )


def solve(n, k, chosen, forbidden, *, sym=True, keep=False, opts=DEFAULT_OPTS):
    """Finish a batch of nodes: ``(solutions, classes, nodes, reps, orbits)``."""
    out = run(
        tables(n),
        k,
        sym,
        np.ascontiguousarray(chosen, dtype=np.int32),
        np.ascontiguousarray(forbidden, dtype=np.uint64),
        0,
        keep,
        opts,
    )
    return out[:5]


def root(n):
    """The root node: ``(chosen int32[1, 0], forbidden uint64[1, W])``."""
    return np.zeros((1, 0), dtype=np.int32), np.zeros((1, words(n)), dtype=np.uint64)


def nodes_at(n, k, depth, *, sym=True, opts=PLAN_OPTS):
    """Live nodes at ``depth`` (1 <= depth <= k - 2), in search order: ``(chosen, forbidden)``.

    (The last two queens are placed together, so no node below depth k - 2 exists.)"""
    if not 1 <= depth <= k - 2:
        raise ValueError(f"node depth must be within 1..k-2, got {depth} for k={k}")
    out = run(tables(n), k, sym, *root(n), depth, False, opts)
    return out[5], out[6]
