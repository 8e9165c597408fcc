"""Queens on the n x n board: domination by k queens and non-attacking placements.

Modules: :mod:`bits` (bitboards, numba bit intrinsics), :mod:`checks` (input
validation), :mod:`symmetry` (classes under the 8 symmetries), :mod:`domination`
and :mod:`nqueens` (numba search kernels), :mod:`parallel` (task split, Dask),
:mod:`search` (public entry points), :mod:`study` (speed-up study), :mod:`tables`
(solutions as tables).
"""

from knight.queens.search import SearchResult, dominate, dominate_serial, place, place_serial

__all__ = ["SearchResult", "dominate", "dominate_serial", "place", "place_serial"]
