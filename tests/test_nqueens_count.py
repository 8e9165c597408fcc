"""The N-queens counter (knight.queens.nqueens.count_prefixes) against plain Python, from
prefixes of every depth: the count with mirror halving, and the nodes it visits.

The reference enumerates partial placements row by row (no bitboards, no closed forms):
a placement counts twice when its row-0 queen is left of the middle, once in the middle
column of an odd board (docs/conventions.md, "Queens"); the nodes are the partial
placements of the prefix's rows and of every row below it except the last.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from knight.queens import nqueens


@cache  # the same placements serve every depth
def partial(n: int, rows: int, first_limit: int) -> tuple[tuple[int, ...], ...]:
    """Every placement of queens on rows 0..rows-1, no two attacking, row 0 in columns < first_limit."""
    out = [()]
    for r in range(rows):
        limit = first_limit if r == 0 else n
        out = [
            p + (c,)
            for p in out
            for c in range(limit)
            if all(c != pc and abs(c - pc) != r - pr for pr, pc in enumerate(p))
        ]
    return tuple(out)


def reference(n: int, depth: int, mirror: bool) -> tuple[int, int]:
    """(weighted placements, nodes) below every valid ``depth``-row prefix."""
    limit = nqueens.first_row_limit(n, mirror)
    full = partial(n, n, limit)
    weight = {c: (2 if mirror and 2 * c + 1 < n else 1) for c in range(n)}
    count = sum(weight[p[0]] for p in full)
    if depth >= n - 1:
        nodes = len(partial(n, depth, limit))
    else:
        nodes = sum(len(partial(n, k, limit)) for k in range(depth, n))
    return count, nodes


@pytest.mark.parametrize("n", range(1, 10))
@pytest.mark.parametrize("mirror", [True, False])
def test_count_from_prefixes_of_every_depth(n, mirror):
    for depth in range(1, n + 1):
        pre = np.array(partial(n, depth, nqueens.first_row_limit(n, mirror)), dtype=np.int32).reshape(-1, depth)
        got = nqueens.count_prefixes(n, pre, mirror)
        assert got == reference(n, depth, mirror), (n, depth, mirror)


def test_published_counts_through_the_closed_form():
    """A000170 for n = 10..13 from one row-0 prefix each (the closed form of the last two
    rows does almost all of the work)."""
    published = {10: 724, 11: 2680, 12: 14200, 13: 73712}
    for n, want in published.items():
        pre = nqueens._prefixes(n, 1, nqueens.first_row_limit(n, True))
        assert nqueens.count_prefixes(n, pre, True)[0] == want
