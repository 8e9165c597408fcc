"""The rules stage: every tie-break rule, one run per (board, start, trial).

:func:`run` is the library's entry point (a ``polars.DataFrame`` of runs); :mod:`.tables`
holds its aggregates. Modules: :mod:`.studies` (the plan of jobs and their runs tables),
:mod:`.tables` (polars aggregates). The runs themselves are :mod:`knight.engine.walk`'s.
Names are imported on first use.
"""

from knight._lazy import attach

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {"run": "knight.rules.studies"}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = ["run", "tables"]
