"""Warnsdorff's rule with a fixed tie order, one (start, order) pair at a time: the names
callers use, computed by the rule kernel (:mod:`knight.engine.walk`), which walks every
rule's (start, order) pairs on one path. There is no kernel here.

The rule (docs/conventions.md): the start is visited first; candidates are on-board,
unvisited squares one knight move away; a candidate's degree counts its on-board,
unvisited neighbours; move to the least degree, ties broken by the tie order; stop
when there is no candidate. A *tie point* is a step where two or more candidates
share the least degree.
"""

from __future__ import annotations

import numpy as np

from knight.core.board import Board
from knight.core.orders import check_ranks
from knight.core.tour import Tour
from knight.engine.walk import pair_outcomes
from knight.engine.walk import run as walk_run


def run(board: Board, start: int, order: str | int = "12345678") -> Tour:
    """The Warnsdorff run from square index ``start`` under ``order`` (string or rank)."""
    order = order.strip() if isinstance(order, str) else int(check_ranks(order))
    return walk_run(board, start, "fixed", order=order)


def outcomes(board: Board, starts, ranks) -> dict[str, np.ndarray]:
    """Outcome arrays (``visited``, ``end``, ``complete``, ``closed``, ``ties``) of the
    pairs ``(starts[i], ranks[i])``, by brute force on one thread."""
    out = pair_outcomes(board, "fixed", starts, ranks)
    del out["steps"]
    return out


def brute_orbit(board: Board, starts: np.ndarray, ranks: np.ndarray, rule: str = "fixed") -> dict[str, np.ndarray]:
    """Rows for every start in ``starts`` x every rank under ``rule`` (fixed, pohl, roth,
    corner), by walking each pair (:func:`knight.engine.walk.pair_outcomes`)."""
    st = np.repeat(np.asarray(starts, np.uint32), len(ranks))
    rk = np.tile(np.asarray(ranks, np.int64), len(starts))
    out = pair_outcomes(board, rule, st, rk)
    out["start"] = st
    out["order"] = rk.astype(np.uint16)
    return out


__all__ = ["brute_orbit", "outcomes", "run"]
