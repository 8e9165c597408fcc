"""The shared core every stage builds on: boards and squares (:mod:`.board`), tie orders
(:mod:`.orders`), the board's symmetry group (:mod:`.symmetry`), one walk as a value
(:mod:`.tour`), the counts published in the literature (:mod:`.published`), argument
checks (:mod:`.checks`), Parquet datasets, atomic writes and seals (:mod:`.dataset`,
:mod:`.io`, :mod:`.seal`), and column expressions (:mod:`.frames`).
"""
