"""A sweep's chunks computed: each chunk's tasks (:func:`.spec.chunk_tasks`) run by
:mod:`knight.runtime.tasks` on a Dask client or local threads, their rows gathered into
one runs table (:mod:`knight.engine.runs_table`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from knight.core.board import Board
from knight.engine.rows import orbit_rows
from knight.engine.runs_table import to_table
from knight.runtime.tasks import iter_task_groups, run_tasks
from knight.sweep.spec import SweepSpec, chunk_tasks, n_chunks


@dataclass
class ChunkResult:
    table: pa.Table
    steps: int
    seconds: float


def _orbit_task(starts: np.ndarray, *, board: Board, ranks: np.ndarray, engine: str, rule: str) -> dict:
    return orbit_rows(board, starts, ranks, engine, rule)


def _shared(spec: SweepSpec) -> dict:
    return {"board": spec.board, "ranks": spec.ranks, "engine": spec.engine, "rule": spec.rule}


def _result(spec: SweepSpec, parts: list[dict], t0: float) -> ChunkResult:
    steps = int(sum(int(p["steps"][0]) for p in parts))
    return ChunkResult(to_table(spec.board, parts, len(spec.ranks)), steps, time.perf_counter() - t0)


def run_chunk(spec: SweepSpec, chunk: int, client=None, progress=None, workers: int = 1) -> ChunkResult:
    """Compute chunk ``chunk`` of ``spec``: its tasks (:func:`chunk_tasks`) run by
    :func:`knight.runtime.tasks.run_tasks` on ``client``, or on ``workers`` local threads."""
    t0 = time.perf_counter()
    tasks = [(starts,) for starts in chunk_tasks(spec, chunk)]
    parts = run_tasks(_orbit_task, tasks, shared=_shared(spec), client=client, workers=workers, progress=progress)
    return _result(spec, parts, t0)


def iter_chunks(spec: SweepSpec, client=None, progress=None, workers: int = 1) -> Iterator[ChunkResult]:
    """Every chunk's result, in order (:func:`knight.runtime.tasks.iter_task_groups`: on
    Dask the next chunk's tasks are queued while one is gathered)."""
    groups = ([(starts,) for starts in chunk_tasks(spec, k)] for k in range(n_chunks(spec)))
    t0 = time.perf_counter()
    for parts in iter_task_groups(
        _orbit_task, groups, shared=_shared(spec), client=client, workers=workers, progress=progress
    ):
        yield _result(spec, parts, t0)
        t0 = time.perf_counter()


__all__ = ["ChunkResult", "run_chunk", "iter_chunks"]
