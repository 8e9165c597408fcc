"""Exact solvers from the seeds: backtracking tour search and divide-and-conquer closed tours.

:func:`backtrack` and :func:`construct` (:mod:`.tours`) return a
:class:`~knight.core.tour.Tour`; the solvers themselves, with their counters, are the
modules :mod:`.backtrack` and :mod:`.construct`. Squares are plain ints
``s = r * cols + c`` (0-based); people see 1-based ``(row, col)``.

Unlike the other stages, the entry points are imported here at once: they share their
names with the solvers' modules, and a name bound after its module was imported is
never replaced by it (a name served on first use would be, by the module, as soon as
anything imports ``knight.exact.backtrack``).
"""

from knight.exact.backtrack import PRUNE_LEVELS, BacktrackResult
from knight.exact.check import tour_problem
from knight.exact.construct import ConstructError, has_closed_tour
from knight.exact.tours import SearchLimit, backtrack, construct  # last: binds the two names

__all__ = [
    "PRUNE_LEVELS",
    "BacktrackResult",
    "SearchLimit",
    "backtrack",
    "construct",
    "tour_problem",
    "ConstructError",
    "has_closed_tour",
]
