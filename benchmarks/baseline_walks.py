"""The fixed-order and rule kernels as they were before their outputs were grouped (main at
e7d978c): :func:`knight.engine.layout.record_row`, :func:`knight.engine.brute.run_batch` (here
``brute_batch``, with its ``_walk`` as ``brute_walk``) and :mod:`knight.engine.walk`'s
``_walk``, ``run_batch`` and ``run_pairs``. The yardstick of ``benchmarks/bench_baselines.py``;
not used by the library. The code is the old code unchanged but for those two renames.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.core.board import MOVES
from knight.engine.layout import BLOCKED
from knight.engine.rng import below, fold, run_key
from knight.engine.tiebreak import CORNER, FIXED, POHL, RANDOM, RANDOM_ORDER, ROTH, narrow

LIMIT = 9
_DR = MOVES[:, 0].copy()
_DC = MOVES[:, 1].copy()


@nb.njit(nogil=True, cache=True)
def record_row(
    i, n, ties, pend, p0, offsets, width, cols, size, visited_out, end_out, complete_out, closed_out, ties_out
):
    """Write row ``i`` of the outcome arrays: a run of ``n`` squares (``ties`` tied steps) from
    padded square ``p0`` ending on padded ``pend``; ``width = cols + 4``, ``size = rows * cols``."""
    closed = False
    if n == size:
        for k in range(8):
            if pend + offsets[k] == p0:
                closed = True
    visited_out[i] = n
    end_out[i] = (pend // width - 2) * cols + pend % width - 2
    complete_out[i] = n == size
    closed_out[i] = closed
    ties_out[i] = ties


@nb.njit(nogil=True, cache=True)
def brute_walk(deg0, offsets, start, order, deg, path):
    """Run from padded square ``start`` under ``order`` (0-based moves, priority first).

    ``deg`` (len(deg0)) and ``path`` (board size) are scratch; ``path`` receives the
    padded squares in visiting order. Returns (squares visited, tie points).
    """
    deg[:] = deg0
    cur = start
    deg[cur] = BLOCKED
    path[0] = cur
    for k in range(8):
        deg[cur + offsets[k]] -= 1
    n = 1
    ties = 0
    while True:
        best = -1
        bestd = BLOCKED - 8  # visited/margin squares stay above this after decrements
        nbest = 0
        for i in range(8):
            u = cur + offsets[order[i]]
            d = deg[u]
            if d < bestd:
                bestd = d
                best = u
                nbest = 1
            elif d == bestd:
                nbest += 1
        if best < 0:
            break
        ties += nbest > 1
        cur = best
        deg[cur] = BLOCKED
        path[n] = cur
        n += 1
        for k in range(8):
            deg[cur + offsets[k]] -= 1
    return n, ties


@nb.njit(nogil=True, cache=True)
def brute_batch(deg0, offsets, index, starts, ranks, orders, visited_out, end_out, complete_out, closed_out, ties_out):
    """Run every pair ``(starts[i], ranks[i])`` into the outcome arrays; return knight steps.

    ``deg0, offsets, index`` come from :func:`padded`; ``orders`` is
    :func:`knight.core.orders.all_orders` (uint8[40320, 8]). Starts and ends are board
    square indices. Outputs are indexed like ``starts``: squares visited, end square,
    complete, closed, tie points.
    """
    size = index.shape[0]
    width = offsets[7] - 2  # move 8 is (+1, +2): one row down, two columns right
    cols = width - 4
    deg = np.empty_like(deg0)
    path = np.empty(size, np.int64)
    steps = 0
    for i in range(starts.shape[0]):
        p0 = index[starts[i]]
        n, ties = brute_walk(deg0, offsets, p0, orders[ranks[i]], deg, path)
        outs = (visited_out, end_out, complete_out, closed_out, ties_out)
        record_row(i, n, ties, path[n - 1], p0, offsets, width, cols, size, *outs)
        steps += n - 1
    return steps


@nb.njit(nogil=True, cache=True)
def _border_degree(r, c, rows, cols):
    n = 0
    for k in range(8):
        rr = r + _DR[k]
        cc = c + _DC[k]
        if rr >= 0 and rr < rows and cc >= 0 and cc < cols:
            n += 1
    return n


@nb.njit(nogil=True, cache=True)
def fill_degrees(deg, rows, cols):
    """Fill the padded int8 board ``deg``: each square's number of on-board knight
    moves, ``BLOCKED`` on the margin. Squares two or more away from every edge have 8."""
    width = cols + 4
    deg[:] = BLOCKED
    for r in range(rows):
        base = (r + 2) * width + 2
        if r >= 2 and r < rows - 2:
            for c in range(2, cols - 2):
                deg[base + c] = 8
            for c in range(min(2, cols)):
                deg[base + c] = _border_degree(r, c, rows, cols)
            for c in range(max(2, cols - 2), cols):
                deg[base + c] = _border_degree(r, c, rows, cols)
        else:
            for c in range(cols):
                deg[base + c] = _border_degree(r, c, rows, cols)


@nb.njit(nogil=True, cache=True)
def _set_order(order, offsets, ooff, omove):
    for i in range(8):
        omove[i] = order[i]
        ooff[i] = offsets[order[i]]


@nb.njit(nogil=True, cache=True)
def _walk(rule, deg, offsets, width, rows, cols, p0, orders, switches, key, path, ooff, omove):
    """One run from padded square ``p0`` on the prepared board ``deg`` (left dirty).

    ``orders`` (uint8[k, 8], 0-based moves in priority order) and ``switches``
    (int64[k], padded square or -1) are the schedule: order ``j`` applies until the knight
    stands on ``switches[j]``; then order ``j + 1`` applies from the move out of that
    square on. Every rule but squirrel-cull has one order. ``key`` is the random
    stream (rule ``random``). ``path`` receives the padded squares when non-empty;
    ``ooff``/``omove`` are int64[8] scratch.
    Returns (squares visited, residual tie points, last padded square).
    """
    store = path.shape[0] > 0
    stage = 0
    _set_order(orders[0], offsets, ooff, omove)
    switch = switches[0]
    draws = np.uint64(0)
    cur = p0
    deg[cur] = BLOCKED
    if store:
        path[0] = cur
    n = 1
    ties = 0
    while True:
        if cur == switch:
            stage += 1
            _set_order(orders[stage], offsets, ooff, omove)
            switch = switches[stage]
        # Mark the neighbours' loss of ``cur`` and pick the least degree in one pass:
        # the candidates are exactly the squares whose degree ``cur`` lowers.
        best = -1
        bestd = LIMIT
        cnt = 0
        mask = 0
        for i in range(8):
            u = cur + ooff[i]
            d = deg[u] - 1
            deg[u] = d
            if d < bestd:
                bestd = d
                best = u
                cnt = 1
                mask = 1 << omove[i]
            elif d == bestd:
                cnt += 1
                mask |= 1 << omove[i]
        if best < 0:
            break
        if cnt > 1:
            if rule == POHL or rule == ROTH or rule == CORNER:
                mask = narrow(rule, mask, deg, cur, offsets, width, rows, cols, LIMIT, None)
                cnt = 0
                for m in range(8):
                    cnt += (mask >> m) & 1
                for i in range(8):
                    if (mask >> omove[i]) & 1:
                        best = cur + ooff[i]
                        break
            elif rule == RANDOM:
                j, draws = below(key, draws, np.uint64(cnt))
                for m in range(8):
                    if (mask >> m) & 1:
                        if j == 0:
                            best = cur + offsets[m]
                            break
                        j -= 1
            ties += cnt > 1
        cur = best
        deg[cur] = BLOCKED
        if store:
            path[n] = cur
        n += 1
    return n, ties, cur


@nb.njit(nogil=True, cache=True)
def _scratch(cols):
    """The walk's move offsets on a padded board of ``cols`` columns, and its scratch:
    (offsets, ooff, omove, one_switch)."""
    offsets = np.empty(8, np.int64)
    for k in range(8):
        offsets[k] = _DR[k] * (cols + 4) + _DC[k]
    return offsets, np.empty(8, np.int64), np.empty(8, np.int64), np.full(1, -1, np.int64)


@nb.njit(nogil=True, cache=True)
def run_batch(
    rule,
    rows,
    cols,
    starts,
    trials,
    orders,
    switches,
    order_table,
    seed,
    retries,
    deg,
    path,
    attempts_out,
    order_out,
    visited_out,
    end_out,
    complete_out,
    closed_out,
    ties_out,
):
    """Every pair (``starts[a]``, ``trials[b]``) into row ``a * len(trials) + b``.

    ``starts`` are board square indices; ``orders``/``switches`` the schedule of
    :func:`_walk` in padded squares (the rule's order, or squirrel-cull's schedule;
    ignored by random-order, which draws rows of ``order_table``, uint8[40320, 8]);
    ``deg`` a scratch padded int8 board; ``path`` receives the last walk's padded
    squares when non-empty. ``order_out`` gets the drawn rank for random-order only.
    Returns the knight steps walked over all runs and attempts.
    """
    width = cols + 4
    size = rows * cols
    offsets, ooff, omove, one_switch = _scratch(cols)
    nt = trials.shape[0]
    walks = starts.shape[0] * nt * (retries if rule == RANDOM_ORDER else 1)
    fill_degrees(deg, rows, cols)
    deg0 = deg.copy() if walks > 1 else deg[:0]
    dirty = False
    steps = 0
    for a in range(starts.shape[0]):
        s = starts[a]
        p0 = (s // cols + 2) * width + s % cols + 2
        for b in range(nt):
            row = a * nt + b
            key = run_key(np.uint64(seed), np.uint64(rows), np.uint64(cols), np.uint64(s), np.uint64(trials[b]))
            attempt = 0
            while True:
                if dirty:
                    deg[:] = deg0
                dirty = True
                if rule == RANDOM_ORDER:
                    rank, _ = below(fold(key, np.uint64(attempt)), np.uint64(0), np.uint64(40320))
                    r = np.int64(rank)
                    n, ties, pend = _walk(
                        FIXED,
                        deg,
                        offsets,
                        width,
                        rows,
                        cols,
                        p0,
                        order_table[r : r + 1],
                        one_switch,
                        key,
                        path,
                        ooff,
                        omove,
                    )
                    order_out[row] = r
                else:
                    n, ties, pend = _walk(
                        rule, deg, offsets, width, rows, cols, p0, orders, switches, key, path, ooff, omove
                    )
                steps += n - 1
                attempt += 1
                if rule != RANDOM_ORDER or n == size or attempt == retries:
                    break
            attempts_out[row] = attempt
            record_row(
                row,
                n,
                ties,
                pend,
                p0,
                offsets,
                width,
                cols,
                size,
                visited_out,
                end_out,
                complete_out,
                closed_out,
                ties_out,
            )
    return steps


@nb.njit(nogil=True, cache=True)
def run_pairs(
    rule, rows, cols, starts, ranks, order_table, deg, visited_out, end_out, complete_out, closed_out, ties_out
):
    """Every pair (``starts[i]``, ``ranks[i]``) into row ``i``: ``rule`` (fixed, pohl,
    roth or corner) with the tie order of row ``ranks[i]`` of ``order_table``
    (uint8[40320, 8]). ``deg`` is a scratch padded int8 board. Returns the knight steps."""
    width = cols + 4
    size = rows * cols
    offsets, ooff, omove, one_switch = _scratch(cols)
    no_path = np.empty(0, np.int32)
    order = np.empty((1, 8), np.uint8)
    fill_degrees(deg, rows, cols)
    deg0 = deg.copy()
    steps = 0
    for i in range(starts.shape[0]):
        if i:
            deg[:] = deg0
        s = starts[i]
        p0 = (s // cols + 2) * width + s % cols + 2
        order[0, :] = order_table[ranks[i]]
        n, ties, pend = _walk(
            rule, deg, offsets, width, rows, cols, p0, order, one_switch, np.uint64(0), no_path, ooff, omove
        )
        steps += n - 1
        record_row(
            i, n, ties, pend, p0, offsets, width, cols, size, visited_out, end_out, complete_out, closed_out, ties_out
        )
    return steps
