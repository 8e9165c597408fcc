"""Squirrel & Cull's schedule of tie orders for square boards.

Source: D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's tours on
square chessboards" (1996), as implemented by D. Squirrel's public program
(repository douglassquirrel/warnsdorff, ``config.py`` and ``tour.py``).

On an m x m board (m >= 5) the knight starts on (1, 1) with the first order; when it
stands on the current order's switch square, the next order applies from the move out
of that square on. A switch square off the board is never reached (that order stays to
the end). The table below is theirs, in their numbering: their move ``i`` is
(d_row, d_col) = 1:(-2,+1) 2:(-1,+2) 3:(+1,+2) 4:(+2,+1) 5:(+2,-1) 6:(+1,-2) 7:(-1,-2)
8:(-2,-1) (row 1 at the top), i.e. our move ``((i + 4) mod 8) + 1``; switch squares are
1-based ``(row, col)``, each coordinate a constant or ``(m + k) / den`` (exact in every
case), stored as numbers.

Observed with this table (benchmarks/bench_rules.py): every m in 5..2000 gives a full
tour except m = 74, where the knight stops after 5,432 of the 5,476 squares; their
program, restated, walks the same path.
"""

from __future__ import annotations

import numpy as np


def _c(k):
    """Coordinate ``k`` (a constant)."""
    return (k, 0, 1)


def _m(k, den=1):
    """Coordinate ``(m + k) / den``."""
    return (k, 1, den)


#: Their table, by m mod 8 (by m mod 16 for m = 5 mod 8): [(order, switch or None)],
#: a switch being ((row_const, row_m, row_den), (col_const, col_m, col_den)), meaning the
#: 1-based row ``(row_const + row_m * m) // row_den`` and likewise the column.
TABLE: dict[int, list[tuple[str, tuple | None]]] = {
    0: [
        ("34261578", (_m(-1), _m(-2))),
        ("87642135", (_c(2), _c(2))),
        ("51867342", (_m(-8), _c(1))),
        ("51342678", (_c(7), _m(-3))),
        ("21435678", None),
    ],
    1: [
        ("34261578", (_m(-1), _m(-2))),
        ("87642135", (_c(2), _c(2))),
        ("51324678", (_m(-6), _m(9, 2))),
        ("32481765", None),
    ],
    2: [
        ("34261578", (_c(6), _c(1))),
        ("87642135", (_c(3), _c(1))),
        ("54132678", (_m(-15), _c(4))),
        ("52431678", (_c(10), _m(-2))),
        ("85647123", (_c(5), _m(-6, 2))),
        ("15746823", None),
    ],
    3: [
        ("34625718", (_m(-1), _m(-2))),
        ("42681357", (_m(-6), _m(0))),
        ("86512347", (_c(2), _c(5))),
        ("51867342", (_m(-10), _c(3))),
        ("61825437", (_m(1, 2), _m(-2))),
        ("71642538", None),
    ],
    4: [
        ("34261578", (_m(-1), _m(-2))),
        ("87642135", (_c(2), _c(2))),
        ("51867342", (_m(-8), _c(1))),
        ("51342678", (_c(10), _m(-5))),
        ("86753421", (_c(13), _m(2, 2))),
        ("78563421", None),
    ],
    5: [
        ("34261578", (_m(-1), _m(-2))),
        ("87642135", (_c(2), _c(2))),
        ("51324678", (_m(-2), _m(-5, 2))),
        ("15234678", None),
    ],  # m = 5 mod 16
    13: [
        ("34261578", (_m(-1), _m(-2))),
        ("87642135", (_c(2), _c(2))),
        ("51324678", (_m(-2), _m(-13, 2))),
        ("15234678", None),
    ],  # m = 13 mod 16
    6: [
        ("34261578", (_c(6), _c(1))),
        ("87642135", (_c(3), _c(1))),
        ("54132678", (_m(-10), _c(1))),
        ("52431678", (_c(10), _m(-2))),
        ("85647123", (_c(3), _m(8, 2))),
        ("12453678", None),
    ],
    7: [
        ("34625718", (_m(-1), _m(-2))),
        ("42681357", (_m(-6), _m(0))),
        ("86512347", (_c(2), _c(5))),
        ("51867342", (_m(-6), _c(3))),
        ("61825437", (_m(1, 2), _m(-2))),
        ("61357284", None),
    ],
}


def their_move_to_ours(i: int) -> int:
    """Our move number (1..8) of their move number ``i`` (1..8)."""
    return (i + 4) % 8 + 1


#: Their table starts at m = 5.
MIN_SIDE = 5


def check_board(rows: int, cols: int) -> None:
    """``ValueError`` unless ``rows x cols`` is a square board their table covers
    (side :data:`MIN_SIDE` or more); the message names the board."""
    if rows != cols or rows < MIN_SIDE:
        raise ValueError(f"{rows}x{cols}: squirrel-cull needs a square board of side {MIN_SIDE} or more")


def table_rows(m: int) -> list[tuple[str, tuple[int, int] | None]]:
    """Their rows for an m x m board: (order in their numbering, 1-based switch square or None)."""
    check_board(m, m)
    key = m % 16 if m % 8 == 5 else m % 8
    out = []
    for order, switch in TABLE[key]:
        if switch is not None:
            switch = tuple((k + a * m) // den for k, a, den in switch)
        out.append((order, switch))
    return out


def schedule(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays of the m x m schedule.

    Returns ``orders`` (uint8[k, 8]: each order's 0-based moves in priority order, in our
    numbering) and ``switches`` (int64[k]: board square index ``row * m + col`` of each
    order's switch square, -1 for none or off the board; the last is always -1).
    """
    rows = table_rows(m)
    orders = np.empty((len(rows), 8), np.uint8)
    switches = np.full(len(rows), -1, np.int64)
    for j, (theirs, switch) in enumerate(rows):
        orders[j] = [their_move_to_ours(int(ch)) - 1 for ch in theirs]
        if switch is not None:
            r, c = switch[0] - 1, switch[1] - 1
            if 0 <= r < m and 0 <= c < m:
                switches[j] = r * m + c
    return orders, switches


__all__ = ["TABLE", "schedule", "table_rows", "their_move_to_ours"]
