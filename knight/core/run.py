"""One Warnsdorff run as a value: the board, the start, the path and its outcome."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from knight.core.board import Board, step_numbers


@dataclass(frozen=True)
class Run:
    """One Warnsdorff run: ``path`` holds the visited squares in order (start first).

    ``order`` is the tie order used (None for the rules random and squirrel-cull),
    ``ties`` the residual tie points, ``attempts`` the attempts made (random-order).
    """

    board: Board
    start: int
    order: str | None
    path: np.ndarray
    ties: int
    rule: str = "fixed"
    attempts: int = 1

    @property
    def visited(self) -> int:
        return len(self.path)

    @property
    def end(self) -> int:
        return int(self.path[-1])

    @property
    def complete(self) -> bool:
        return self.visited == self.board.size

    @property
    def closed(self) -> bool:
        return self.complete and self.board.is_knight_move(self.start, self.end)

    def numbering(self) -> np.ndarray:
        """``int[rows, cols]``: step number of each square (1 = start), 0 if unvisited."""
        return step_numbers(self.board, self.path)
