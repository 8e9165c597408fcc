"""Published counts (docs/conventions.md; OEIS A075458, A002564, A002563, A000170, A002562)."""

from __future__ import annotations

#: Fewest queens dominating the n x n board, gamma(n) (A075458).
GAMMA = {
    1: 1,
    2: 1,
    3: 1,
    4: 2,
    5: 3,
    6: 3,
    7: 4,
    8: 5,
    9: 5,
    10: 5,
    11: 5,
    12: 6,
    13: 7,
    14: 8,
    15: 9,
    16: 9,
    17: 9,
    18: 9,
    19: 10,
}
#: gamma(n) beyond the boards whose dominating sets are published (A075458, n = 20..25).
GAMMA_BEYOND = {20: 11, 21: 11, 22: 12, 23: 12, 24: 13, 25: 13}
#: Dominating sets of gamma(n) queens (A002564).
DOMINATING_SETS = {
    1: 1,
    2: 4,
    3: 1,
    4: 12,
    5: 186,
    6: 4,
    7: 86,
    8: 4860,
    9: 114,
    10: 8,
    11: 2,
    12: 8,
    13: 288,
    14: 4632,
    15: 205832,
    16: 2968,
    17: 124,
    18: 16,
    19: 84,
}
#: ... up to the 8 symmetries (A002563). A002563 gives 43 for n = 16, which cannot hold
#: A002564's 2,968 sets (a class has at most 8): left out (the class search finds 371,
#: each of 8 sets).
DOMINATING_CLASSES = {
    1: 1,
    2: 1,
    3: 1,
    4: 3,
    5: 37,
    6: 1,
    7: 13,
    8: 638,
    9: 21,
    10: 1,
    11: 1,
    12: 1,
    13: 41,
    14: 588,
    15: 25872,
    17: 22,
    18: 2,
}
#: Placements of n non-attacking queens (A000170).
PLACEMENTS = {
    1: 1,
    2: 0,
    3: 0,
    4: 2,
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
    18: 666090624,
}
#: ... up to the 8 symmetries (A002562).
PLACEMENT_CLASSES = {
    1: 1,
    2: 0,
    3: 0,
    4: 1,
    5: 2,
    6: 1,
    7: 6,
    8: 12,
    9: 46,
    10: 92,
    11: 341,
    12: 1787,
    13: 9233,
    14: 45752,
    15: 285053,
    16: 1846955,
    17: 11977939,
    18: 83263591,
}


def gamma(n: int) -> int | None:
    """gamma(n), the fewest queens dominating the n x n board (A075458), or None if unknown here."""
    return GAMMA.get(n, GAMMA_BEYOND.get(n))


def published(problem: str, n: int, k: int) -> tuple[int | None, int | None]:
    """``(solutions, classes)`` published for the instance, None where unknown."""
    if problem == "place":
        return PLACEMENTS.get(n), PLACEMENT_CLASSES.get(n)
    if GAMMA.get(n) == k:
        return DOMINATING_SETS.get(n), DOMINATING_CLASSES.get(n)
    return None, None
