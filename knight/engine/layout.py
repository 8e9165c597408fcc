"""The padded-board layout every Warnsdorff kernel walks on, and the outcome row they write.

A board of ``rows x cols`` squares is stored row by row with a margin of two squares on
every side, ``(rows + 4) * (cols + 4)`` cells, so a knight move from a board square never
leaves the array and needs no bounds check. Each cell holds a degree; margin and visited
cells hold :data:`BLOCKED`, which stays far above any true degree (0..8) after the at
most eight decrements a cell can receive.

The rule kernel (:mod:`knight.engine.walk`) stores squirrel-cull's boards of
:data:`TILED_ROWS` rows or more in tiles instead: the padded board cut into 8 x 8 blocks
of cells, one block after another (64 bytes, one cache line, for int8 degrees), the
blocks row by row. Squirrel and Cull's tours circle the board; row by row, each step
along a left or right edge touches a new cache line per row, so a circuit's lines
outgrow a 512 KiB L2 cache from about 4,000 rows (the rate falls from about 60 to 25-35
million steps a second); in tiles, eight rows share a line. A move's step then depends
on the cell's place in its tile: :func:`tile_steps`.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from knight.core.board import MOVES, Board, degree_table

_DR = MOVES[:, 0].copy()
_DC = MOVES[:, 1].copy()

#: Degree given to margin cells and to a cell when it is visited: never the least.
BLOCKED = 100


def padded_size(rows: int, cols: int) -> int:
    """Cells of the padded layout: ``(rows + 4) * (cols + 4)``."""
    return (rows + 4) * (cols + 4)


def move_offsets(cols: int) -> np.ndarray:
    """int64[8]: padded index step of each move (0-based move numbers)."""
    return (MOVES[:, 0] * (cols + 4) + MOVES[:, 1]).astype(np.int64)


#: The rule kernel stores squirrel-cull's boards of at least this many rows in tiles.
TILED_ROWS = 4096


@nb.njit(nogil=True, cache=True)
def tile_cols(cols):
    """Tiles across the padded width of a board of ``cols`` columns: ``ceil((cols + 4) / 8)``."""
    return (cols + 11) // 8


def tiled(rows: int) -> bool:
    """Whether a board of ``rows`` rows is large enough for tiles (:data:`TILED_ROWS`)."""
    return rows >= TILED_ROWS


def cell_count(rows: int, cols: int, in_tiles: bool) -> int:
    """Cells of a degree board of ``rows x cols`` squares: :func:`padded_size` row by
    row, or whole tiles.

    >>> cell_count(8, 8, False), cell_count(8, 8, True)
    (144, 256)
    """
    if not in_tiles:
        return padded_size(rows, cols)
    return (rows + 11) // 8 * tile_cols(cols) * 64


@nb.njit(nogil=True, cache=True)
def tile_steps(cols):
    """int64[512]: element ``8 * (p % 64) + m`` is the index step of move ``m`` (0-based)
    from tiled cell ``p`` on a board of ``cols`` columns."""
    tc = (cols + 11) >> 3
    steps = np.empty(512, np.int64)
    for lo in range(64):
        r, c = lo >> 3, lo & 7
        for m in range(8):
            r2, c2 = r + _DR[m], c + _DC[m]
            steps[8 * lo + m] = ((r2 >> 3) * tc + (c2 >> 3)) * 64 + (r2 & 7) * 8 + (c2 & 7) - lo
    return steps


@nb.njit(nogil=True, cache=True)
def tiled_cell(pr, pc, tc):
    """Tiled cell of padded row ``pr``, padded column ``pc`` (board row and column + 2);
    ``tc`` as :func:`tile_cols`."""
    return ((pr >> 3) * tc + (pc >> 3)) * 64 + (pr & 7) * 8 + (pc & 7)


@nb.njit(nogil=True, cache=True)
def tiled_coords(p, tc):
    """(padded row, padded column) of tiled cell ``p``; ``tc`` as :func:`tile_cols`."""
    t = p >> 6
    return (t // tc) * 8 + ((p >> 3) & 7), (t % tc) * 8 + (p & 7)


@nb.njit(nogil=True, cache=True)
def place_row(cells, pr, line, tc):
    """Copy ``line`` (padded row ``pr``, ``cols + 4`` values) into ``cells``: row by row
    when ``tc`` is 0, else in tiles of ``tc`` tiles across."""
    width = line.shape[0]
    if tc == 0:
        cells[pr * width : (pr + 1) * width] = line
        return
    base = (pr >> 3) * tc * 64 + (pr & 7) * 8
    for pc in range(width):
        cells[base + (pc >> 3) * 64 + (pc & 7)] = line[pc]


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
