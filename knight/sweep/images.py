"""A tie order and its images under a board's symmetries, run from every start: the
sweep's symmetry invariant (an order's image g·o from g(s) gives the image of the run of
o from s, docs/conventions.md, "Symmetry") drawn square by square."""

from __future__ import annotations

import numpy as np

from knight.core.board import Board
from knight.core.orders import rank as order_rank
from knight.core.orders import unrank
from knight.core.symmetry import group
from knight.engine.brute import outcomes


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


__all__ = ["image_outcomes"]
