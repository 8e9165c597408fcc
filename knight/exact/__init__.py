"""Exact solvers from the seeds: backtracking tour search and divide-and-conquer closed tours.

Squares are plain ints ``s = r * cols + c`` (0-based); people see 1-based ``(row, col)``.
"""

from knight.exact.backtrack import PRUNE_LEVELS, BacktrackResult, backtrack
from knight.exact.check import tour_problem
from knight.exact.construct import ConstructError, construct, has_closed_tour

__all__ = [
    "PRUNE_LEVELS",
    "BacktrackResult",
    "backtrack",
    "tour_problem",
    "ConstructError",
    "construct",
    "has_closed_tour",
]
