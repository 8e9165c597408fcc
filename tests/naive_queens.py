"""Plain-Python reference for the queens: no numba, no bitboards, no pruning.

Squares are ``s = r * n + c`` (row 0 top, column 0 left) as in docs/conventions.md.
"""

from __future__ import annotations

from itertools import combinations, permutations


def covered(n: int, q: int) -> set[int]:
    """Squares a queen on ``q`` covers: its own, its row, column and both diagonals."""
    qr, qc = divmod(q, n)
    return {r * n + c for r in range(n) for c in range(n) if r == qr or c == qc or r - c == qr - qc or r + c == qr + qc}


def dominating_sets(n: int, k: int) -> list[tuple[int, ...]]:
    """Every k-subset of squares whose queens cover all n*n squares (sorted tuples, sorted)."""
    cover = [covered(n, q) for q in range(n * n)]
    everything = set(range(n * n))
    return [qs for qs in combinations(range(n * n), k) if set().union(*(cover[q] for q in qs)) == everything]


def placements(n: int) -> list[tuple[int, ...]]:
    """Every placement of n non-attacking queens as ``cols[row]`` tuples, sorted."""
    out = []
    for cols in permutations(range(n)):
        if len({r - c for r, c in enumerate(cols)}) == n and len({r + c for r, c in enumerate(cols)}) == n:
            out.append(cols)
    return out


def symmetries(n: int):
    """The 8 maps of (row, col) for the symmetries of the square board."""
    m = n - 1
    return [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    ]


def image(n: int, g, squares) -> tuple[int, ...]:
    """Sorted image of a set of squares under the map ``g``."""
    return tuple(sorted(g(*divmod(s, n))[0] * n + g(*divmod(s, n))[1] for s in squares))


def class_count(n: int, sets) -> int:
    """Number of orbits of the sets (each a collection of squares) under the 8 symmetries."""
    seen = set()
    count = 0
    for s in sets:
        key = tuple(sorted(s))
        if key in seen:
            continue
        count += 1
        seen.update(image(n, g, key) for g in symmetries(n))
    return count


def placement_squares(cols) -> tuple[int, ...]:
    """Squares of a placement ``cols[row]``."""
    n = len(cols)
    return tuple(r * n + c for r, c in enumerate(cols))
