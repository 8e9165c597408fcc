"""A study's chunks run: the runs table's columns, a chunk's Dask tasks (walk tasks, or
the sweep stage's chunks for the tie tree), their rows gathered and checked against the
plan (:meth:`knight.rules.study.Study.chunks`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from knight.core.board import Board
from knight.engine.tiebreak import (
    rule_code,
)
from knight.rules.study import TASK_STEPS, Chunk, RuleSpec, Study
from knight.runtime.tasks import run_tasks
from knight.sweep.chunks import run_chunk as run_sweep_chunk
from knight.sweep.spec import chunk_tasks

#: Columns of the rules stage's runs table, in order. ``order`` is the rank of the tie
#: order a run used (the rule's own, the residual order of a tree row, random-order's
#: last attempt's), null for random and squirrel-cull.
RUNS_SCHEMA = pa.schema(
    [
        ("rule", pa.string()),
        ("rows", pa.uint16()),
        ("cols", pa.uint16()),
        ("start", pa.uint32()),
        ("order", pa.uint16()),
        ("trial", pa.uint32()),
        ("attempts", pa.uint16()),
        ("visited", pa.uint32()),
        ("end", pa.uint32()),
        ("complete", pa.bool_()),
        ("closed", pa.bool_()),
    ]
)
#: Compute time of a chunk's work per board (not part of any result: a machine's figure).
TIMES_SCHEMA = pa.schema(
    [
        ("rule", pa.string()),
        ("rows", pa.uint16()),
        ("cols", pa.uint16()),
        ("runs", pa.uint64()),
        ("steps", pa.uint64()),
        ("seconds", pa.float64()),
    ]
)


def warm_up(rule: str) -> None:
    """Compile ``rule``'s kernel (a run on 5 x 5), so that a chunk's times are compute only."""
    from knight.engine.walk import outcomes

    outcomes(Board(5, 5), rule if rule != "squirrel-cull" else "fixed", [0])


def walk_rows(board: Board, spec: RuleSpec, starts: np.ndarray) -> dict[str, np.ndarray]:
    """Rows of ``spec`` from ``starts`` (every trial each), with the task's compute seconds."""
    from knight.engine.walk import outcomes

    t0 = time.perf_counter()
    out = outcomes(board, spec.rule, starts, spec.trials, order=spec.order, seed=spec.seed, retries=spec.retries)
    out["seconds"] = np.array([time.perf_counter() - t0])
    return out


def walk_task_rows(spec: RuleSpec, task: tuple[tuple[Board, np.ndarray], ...]) -> list[dict[str, np.ndarray]]:
    """Rows of each (board, starts) part of a :func:`walk_tasks` task, as
    :func:`walk_rows`'s; two one-run parts are walked side by side
    (:func:`knight.engine.walk.two_board_outcomes`) and share the task's seconds in
    proportion to their knight steps."""
    from knight.engine.walk import two_board_outcomes

    if len(task) == 1:
        return [walk_rows(task[0][0], spec, task[0][1])]
    t0 = time.perf_counter()
    boards = [board for board, _ in task]
    starts = [int(squares[0]) for _, squares in task]
    out = two_board_outcomes(boards, spec.rule, starts, order=spec.order, seed=spec.seed)
    seconds = time.perf_counter() - t0
    steps = [int(p["steps"][0]) for p in out]
    for p, n in zip(out, steps):
        p["seconds"] = np.array([seconds * (n / sum(steps) if sum(steps) else 0.5)])
    return out


