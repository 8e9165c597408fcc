"""The padded-board layout every Warnsdorff kernel walks on, and the outcome row they write.

A board of ``rows x cols`` squares is stored row by row with a margin of two squares on
every side, ``(rows + 4) * (cols + 4)`` cells, so a knight move from a board square never
leaves the array and needs no bounds check. Each cell holds a degree; margin and visited
cells hold :data:`BLOCKED`, which stays far above any true degree (0..8) after the at
most eight decrements a cell can receive.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.core.board import MOVES, Board

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
    deg0[index] = board.degrees
    return deg0, move_offsets(board.cols), index.astype(np.int64)


def unpad(p, cols: int):
    """Board square index of padded index (or array of indices) ``p`` on a board of ``cols`` columns."""
    width = cols + 4
    return (p // width - 2) * cols + p % width - 2


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
