"""The rules stage: every tie-break rule, one run per (board, start, trial).

:func:`run` is the library's entry point (a ``polars.DataFrame`` of runs); :mod:`.tables`
holds its aggregates. Modules: :mod:`.study` (a study's rules, boards and starts, and
its plan of chunks), :mod:`.settings` (the workflow's ``rules`` section checked),
:mod:`.chunks` (a chunk run: its tasks and its runs table), :mod:`.driver` (:func:`run`
and its memory estimate), :mod:`.tables` (polars aggregates). The runs themselves are :mod:`knight.engine.walk`'s.
Names are imported on first use.
"""

from knight._lazy import attach

#: Public names and the module each comes from (imported on first use).
_EXPORTS = {"run": "knight.rules.driver"}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
__all__ = ["run", "tables"]
