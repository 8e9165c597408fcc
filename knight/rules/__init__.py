"""The rules stage: every tie-break rule, one run per (board, start, trial).

:mod:`.kernel` (one numba kernel for every rule), :mod:`.rng` (the counter-based
generator), :mod:`.squirrel_cull` (their schedule of orders), :mod:`.studies` (the
plan of jobs and their runs tables), :mod:`.tables` (polars aggregates).
"""
