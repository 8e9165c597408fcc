"""Boards, squares and the knight's neighbour tables.

A board has ``rows`` x ``cols`` squares. Square index ``s = r * cols + c`` with row 0
at the top and column 0 on the left; people see squares 1-based as ``(r + 1, c + 1)``.
Moves are stored 0-based: index ``m`` is the conventions' move ``m + 1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: (d_row, d_col) of moves 1..8 (index 0..7): move 1 is two down, one right, then clockwise.
MOVES = np.array([(2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2)], dtype=np.int64)

_BOARD_RE = re.compile(r"^\s*(\d+)\s*(?:[xX×]\s*(\d+))?\s*$")
_SQUARE_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Board:
    """A ``rows`` x ``cols`` chessboard; its squares are indices ``row * cols + col``.

    Parameters
    ----------
    rows : int
        Number of rows, at least 1 (row 0 at the top).
    cols : int
        Number of columns, at least 1 (column 0 on the left).

    Raises
    ------
    ValueError
        A side that is not a positive integer, or a board of 2**31 squares or more.

    See Also
    --------
    parse_board : A board from ``8`` or ``"6x8"``.

    Examples
    --------
    >>> b = Board(3, 4)
    >>> b.name, b.size, b.from_human(2, 3), b.human(6)
    ('3x4', 12, 6, (2, 3))
    """

    rows: int
    cols: int

    def __post_init__(self) -> None:
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ValueError(f"board {name} must be a positive integer, got {value!r}")
            object.__setattr__(self, name, int(value))
        if self.rows * self.cols >= 2**31:
            raise ValueError(f"board {self.rows}x{self.cols} is too large")

    @property
    def size(self) -> int:
        """Number of squares, ``rows * cols``."""
        return self.rows * self.cols

    @property
    def square(self) -> bool:
        """True for an N x N board (``rows == cols``)."""
        return self.rows == self.cols

    @property
    def name(self) -> str:
        """``"8x8"`` style name (``RxC``), used in paths and tables."""
        return f"{self.rows}x{self.cols}"

    def __str__(self) -> str:
        return self.name

    def index(self, row: int, col: int) -> int:
        """Square index of a 0-based ``(row, col)``.

        Parameters
        ----------
        row : int
            0-based row, 0 at the top.
        col : int
            0-based column, 0 on the left.

        Returns
        -------
        int
            ``row * cols + col``.

        Raises
        ------
        ValueError
            The square is off the board.

        See Also
        --------
        from_human : The same from 1-based row and column.
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"square ({row + 1}, {col + 1}) is off the {self.name} board")
        return row * self.cols + col

    def from_human(self, row: int, col: int) -> int:
        """Square index of a 1-based ``(row, col)``, as people write it.

        Parameters
        ----------
        row : int
            1-based row, 1 at the top.
        col : int
            1-based column, 1 on the left.

        Returns
        -------
        int
            ``(row - 1) * cols + (col - 1)``.

        Raises
        ------
        ValueError
            The square is off the board.

        See Also
        --------
        human : The inverse.
        """
        return self.index(row - 1, col - 1)

    def coords(self, square: int) -> tuple[int, int]:
        """0-based ``(row, col)`` of a square index.

        Parameters
        ----------
        square : int
            Square index, ``0 <= square < size``.

        Returns
        -------
        tuple of int
            ``(row, col)``, 0-based.

        Raises
        ------
        ValueError
            The square is off the board.
        """
        if not 0 <= square < self.size:
            raise ValueError(f"square {square} is off the {self.name} board")
        return divmod(int(square), self.cols)

    def human(self, square: int) -> tuple[int, int]:
        """1-based ``(row, col)`` of a square index, as people read it.

        Parameters
        ----------
        square : int
            Square index, ``0 <= square < size``.

        Returns
        -------
        tuple of int
            ``(row, col)``, 1-based.

        Raises
        ------
        ValueError
            The square is off the board.

        See Also
        --------
        from_human : The inverse.
        """
        r, c = self.coords(square)
        return r + 1, c + 1

    @cached_property
    def neighbours(self) -> np.ndarray:
        """``int32[size, 8]``: square reached by move ``m`` from ``s``, or -1 if off board."""
        r = np.arange(self.rows)[:, None, None]
        c = np.arange(self.cols)[None, :, None]
        nr = r + MOVES[:, 0]
        nc = c + MOVES[:, 1]
        ok = (nr >= 0) & (nr < self.rows) & (nc >= 0) & (nc < self.cols)
        table = np.where(ok, nr * self.cols + nc, -1).reshape(self.size, 8)
        return np.ascontiguousarray(table, dtype=np.int32)

    @cached_property
    def degrees(self) -> np.ndarray:
        """``int32[size]``: number of on-board knight moves from each square (no neighbour table)."""
        return degree_table(self.rows, self.cols)

    def is_knight_move(self, a: int, b: int) -> bool:
        """Whether two squares are one knight move apart.

        Parameters
        ----------
        a, b : int
            Square indices on this board.

        Returns
        -------
        bool
            True when ``a`` and ``b`` differ by one row and two columns, or two rows and one column.

        Raises
        ------
        ValueError
            A square is off the board.

        Examples
        --------
        >>> Board(3, 4).is_knight_move(0, 6), Board(3, 4).is_knight_move(0, 1)
        (True, False)
        """
        (ra, ca), (rb, cb) = self.coords(a), self.coords(b)
        return {abs(ra - rb), abs(ca - cb)} == {1, 2}


