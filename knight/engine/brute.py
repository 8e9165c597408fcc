"""Warnsdorff's rule with a fixed tie order: one run, or a numba batch of runs.

The rule (docs/conventions.md): the start is visited first; candidates are on-board,
unvisited squares one knight move away; a candidate's degree counts its on-board,
unvisited neighbours; move to the least degree, ties broken by the tie order; stop
when there is no candidate. A *tie point* is a step where two or more candidates
share the least degree.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.core.board import Board
from knight.core.orders import N_ORDERS, all_orders, parse_order, unrank
from knight.core.orders import rank as order_rank
from knight.core.symmetry import group
from knight.core.tour import Tour
from knight.engine.layout import BLOCKED, Outcomes, padded, record_row, unpad


@nb.njit(nogil=True, cache=True)
def _walk(deg0, offsets, start, order, deg, path):
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
def run_batch(deg0, offsets, index, starts, ranks, orders, out):
    """Run every pair ``(starts[i], ranks[i])`` into row ``i`` of ``out``; return knight steps.

    ``deg0, offsets, index`` come from :func:`padded`; ``orders`` is
    :func:`knight.core.orders.all_orders` (uint8[40320, 8]); ``out`` is a
    :class:`knight.engine.layout.Outcomes` indexed like ``starts``. Starts and ends are board
    square indices.
    """
    size = index.shape[0]
    width = offsets[7] - 2  # move 8 is (+1, +2): one row down, two columns right
    cols = width - 4
    deg = np.empty_like(deg0)
    path = np.empty(size, np.int64)
    steps = 0
    for i in range(starts.shape[0]):
        p0 = index[starts[i]]
        n, ties = _walk(deg0, offsets, p0, orders[ranks[i]], deg, path)
        record_row(out, i, n, ties, p0, path[n - 1], offsets, cols, size)
        steps += n - 1
    return steps


def run(board: Board, start: int, order: str | int = "12345678") -> Tour:
    """The Warnsdorff run from square index ``start`` under ``order`` (string or rank)."""
    if isinstance(order, str):
        moves = parse_order(order)
        text = order.strip()
    else:
        if not 0 <= int(order) < N_ORDERS:
            raise ValueError(f"order rank {order} is outside 0..{N_ORDERS - 1}")
        moves = all_orders()[int(order)]
        text = "".join(str(int(m) + 1) for m in moves)
    board.coords(start)  # validates
    deg0, offsets, index = padded(board)
    path = np.empty(board.size, np.int64)
    n, ties = _walk(deg0, offsets, index[start], moves, np.empty_like(deg0), path)
    return Tour(board, int(start), text, unpad(path[:n], board.cols), int(ties))


def outcomes(board: Board, starts, ranks) -> dict[str, np.ndarray]:
    """Outcome arrays of the pairs ``(starts[i], ranks[i])`` (brute force, one thread)."""
    starts = np.ascontiguousarray(starts, dtype=np.uint32)
    ranks = np.ascontiguousarray(ranks, dtype=np.uint16)
    if starts.shape != ranks.shape:
        raise ValueError("starts and ranks must have the same length")
    out = Outcomes.empty(len(starts))
    run_batch(*padded(board), starts, ranks, all_orders(), out)
    return out._asdict()


def image_outcomes(board: Board, order: str) -> list[dict]:
    """Run ``order`` and its images g·o under every symmetry g of ``board`` from every start.

    One dict per group element (identity first): ``element`` name, ``order`` string of
    g·o, ``codes[rows, cols]`` (0 incomplete, 1 open tour, 2 closed tour, at the start
    square), ``unvisited[rows, cols]`` and ``complete`` / ``closed`` counts over starts.
    """
    g = group(board)
    images = g.order_images()[:, order_rank(order)]
    starts = np.arange(board.size, dtype=np.uint32)
    out = []
    for name, img in zip(g.names(), images.tolist()):
        res = outcomes(board, starts, np.full(board.size, img, dtype=np.uint16))
        codes = res["complete"].astype(np.int64) + res["closed"].astype(np.int64)
        unvisited = board.size - res["visited"].astype(np.int64)
        out.append(
            {
                "element": name,
                "order": unrank(img),
                "codes": codes.reshape(board.rows, board.cols),
                "unvisited": unvisited.reshape(board.rows, board.cols),
                "complete": int(res["complete"].sum()),
                "closed": int(res["closed"].sum()),
            }
        )
    return out


__all__ = ["image_outcomes", "outcomes", "run", "run_batch"]
