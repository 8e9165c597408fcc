"""The shared core every stage builds on: boards and squares (:mod:`.board`), tie orders
(:mod:`.orders`), the board's symmetry group (:mod:`.symmetry`), one walk as a value
(:mod:`.tour`), the counts published in the literature (:mod:`.published`), argument
checks (:mod:`.checks`), Parquet datasets, atomic writes and seals (:mod:`.dataset`,
:mod:`.io`, :mod:`.seal`), and column expressions (:mod:`.frames`).
"""

from knight._lazy import attach

# Submodules on first use (``knight.core.dataset``), as for the package itself.
__getattr__, __dir__ = attach(__name__, {})
