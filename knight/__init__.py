"""Chessboard combinatorics: Warnsdorff's rule under tie orders and tie-break rules,
queens, exact tours.

Squares are plain integers ``s = row * cols + col`` (row 0 at the top, column 0 on
the left); moves are numbered 0..7 internally for the conventions' moves 1..8.
``docs/conventions.md`` in the repository gives the exact definitions.
"""

from knight.core.board import Board, parse_board

__all__ = ["Board", "parse_board"]
__version__ = "0.1.0"
