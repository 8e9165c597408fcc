"""The Warnsdorff step, written once: every kernel of the engine walks by :func:`enter`.

A step (docs/conventions.md, "Warnsdorff's rule, exactly") visits a square, takes it from
the degrees of its eight neighbours, and finds the candidates of least degree among
them. Kernels walk on the padded layout of :mod:`knight.engine.layout` (int8 degrees,
0..8 on unvisited board squares, :data:`~knight.engine.layout.BLOCKED` on visited and
margin cells, which stay above 91 after at most eight decrements), row by row or in
tiles; they give :func:`enter` the eight neighbours (:func:`neighbours`) as a tuple of
cell steps in an order of their choosing, or, in move order row by row, as the padded
row width:

- in move order (move ``m`` is bit ``m``), the mask is the set of least-degree moves: the
  tie tree (:mod:`knight.engine.tree`, by the width), which branches on them, and the
  rule kernel (:mod:`knight.engine.walk`) under a rule whose key narrows a tie or a draw
  decides it;
- in the priority order of a tie order (bit ``i`` for the move ranked ``i``-th), the
  lowest bit of the mask is the move Warnsdorff's rule takes under that order: the rule
  kernel under ``fixed`` and Squirrel and Cull's orders, and with it brute force over
  (start, order) pairs. An order is put in force by ordering eight steps; nothing else
  depends on it.

How: each neighbour's degree before the decrement, ``d`` (1..8 for a candidate: the
square being visited still counted), selects bit ``8 (d - 1) + k`` of a 64-bit word from
the table :data:`LEVEL`, where ``k`` is the neighbour's place in that order; visited and
margin cells select no bit. The eight words are OR-ed: the lowest set byte is the mask of
the least degree, its lowest set bit the first candidate. There is no loop, no branch
and no comparison, and no look-up waits on a decrement: the latency of a step is a load
of the degrees, a load from the table and a few operations (docs/development.md, "The
tie tree").
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload

from knight.core.board import MOVES
from knight.engine.layout import BLOCKED

#: ``LEVEL[256 * k + d]``: bit ``8 * (d - 1) + k`` for a degree ``d`` of 1..8 (before the
#: decrement) of the ``k``-th neighbour (a candidate), 0 for larger ``d`` (visited and
#: margin cells).
LEVEL = np.array([1 << (8 * d - 8 + k) if 1 <= d <= 8 else 0 for k in range(8) for d in range(256)], np.uint64)


def neighbours(p, steps):
    """The cells of the eight neighbours of cell ``p``: ``p + steps[k]`` for a tuple of
    eight steps, or, for an integer, the padded row width of the row-by-row layout, the
    eight moves in move order (docs/conventions.md, 0-based: (2, 1), (2, -1), (1, -2),
    (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2)). In numba the two are two versions,
    chosen by the type of ``steps`` (:func:`_neighbours`)."""
    if isinstance(steps, (int, np.integer)):
        return tuple(p + int(s) for s in MOVES[:, 0] * int(steps) + MOVES[:, 1])
    return tuple(p + s for s in steps)


@overload(neighbours, jit_options={"nogil": True})
def _neighbours(p, steps):
    """:func:`neighbours` in numba. Given the width, each cell is computed from it in
    the step (``p + 2 * w + 1``..., the moves written out), which LLVM folds into
    addresses from two registers (the width and its negative); eight steps computed
    before the loop would hold eight registers, and the tie tree's search is slower so."""
    if isinstance(steps, types.Integer):

        def from_width(p, steps):
            return (
                p + 2 * steps + 1,
                p + 2 * steps - 1,
                p + steps - 2,
                p - steps - 2,
                p - 2 * steps - 1,
                p - 2 * steps + 1,
                p - steps + 2,
                p + steps + 2,
            )

        return from_width
    if isinstance(steps, types.UniTuple) and steps.count == 8:

        def from_steps(p, steps):
            s0, s1, s2, s3, s4, s5, s6, s7 = steps
            return (p + s0, p + s1, p + s2, p + s3, p + s4, p + s5, p + s6, p + s7)

        return from_steps
    return None


@nb.njit(nogil=True, cache=True)
def enter(deg, p, steps, level):
    """Visit cell ``p`` of the degrees ``deg``: its eight neighbours (:func:`neighbours`
    of ``p`` and ``steps``, a tuple of eight distinct cell steps or the padded row width)
    lose one from their degree. Returns the bitmask of the ``k`` whose neighbour is a
    candidate of least degree (0: no candidate left) and the lowest such ``k``.

    The order of the neighbours is the caller's (module docstring); ``level``:
    :data:`LEVEL`, passed in so that its address stays in a register. Indices are
    unsigned: numba then emits no negative-index wraparound, and LLVM inlines this
    function into the caller's loop.
    """
    c0, c1, c2, c3, c4, c5, c6, c7 = neighbours(p, steps)
    deg[np.uint64(p)] = BLOCKED
    q = np.uint64(c0)
    d = deg[q]
    deg[q] = d - 1
    w0 = level[np.uint8(d)]
    q = np.uint64(c1)
    d = deg[q]
    deg[q] = d - 1
    w1 = level[256 + np.uint8(d)]
    q = np.uint64(c2)
    d = deg[q]
    deg[q] = d - 1
    w2 = level[512 + np.uint8(d)]
    q = np.uint64(c3)
    d = deg[q]
    deg[q] = d - 1
    w3 = level[768 + np.uint8(d)]
    q = np.uint64(c4)
    d = deg[q]
    deg[q] = d - 1
    w4 = level[1024 + np.uint8(d)]
    q = np.uint64(c5)
    d = deg[q]
    deg[q] = d - 1
    w5 = level[1280 + np.uint8(d)]
    q = np.uint64(c6)
    d = deg[q]
    deg[q] = d - 1
    w6 = level[1536 + np.uint8(d)]
    q = np.uint64(c7)
    d = deg[q]
    deg[q] = d - 1
    w7 = level[1792 + np.uint8(d)]
    # The eight words' bits are disjoint, so ^ is |; mixing the two keeps LLVM from chaining
    # the eight into a row of seven (three deep instead of seven).
    w = ((w0 | w1) ^ (w2 | w3)) | ((w4 | w5) ^ (w6 | w7))
    # cttz(0) is 64 here (defined at zero): the shift is then 0 and the mask 0.
    tz = trailing_zeros(w)
    return np.int64((w >> (tz & np.uint64(56))) & np.uint64(0xFF)), np.int64(tz & np.uint64(7))


@nb.njit(nogil=True, cache=True)
def steps_of(offsets):
    """The eight entries of ``offsets`` (int64[8]) as the tuple :func:`enter` takes."""
    return (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4], offsets[5], offsets[6], offsets[7])


@nb.njit(nogil=True, cache=True)
def ranked_steps(order, offsets, ranked):
    """Put the tie order ``order`` (0-based moves, highest priority first) in force:
    ``ranked[i]`` receives ``offsets[order[i]]``, the step of the move ranked ``i``-th,
    so that :func:`enter` over ``ranked`` gives the mask in the order's priority and the
    move Warnsdorff's rule takes is ``ranked[lowest]``."""
    for i in range(8):
        ranked[i] = offsets[order[i]]


__all__ = ["LEVEL", "enter", "neighbours", "ranked_steps", "steps_of"]
