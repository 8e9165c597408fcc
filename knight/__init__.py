"""Chessboard combinatorics: Warnsdorff's rule under tie orders and tie-break rules,
queens, exact tours.

The Python API (:doc:`/api`): :func:`tour` runs Warnsdorff's rule once and returns a
:class:`Tour`; each stage is a subpackage with a ``run`` function or entry points of
its own: ``knight.sweep.run`` (every start x every tie order of a board),
``knight.rules.run`` (a tie-break rule on a board), ``knight.queens.dominate`` /
``knight.queens.place``, ``knight.exact.backtrack`` / ``knight.exact.construct``; their
aggregates are ``knight.sweep.tables`` and ``knight.rules.tables``; :func:`scan` reads
the workflow's stored results, verified.

Boards are ``8`` (8 x 8), ``"6x8"`` (6 rows, 8 columns) or a :class:`Board`; squares
people see are 1-based ``(row, col)``, row 1 at the top; inside, a square is the index
``row * cols + col`` (0-based). :doc:`/conventions` gives every definition. Names
are imported on first use, so ``import knight`` loads no library; it points numba's
cache at the folder of this source version (:mod:`knight.runtime.jit_cache`).
"""

from knight._lazy import attach
from knight.runtime.jit_cache import configure as _configure_jit_cache

# Numba's cache, keyed by the package's source (before any kernel is defined): a cached
# kernel never outlives an edit of a function it calls in another file.
_configure_jit_cache()

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {
    "Board": "knight.core.board",
    "parse_board": "knight.core.board",
    "Tour": "knight.core.tour",
    "tour": "knight.warnsdorff",
    "scan": "knight.core.dataset",
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = ["Board", "Tour", "parse_board", "tour", "scan", "sweep", "rules", "queens", "exact"]
__version__ = "0.1.0"
