"""Queens on the n x n board: domination by k queens and non-attacking placements.

Modules: :mod:`bits` (bitboards, numba bit intrinsics), :mod:`checks` (input
validation), :mod:`symmetry` (classes under the 8 symmetries), :mod:`orbits` (the
dominating-set search by classes), :mod:`domination` (every dominating set, the check)
and :mod:`nqueens` (numba search kernels), :mod:`units` (work units of the class
search and their store on disk), :mod:`parallel` (task split, Dask), :mod:`search`
(public entry points), :mod:`speedup` (speed-up measurement), :mod:`tables` (solutions as
tables); the published counts are :mod:`knight.core.published`.

The entry points are :func:`dominate` and :func:`place` (a :class:`SearchResult`;
``keep=True`` keeps every set, :func:`knight.queens.tables.solutions_frame` shows them as
a table), :func:`domination_number` (gamma(n)) and :func:`measure_speedup` (the parallel
search timed over worker counts, with its stability flags). Names are imported on first
use, so ``knight.queens.checks`` stays light (the Snakemake rules import it at parse time).
"""

from knight._lazy import attach

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {
    "SearchResult": "knight.queens.search",
    "dominate": "knight.queens.search",
    "dominate_all": "knight.queens.search",
    "dominate_serial": "knight.queens.search",
    "place": "knight.queens.search",
    "place_serial": "knight.queens.search",
    "domination_number": "knight.queens.search",
    "measure_speedup": "knight.queens.speedup",
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = [*_EXPORTS, "tables"]
