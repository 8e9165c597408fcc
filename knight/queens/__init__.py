"""Queens on the n x n board: domination by k queens and non-attacking placements.

Modules: :mod:`bits` (bitboards, numba bit intrinsics), :mod:`checks` (input
validation), :mod:`symmetry` (classes under the 8 symmetries), :mod:`orbits` (the
dominating-set search by classes), :mod:`domination` (every dominating set, the check)
and :mod:`nqueens` (numba search kernels), :mod:`units` (work units of the class
search and their store on disk), :mod:`parallel` (task split, Dask), :mod:`search`
(public entry points), :mod:`study` (speed-up study), :mod:`tables` (solutions as
tables), :mod:`published` (published counts).

The entry points are imported lazily, so ``knight.queens.checks`` stays light (the
Snakemake rules import it at parse time).
"""

__all__ = ["SearchResult", "dominate", "dominate_all", "dominate_serial", "place", "place_serial"]


def __getattr__(name):
    if name in __all__:
        from knight.queens import search

        return getattr(search, name)
    raise AttributeError(f"module 'knight.queens' has no attribute {name!r}")