def walk_tasks(study: Study, chunk: Chunk) -> list[tuple[tuple[Board, np.ndarray], ...]]:
    """A walk chunk's Dask tasks, each of about :data:`TASK_STEPS` steps: one (board, start
    squares) part, or two parts of one run each when the rule goes two at a time
    (:func:`knight.engine.walk.pairs_walk_two`; boards of one start, such as runs from
    the corner), consecutive in the chunk."""
    from knight.engine.walk import pairs_walk_two

    parts = []
    for board, lo, hi in chunk.segments:
        squares = study.start_squares(board)[lo:hi]
        per_task = max(1, TASK_STEPS // chunk.spec.steps_per_start(board))
        parts += [(board, squares[a : a + per_task]) for a in range(0, len(squares), per_task)]
    spec = chunk.spec
    if spec.trials != 1 or not pairs_walk_two(rule_code(spec.rule)):
        return [(part,) for part in parts]
    tasks: list[tuple[tuple[Board, np.ndarray], ...]] = []
    for part in parts:
        if len(part[1]) == 1 and tasks and len(tasks[-1]) == 1 and len(tasks[-1][0][1]) == 1:
            tasks[-1] = (tasks[-1][0], part)
        else:
            tasks.append((part,))
    return tasks


def task_bytes(study: Study, chunk: Chunk) -> int:
    """The most bytes of board storage one Dask task of ``chunk`` allocates
    (:func:`knight.engine.walk.board_bytes` of its parts; 0 for a tree chunk)."""
    from knight.engine.walk import board_bytes

    if chunk.kind != "walk":
        return 0
    spec, code = chunk.spec, rule_code(chunk.spec.rule)
    runs = spec.trials * spec.retries
    return max(sum(board_bytes(b, code, len(s) * runs) for b, s in task) for task in walk_tasks(study, chunk))


@dataclass
class ChunkResult:
    table: pa.Table  # RUNS_SCHEMA
    times: pa.Table  # TIMES_SCHEMA
    steps: int
    seconds: float


def _arrays(rule: str, board: Board, p: Mapping[str, np.ndarray]) -> list[pa.Array]:
    n = len(p["start"])
    order = np.asarray(p["order"]).astype(np.int64)
    cols = {
        "rows": np.full(n, board.rows),
        "cols": np.full(n, board.cols),
        "start": p["start"],
        "trial": p.get("trial", np.zeros(n)),
        "attempts": p.get("attempts", np.ones(n)),
        "visited": p["visited"],
        "end": p["end"],
        "complete": p["complete"],
        "closed": p["closed"],
    }
    out = []
    for f in RUNS_SCHEMA:
        if f.name == "rule":
            out.append(pa.array(np.full(n, rule, dtype=object), pa.string()))
        elif f.name == "order":
            out.append(pa.array(np.maximum(order, 0).astype(np.uint16), type=f.type, mask=order < 0))
        else:
            out.append(pa.array(np.asarray(cols[f.name]).astype(f.type.to_pandas_dtype()), type=f.type))
    return out


def _times(rule: str, per_board: dict[Board, list[float]]) -> pa.Table:
    rows = [
        {"rule": rule, "rows": b.rows, "cols": b.cols, "runs": int(v[0]), "steps": int(v[1]), "seconds": v[2]}
        for b, v in per_board.items()
    ]
    return pa.Table.from_pylist(rows, schema=TIMES_SCHEMA)


def _from_sweep(rule: str, sweep: pa.Table) -> pa.Table:
    """A tree chunk's rows: the sweep's runs table as it is, with the rule, trial 0 and one
    attempt a run, in this stage's column order."""
    n = sweep.num_rows
    added = {
        "rule": pa.repeat(rule, n),
        "trial": pa.repeat(pa.scalar(0, pa.uint32()), n),
        "attempts": pa.repeat(pa.scalar(1, pa.uint16()), n),
    }
    return pa.Table.from_arrays(
        [added[f.name] if f.name in added else sweep.column(f.name) for f in RUNS_SCHEMA], schema=RUNS_SCHEMA
    )


def _walk_task(task: tuple[tuple[Board, np.ndarray], ...], *, spec: RuleSpec) -> list[dict[str, np.ndarray]]:
    return walk_task_rows(spec, task)


def run_chunk(study: Study, rule: str, k: int, client=None, progress=None, workers: int = 1) -> ChunkResult:
    """Compute chunk ``k`` of ``rule`` in ``study``: its tasks run by
    :func:`knight.runtime.tasks.run_tasks` on ``client``, or on ``workers`` local threads.

    Walk rows come in segment order, each start's trials together; tree rows by start,
    then order (as the sweep's). Raises ``RuntimeError`` if the rows differ from the plan.
    """
    chunks = study.chunks(rule)
    if not 0 <= k < len(chunks):
        raise ValueError(f"study {study.name!r} rule {rule}: chunk {k} is outside 0..{len(chunks) - 1}")
    chunk = chunks[k]
    t0 = time.perf_counter()
    if chunk.kind == "tree":
        res = run_sweep_chunk(chunk.sweep, chunk.sweep_chunk, client=client, progress=progress, workers=workers)
        table = _from_sweep(rule, res.table)
        steps = res.steps
        times = _times(rule, {chunk.board: [table.num_rows, steps, res.seconds]})
    else:
        jobs = walk_tasks(study, chunk)
        results = run_tasks(
            _walk_task,
            [(task,) for task in jobs],
            shared={"spec": chunk.spec},
            client=client,
            workers=workers,
            progress=progress,
        )
        per_board: dict[Board, list[float]] = {}
        batches = []
        for (board, _), p in zip((part for task in jobs for part in task), (p for ps in results for p in ps)):
            batches.append(pa.RecordBatch.from_arrays(_arrays(rule, board, p), schema=RUNS_SCHEMA))
            acc = per_board.setdefault(board, [0, 0, 0.0])
            acc[0] += len(p["start"])
            acc[1] += int(p["steps"][0])
            acc[2] += float(p["seconds"][0])
        table = pa.Table.from_batches(batches, schema=RUNS_SCHEMA).combine_chunks()
        steps = sum(int(v[1]) for v in per_board.values())
        times = _times(rule, per_board)
    if table.num_rows != chunk.rows:
        raise RuntimeError(f"study {study.name!r} rule {rule} chunk {k}: {table.num_rows} rows, {chunk.rows} planned")
    return ChunkResult(table, times, steps, time.perf_counter() - t0)


def n_tasks(study: Study, rule: str, k: int) -> int:
    """Dask tasks of one chunk (for progress lines)."""
    chunk = study.chunks(rule)[k]
    if chunk.kind == "tree":
        return len(chunk_tasks(chunk.sweep, chunk.sweep_chunk))
    return len(walk_tasks(study, chunk))
