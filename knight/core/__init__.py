"""The shared core every stage builds on: boards and squares (:mod:`.board`), tie orders
(:mod:`.orders`), the board's symmetry group (:mod:`.symmetry`), the tie-break rules' names
and their narrowing step (:mod:`.tiebreak`), the padded-board layout and outcome row of
every kernel (:mod:`.layout`), one run as a value (:mod:`.run`), Parquet datasets and
atomic writes (:mod:`.dataset`, :mod:`.io`), and column expressions (:mod:`.frames`).
"""
