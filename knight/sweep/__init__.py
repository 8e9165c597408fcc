"""The sweep stage: every start x every tie order of a board.

:func:`run` is the library's entry point (a ``polars.DataFrame`` of runs, one row per
(start, order)); :mod:`.tables` holds its aggregates. Modules: :mod:`.spec` (a
sweep's plan: its starts, orders, chunks and tasks), :mod:`.chunks` (the chunks computed
on Dask), :mod:`.driver` (a sweep run and written as a runs dataset; :func:`run`),
:mod:`.tables` (polars aggregates), :mod:`.thesis` (the thesis's tables 58 and 59),
:mod:`.census` and its report and check. Names are imported on first use.
"""

from knight._lazy import attach

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {"run": "knight.sweep.driver"}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = ["run", "tables"]
