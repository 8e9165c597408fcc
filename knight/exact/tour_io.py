"""Tour tables: a tour as Parquet rows ``step, row, col`` (1-based), written atomically."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from knight.core.board import Board
from knight.core.io import write_parquet


def tour_table(tour: np.ndarray, board: Board) -> pa.Table:
    """``step`` (1..rows*cols, uint32), ``row`` and ``col`` (1-based) of each step of the tour."""
    tour = np.asarray(tour, dtype=np.int64)
    r, c = np.divmod(tour, board.cols)
    kind = np.uint16 if max(board.rows, board.cols) < 2**16 else np.uint32
    return pa.table(
        {
            "step": pa.array(np.arange(1, tour.size + 1, dtype=np.uint32)),
            "row": pa.array((r + 1).astype(kind)),
            "col": pa.array((c + 1).astype(kind)),
        }
    )


def write_tour(tour: np.ndarray, board: Board, path) -> None:
    """Write the tour table of ``tour`` (square indices in visiting order) to ``path`` (Parquet, zstd, atomic)."""
    write_parquet(tour_table(tour, board), path)
