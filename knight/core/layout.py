"""The padded-board layout every Warnsdorff kernel walks on, and the outcome row they write.

A board of ``rows x cols`` squares is stored row by row with a margin of two squares on
every side, ``(rows + 4) * (cols + 4)`` cells, so a knight move from a board square never
leaves the array and needs no bounds check. Each cell holds a degree; margin and visited
cells hold :data:`BLOCKED`, which stays far above any true degree (0..8) after the at
most eight decrements a cell can receive.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from knight.core.board import MOVES, Board, degree_table

#: Degree given to margin cells and to a cell when it is visited: never the least.
BLOCKED = 100


def padded_size(rows: int, cols: int) -> int:
    """Cells of the padded layout: ``(rows + 4) * (cols + 4)``."""
    return (rows + 4) * (cols + 4)


def move_offsets(cols: int) -> np.ndarray:
    """int64[8]: padded index step of each move (0-based move numbers)."""
    return (MOVES[:, 0] * (cols + 4) + MOVES[:, 1]).astype(np.int64)


def padded(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Padded layout used by the kernels: a 2-square margin removes bounds checks.

    Returns ``deg0`` (int32 per padded square: the degree on board, ``BLOCKED`` on
    the margin), ``offsets`` (int64[8]: index step of each move) and ``index``
    (int64[size]: padded index of each board square).
    """
    width = board.cols + 4
    deg0 = np.full((board.rows + 4) * width, BLOCKED, dtype=np.int32)
    r, c = np.divmod(np.arange(board.size), board.cols)
    index = (r + 2) * width + (c + 2)
    deg0[index] = degree_table(board.rows, board.cols)
    return deg0, move_offsets(board.cols), index.astype(np.int64)


def unpad(p, cols: int):
    """Board square index of padded index (or array of indices) ``p`` on a board of ``cols`` columns."""
    width = cols + 4
    return (p // width - 2) * cols + p % width - 2


class Outcomes(NamedTuple):
    """The outcome arrays of a batch of runs, element ``i`` for run ``i`` (docs/conventions.md,
    "Outcome of a run"): squares ``visited`` (start included), ``end`` square index,
    ``complete``, ``closed`` and ``ties`` (residual tie points). Numba kernels take it as one
    argument and write it through :func:`record_row`."""

    visited: np.ndarray
    end: np.ndarray
    complete: np.ndarray
    closed: np.ndarray
    ties: np.ndarray

    @classmethod
    def empty(cls, n: int, ties_dtype=np.uint16) -> Outcomes:
        """Uninitialised arrays for ``n`` runs: uint32 ``visited`` and ``end``, bool
        ``complete`` and ``closed``, ``ties`` of ``ties_dtype``."""
        return cls(
            np.empty(n, np.uint32),
            np.empty(n, np.uint32),
            np.empty(n, np.bool_),
            np.empty(n, np.bool_),
            np.empty(n, ties_dtype),
        )


@nb.njit(nogil=True, cache=True)
def record_row(out, i, n, ties, p0, pend, offsets, cols, size):
    """Write row ``i`` of the :class:`Outcomes` ``out``: a run of ``n`` squares (``ties``
    residual tie points) from padded square ``p0`` to padded ``pend``, on a board of
    ``cols`` columns and ``size = rows * cols`` squares; ``offsets`` as :func:`move_offsets`."""
    closed = False
    if n == size:
        for k in range(8):
            if pend + offsets[k] == p0:
                closed = True
    width = cols + 4
    out.visited[i] = n
    out.end[i] = (pend // width - 2) * cols + pend % width - 2
    out.complete[i] = n == size
    out.closed[i] = closed
    out.ties[i] = ties
