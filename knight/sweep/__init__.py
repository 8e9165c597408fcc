"""The sweep stage: every start x every tie order of a board.

:mod:`.brute` (the fixed-order kernel over (start, order) pairs), :mod:`.tree` (the tie
tree: each distinct path once), :mod:`.driver` (chunks, Dask tasks, the runs table),
:mod:`.tables` (polars aggregates), :mod:`.thesis` (the thesis's tables 58 and 59).
"""
