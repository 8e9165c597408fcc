"""Plain-Python references, written from docs/conventions.md alone (no knight imports).

They are slow and obvious on purpose: the fast engines are checked against them.
"""

from itertools import permutations

# (d_row, d_col) of moves 1..8, copied from the conventions' table.
MOVES = {
    1: (2, 1),
    2: (2, -1),
    3: (1, -2),
    4: (-1, -2),
    5: (-2, -1),
    6: (-2, 1),
    7: (-1, 2),
    8: (1, 2),
}

# worked example of docs/conventions.md: 8x8, start (1, 1), order 12345678 (step numbers).
WORKED_EXAMPLE = """\
 1 48 15 32 53 28 13 30
16 33 52 57 14 31 64 27
49  2 47 54 61 56 29 12
34 17 60 51 58 45 26 63
 3 50 43 46 55 62 11 40
18 35 20 59 44 41  8 25
21  4 37 42 23  6 39 10
36 19 22  5 38  9 24  7
"""


def on_board(rows, cols, r, c):
    return 0 <= r < rows and 0 <= c < cols


def warnsdorff(rows, cols, start, order):
    """Run Warnsdorff's rule; ``start`` is (row, col) 0-based, ``order`` a string.

    Returns (path as a list of (row, col), number of tie points).
    """
    visited = {start}
    path = [start]
    ties = 0
    r, c = start
    while True:
        cands = []  # (degree, priority, square)
        for priority, ch in enumerate(order):
            dr, dc = MOVES[int(ch)]
            nr, nc = r + dr, c + dc
            if not on_board(rows, cols, nr, nc) or (nr, nc) in visited:
                continue
            degree = 0
            for dr2, dc2 in MOVES.values():
                ar, ac = nr + dr2, nc + dc2
                if on_board(rows, cols, ar, ac) and (ar, ac) not in visited:
                    degree += 1
            cands.append((degree, priority, (nr, nc)))
        if not cands:
            return path, ties
        least = min(d for d, _, _ in cands)
        tied = [x for x in cands if x[0] == least]
        if len(tied) > 1:
            ties += 1
        r, c = min(tied)[2]
        visited.add((r, c))
        path.append((r, c))


def outcome(rows, cols, start, order):
    """(visited, end square index, complete, closed, ties) of a run from square index ``start``."""
    path, ties = warnsdorff(rows, cols, divmod(start, cols), order)
    (sr, sc), (er, ec) = path[0], path[-1]
    complete = len(path) == rows * cols
    closed = complete and sorted((abs(sr - er), abs(sc - ec))) == [1, 2]
    return len(path), er * cols + ec, complete, closed, ties


def order_rank(order):
    """Rank of an order string: its index among all permutations in lexicographic order."""
    return ORDER_STRINGS.index(order)


ORDER_STRINGS = ["".join(p) for p in permutations("12345678")]
