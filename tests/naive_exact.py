"""Independent checks for the exact solvers: plain Python, no import from ``knight``.

Squares are 0-based ``(row, col)`` pairs here; the code under test uses indices
``r * cols + c``, converted by the tests.
"""

from __future__ import annotations

def is_knight_move(a, b) -> bool:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dr, dc) in ((1, 2), (2, 1))


def tour_errors(rows: int, cols: int, squares, *, closed: bool) -> list[str]:
    """Why ``squares`` (0-based (row, col) pairs in order) is not a tour; [] if it is."""
    errors = []
    squares = [tuple(int(x) for x in s) for s in squares]
    if len(squares) != rows * cols:
        errors.append(f"{len(squares)} squares for a {rows}x{cols} board")
    for r, c in squares:
        if not (0 <= r < rows and 0 <= c < cols):
            errors.append(f"({r},{c}) off the board")
            break
    if len(set(squares)) != len(squares):
        errors.append("a square is repeated")
    for i in range(1, len(squares)):
        if not is_knight_move(squares[i - 1], squares[i]):
            errors.append(f"steps {i} -> {i + 1} are not a knight move")
            break
    if closed and squares and not is_knight_move(squares[-1], squares[0]):
        errors.append("last square is not a knight move from the first")
    return errors


def index_tour_errors(rows: int, cols: int, indices, *, closed: bool) -> list[str]:
    """:func:`tour_errors` for square indices ``r * cols + c``."""
    return tour_errors(rows, cols, [divmod(int(s), cols) for s in indices], closed=closed)


def grid_tour_errors(grid, *, closed: bool) -> list[str]:
    """:func:`tour_errors` for a step-number grid (list of rows, steps 1..rows*cols)."""
    rows, cols = len(grid), len(grid[0])
    where = {}
    for r in range(rows):
        for c in range(cols):
            where[int(grid[r][c])] = (r, c)
    if sorted(where) != list(range(1, rows * cols + 1)):
        return ["step numbers are not 1..rows*cols"]
    return tour_errors(rows, cols, [where[k] for k in range(1, rows * cols + 1)], closed=closed)


def _moves(rows, cols, r, c):
    for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            yield nr, nc


def tour_exists(rows: int, cols: int, start, *, closed: bool = False) -> bool:
    """Exhaustive plain depth-first search (recursive, no pruning): small boards only."""
    total = rows * cols
    seen = {tuple(start)}

    def extend(square, count):
        if count == total:
            return not closed or is_knight_move(square, tuple(start))
        for nxt in _moves(rows, cols, *square):
            if nxt not in seen:
                seen.add(nxt)
                if extend(nxt, count + 1):
                    return True
                seen.remove(nxt)
        return False

    return extend(tuple(start), 1)
