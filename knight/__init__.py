"""Chessboard combinatorics: Warnsdorff tie orders, queens and exact tours.

Squares are plain integers ``s = row * cols + col`` (row 0 at the top, column 0 on
the left); moves are numbered 0..7 internally for the conventions' moves 1..8.
See ``CONVENTIONS.md`` (shipped beside the seeds) for the exact definitions.
"""

from knight.board import Board, parse_board

__all__ = ["Board", "parse_board"]
__version__ = "0.1.0"