def degree_table(rows: int, cols: int) -> np.ndarray:
    """``int32[rows * cols]``: number of on-board knight moves from each square, made anew
    (:attr:`Board.degrees` keeps it; the kernels' layouts do not, so that a scan over
    thousands of boards does not keep a table per board)."""
    deg = np.zeros((rows, cols), dtype=np.int32)
    for dr, dc in MOVES.tolist():
        # Squares whose move (dr, dc) lands on the board.
        deg[max(0, -dr) : rows - max(0, dr), max(0, -dc) : cols - max(0, dc)] += 1
    return deg.reshape(rows * cols)


def parse_board(text: str | int) -> Board:
    """A :class:`~knight.Board` from ``8`` (8 x 8) or ``"6x8"`` (6 rows, 8 columns).

    Parameters
    ----------
    text : int or str
        A side N (an N x N board), or ``"RxC"`` (``x``, ``X`` or ``×``; spaces allowed).

    Returns
    -------
    Board
        The board.

    Raises
    ------
    ValueError
        ``text`` is neither N nor RxC, or a side is not positive.

    Examples
    --------
    >>> parse_board("6x8"), parse_board(8).name
    (Board(rows=6, cols=8), '8x8')
    """
    if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
        return Board(int(text), int(text))
    m = _BOARD_RE.match(str(text))
    if not m:
        raise ValueError(f"board {text!r} is not N or RxC (e.g. 8 or 6x8)")
    rows = int(m.group(1))
    cols = int(m.group(2)) if m.group(2) else rows
    return Board(rows, cols)


#: Smallest side of a board every knight stage accepts (the sweep, the rules stage, the
#: exact solvers, the figures, the commands and the Python API alike: the config check
#: and :func:`knight.core.checks.board_arg` read it): a knight on a board with a side
#: below 3 has no tour (but on 1 x 1) and at most two moves from any square.
MIN_SIDE = 3


def parse_boards(spec) -> list[Board]:
    """Boards of a list (``[5, "6x8"]``) or a range ``{"from": 6, "to": 300, "step": 2}``
    (N x N for N = from, from + step, ... <= to), in the order given, repeats dropped."""
    if isinstance(spec, dict):
        unknown = set(spec) - {"from", "to", "step"}
        if unknown or not {"from", "to"} <= set(spec):
            raise ValueError(f"board range {spec!r} needs keys from, to (and optionally step)")
        lo, hi, step = spec["from"], spec["to"], spec.get("step", 1)
        for name, v in (("from", lo), ("to", hi), ("step", step)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"board range {name} must be a positive integer, got {v!r}")
        if hi < lo:
            raise ValueError(f"board range is empty: from {lo} to {hi}")
        return [Board(n, n) for n in range(int(lo), int(hi) + 1, int(step))]
    if isinstance(spec, (str, int, np.integer)):
        spec = [spec]
    boards = {}
    for item in spec:
        board = parse_board(item)
        boards.setdefault(board.name, board)
    return list(boards.values())


def parse_square(board: Board, square) -> int:
    """Square index of a 1-based ``"R,C"`` string or ``[R, C]`` pair on ``board``."""
    if isinstance(square, str):
        m = _SQUARE_RE.match(square)
        if not m:
            raise ValueError(f"square {square!r} is not R,C (1-based row and column, e.g. 1,1)")
        row, col = int(m.group(1)), int(m.group(2))
    else:
        from knight.core.checks import integer  # checks builds on this module

        try:
            row, col = square
            row, col = integer("row", row), integer("column", col)
        except (TypeError, ValueError):
            raise ValueError(f"square {square!r} is not a 1-based [row, col] pair of integers") from None
    if not (1 <= row <= board.rows and 1 <= col <= board.cols):
        raise ValueError(
            f"square ({row}, {col}) is off the {board.name} board (rows 1..{board.rows}, columns 1..{board.cols})"
        )
    return board.from_human(row, col)


def parse_starts(board: Board, starts) -> np.ndarray:
    """Square indices of ``"all"``, ``"corner"`` ((1, 1)) or 1-based ``[row, col]`` pairs."""
    if starts is None or starts == "all":
        return np.arange(board.size)
    if starts == "corner":
        return np.zeros(1, dtype=np.int64)
    if isinstance(starts, str):
        raise ValueError(f"starts {starts!r}: give all, corner or a list of [row, col] pairs")
    return np.array([parse_square(board, pair) for pair in starts], dtype=np.int64)


def step_numbers(board: Board, path) -> np.ndarray:
    """``int64[rows, cols]``: step number of each square on ``path`` (1 = its first
    square), 0 for squares the path does not visit."""
    grid = np.zeros(board.size, dtype=np.int64)
    path = np.asarray(path, dtype=np.int64)
    grid[path] = np.arange(1, len(path) + 1)
    return grid.reshape(board.rows, board.cols)


def format_grid(grid: np.ndarray) -> str:
    """A grid of numbers as text: one line per row, values right-aligned to the width of
    the board's square count, one space apart (the thesis's printout)."""
    width = len(str(grid.size))
    return "\n".join(" ".join(f"{int(v):>{width}d}" for v in row) for row in grid)


def board_grid(board: Board, squares, values, *, fill=np.nan) -> np.ndarray:
    """``float[rows, cols]`` with ``values[i]`` at square index ``squares[i]``, ``fill`` elsewhere."""
    grid = np.full(board.size, fill, dtype=float)
    grid[np.asarray(squares, dtype=np.int64)] = np.asarray(values, dtype=float)
    return grid.reshape(board.rows, board.cols)
