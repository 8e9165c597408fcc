"""The Warnsdorff step, written once: every kernel of the engine walks by :func:`enter`.

A step (docs/conventions.md, "Warnsdorff's rule, exactly") visits a square, takes it from
the degrees of its eight neighbours, and finds the candidates of least degree among
them. Kernels walk on the padded layout of :mod:`knight.engine.layout` (int8 degrees,
0..8 on unvisited board squares, :data:`~knight.engine.layout.BLOCKED` on visited and
margin cells, which stay above 91 after at most eight decrements), row by row or in
tiles; they give :func:`enter` the cell steps of the eight neighbours as a tuple, in an
order of their choosing:

- in move order (move ``m`` is bit ``m``), the mask is the set of least-degree moves: the
  tie tree (:mod:`knight.engine.tree`), which branches on them, and the rule kernel
  (:mod:`knight.engine.walk`) under a rule whose key narrows a tie or a draw decides it;
- in the priority order of a tie order (bit ``i`` for the move ranked ``i``-th), the
  lowest bit of the mask is the move Warnsdorff's rule takes under that order: the rule
  kernel under ``fixed`` and Squirrel and Cull's orders, and with it brute force over
  (start, order) pairs. An order is put in force by ordering eight steps; nothing else
  depends on it.

How: each neighbour's degree before the decrement, ``d`` (1..8 for a candidate: the
square being visited still counted), selects bit ``8 (d - 1) + k`` of a 64-bit word from
the table :data:`LEVEL`, where ``k`` is the neighbour's place in the tuple; visited and
margin cells select no bit. The eight words are OR-ed: the lowest set byte is the mask of
the least degree, its lowest set bit the first candidate. There is no loop, no branch
and no comparison, and no look-up waits on a decrement: the latency of a step is a load
of the degrees, a load from the table and a few operations (docs/tree.md, "Why this
shape", for what it replaced and what that gained).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from knight.engine.layout import BLOCKED

#: ``LEVEL[256 * k + d]``: bit ``8 * (d - 1) + k`` for a degree ``d`` of 1..8 (before the
#: decrement) of the ``k``-th neighbour (a candidate), 0 for larger ``d`` (visited and
#: margin cells).
LEVEL = np.array([1 << (8 * d - 8 + k) if 1 <= d <= 8 else 0 for k in range(8) for d in range(256)], np.uint64)


@nb.njit(nogil=True, cache=True)
def enter(deg, p, steps, level):
    """Visit cell ``p`` of the degrees ``deg``: its eight neighbours ``p + steps[k]`` lose
    one from their degree. Returns the bitmask of the ``k`` whose neighbour is a
    candidate of least degree (0: no candidate left) and the lowest such ``k``.

    ``steps``: a tuple of eight cell steps, distinct (module docstring for their order);
    ``level``: :data:`LEVEL`, passed in so that its address stays in a register. Indices
    are unsigned: numba then emits no negative-index wraparound, and LLVM inlines this
    function into the caller's loop.
    """
    s0, s1, s2, s3, s4, s5, s6, s7 = steps
    deg[np.uint64(p)] = BLOCKED
    q = np.uint64(p + s0)
    d = deg[q]
    deg[q] = d - 1
    w0 = level[np.uint8(d)]
    q = np.uint64(p + s1)
    d = deg[q]
    deg[q] = d - 1
    w1 = level[256 + np.uint8(d)]
    q = np.uint64(p + s2)
    d = deg[q]
    deg[q] = d - 1
    w2 = level[512 + np.uint8(d)]
    q = np.uint64(p + s3)
    d = deg[q]
    deg[q] = d - 1
    w3 = level[768 + np.uint8(d)]
    q = np.uint64(p + s4)
    d = deg[q]
    deg[q] = d - 1
    w4 = level[1024 + np.uint8(d)]
    q = np.uint64(p + s5)
    d = deg[q]
    deg[q] = d - 1
    w5 = level[1280 + np.uint8(d)]
    q = np.uint64(p + s6)
    d = deg[q]
    deg[q] = d - 1
    w6 = level[1536 + np.uint8(d)]
    q = np.uint64(p + s7)
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


__all__ = ["LEVEL", "enter", "ranked_steps", "steps_of"]
