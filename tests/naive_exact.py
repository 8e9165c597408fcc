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


def seed_comb_edges(m: int, n: int, base_grids) -> set:
    """Moves of seed 004's tour of an m x n board: a line-by-line transcription of the
    seed's C++ (``comb``, ``base_answer``, ``construct``, ``change``), for comparison.

    ``base_grids``: {"6x6": step grid, "6x8": ..., ...} as printed in the seed.
    Returns the set of frozenset({(r1, c1), (r2, c2)}) moves of the closed tour.
    """
    link = {}  # (x, y) -> [succ, pred] as square numbers x * n + y

    def change(mm, nn):  # grid -> list of (x, y) by step; transposed when mm > nn
        if mm <= nn:
            grid = base_grids[f"{mm}x{nn}"]
            cells = [(i, j, grid[i][j]) for i in range(mm) for j in range(nn)]
        else:
            grid = base_grids[f"{nn}x{mm}"]
            cells = [(i, j, grid[j][i]) for i in range(mm) for j in range(nn)]
        b = [None] * (mm * nn)
        for i, j, step in cells:
            b[step - 1] = (i, j)
        return b

    def construct(mm, nn, offx, offy):
        b = change(mm, nn)
        k = mm * nn
        for i in range(k):
            x1, y1 = offx + b[i][0], offy + b[i][1]
            x2, y2 = offx + b[(i + 1) % k][0], offy + b[(i + 1) % k][1]
            p, q = x1 * n + y1, x2 * n + y2
            link.setdefault((x1, y1), [0, 0])[0] = q
            link.setdefault((x2, y2), [0, 0])[1] = p

    def comb(mm, nn, offx, offy):
        if mm % 2 or nn % 2 or mm - nn > 2 or nn - mm > 2 or mm < 6 or nn < 6:
            return 1
        if mm < 12 or nn < 12:
            construct(mm, nn, offx, offy)
            return 0
        mm1 = mm // 2 - (1 if mm % 4 > 0 else 0)
        mm2 = mm - mm1
        nn1 = nn // 2 - (1 if nn % 4 > 0 else 0)
        nn2 = nn - nn1
        comb(mm1, nn1, offx, offy)
        comb(mm1, nn2, offx, offy + nn1)
        comb(mm2, nn1, offx + mm1, offy)
        comb(mm2, nn2, offx + mm1, offy + nn1)
        x = [0] * 8
        y = [0] * 8
        x[0], y[0] = offx + mm1 - 1, offy + nn1 - 3
        x[1], y[1] = x[0] - 1, y[0] + 2
        x[2], y[2] = x[1] - 1, y[1] + 2
        x[3], y[3] = x[2] + 2, y[2] - 1
        x[4], y[4] = x[3] + 1, y[3] + 2
        x[5], y[5] = x[4] + 1, y[4] - 2
        x[6], y[6] = x[5] + 1, y[5] - 2
        x[7], y[7] = x[6] - 2, y[6] + 1
        p = [x[i] * n + y[i] for i in range(8)]
        for i in range(1, 8, 2):
            j1, j2 = (i + 1) % 8, (i + 2) % 8
            cell = link[(x[i], y[i])]
            if cell[0] == p[i - 1]:
                cell[0] = p[j1]
            else:
                cell[1] = p[j1]
            cell = link[(x[j1], y[j1])]
            if cell[0] == p[j2]:
                cell[0] = p[i]
            else:
                cell[1] = p[i]
        return 0

    if comb(m, n, 0, 0):
        raise ValueError(f"seed 004 does not cover {m}x{n}")
    edges = set()
    for (r, c), (succ, pred) in link.items():
        for other in (succ, pred):
            edges.add(frozenset({(r, c), divmod(other, n)}))
    return edges
