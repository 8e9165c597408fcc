"""A sweep over tie orders: a board's (start, order) pairs, planned and computed.

A sweep is cut into *chunks* (one Snakemake job, one Parquet file each) made of
whole start orbits under the board's symmetry group, and each chunk into one Dask
task per orbit. Both engines compute the same rows:

- ``brute``: every (start, order) pair walked by :func:`knight.engine.walk.pair_outcomes`;
- ``tree``: :mod:`knight.engine.tree`, which walks each distinct path once and derives
  mirror-image starts by symmetry.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa

from knight.core.board import Board, parse_board, parse_starts
from knight.core.checks import SettingError
from knight.core.orders import N_ORDERS
from knight.core.orders import rank as order_rank
from knight.core.symmetry import group
from knight.engine.runs_table import to_table
from knight.engine.tiebreak import ORDER_RULES
from knight.engine.walk import pair_outcomes

ENGINES = ("brute", "tree")
DEFAULT_CHUNK_RUNS = 4_000_000


@dataclass(frozen=True)
class SweepSpec:
    """What to run on one board: start squares (indices) and order ranks, both sorted,
    under a tie-break ``rule`` whose residual ties the orders break (``fixed`` by default)."""

    board: Board
    starts: np.ndarray | None = None
    ranks: np.ndarray | None = None
    chunk_runs: int = DEFAULT_CHUNK_RUNS
    engine: str = "tree"
    rule: str = "fixed"

    def __post_init__(self) -> None:
        starts = np.arange(self.board.size) if self.starts is None else np.asarray(self.starts)
        ranks = np.arange(N_ORDERS) if self.ranks is None else np.asarray(self.ranks)
        if starts.size == 0 or ranks.size == 0:
            raise ValueError("a sweep needs at least one start and one order")
        if starts.min() < 0 or starts.max() >= self.board.size:
            bad = int(starts[(starts < 0) | (starts >= self.board.size)][0])
            raise ValueError(f"start square {bad} is off the {self.board.name} board")
        if ranks.min() < 0 or ranks.max() >= N_ORDERS:
            raise ValueError(f"order ranks must lie in 0..{N_ORDERS - 1}")
        if self.engine not in ENGINES:
            raise ValueError(f"engine {self.engine!r} is not one of {', '.join(ENGINES)}")
        if self.rule not in ORDER_RULES:
            raise ValueError(f"rule {self.rule!r}: a sweep over tie orders takes one of {', '.join(ORDER_RULES)}")
        if int(self.chunk_runs) < 1:
            raise SettingError("chunk_runs", f"chunk_runs must be at least 1, got {self.chunk_runs}")
        object.__setattr__(self, "starts", np.unique(starts).astype(np.int64))
        object.__setattr__(self, "ranks", np.unique(ranks).astype(np.int64))

    @classmethod
    def from_config(cls, board: Board | str, section) -> SweepSpec:
        """The sweep of ``board`` under a config section (the workflow's ``sweep``): keys
        ``starts`` ("all" or 1-based pairs), ``orders`` ("all" or order strings),
        ``chunk_runs``, ``engine`` and optionally ``rule``. The one place a sweep is
        built from settings (the workflow's plan and its jobs both call it)."""
        board = parse_board(board) if not isinstance(board, Board) else board
        return cls(
            board,
            starts=parse_starts(board, section.get("starts", "all")),
            ranks=parse_orders(section.get("orders", "all")),
            chunk_runs=int(section.get("chunk_runs", DEFAULT_CHUNK_RUNS)),
            engine=section.get("engine", "tree"),
            rule=section.get("rule", "fixed"),
        )

    @property
    def runs(self) -> int:
        return len(self.starts) * len(self.ranks)

    @cached_property
    def _orbits(self) -> list[np.ndarray]:
        reps = group(self.board).orbit_representatives()[self.starts]
        by_orbit = np.lexsort((self.starts, reps))
        cuts = np.flatnonzero(np.diff(reps[by_orbit])) + 1
        return np.split(self.starts[by_orbit], cuts)

    def orbits(self) -> list[np.ndarray]:
        """Selected starts grouped by symmetry orbit (restricted to the selection), each
        sorted, ordered by the orbit's smallest square on the board."""
        return list(self._orbits)

    @cached_property
    def _chunks(self) -> list[list[np.ndarray]]:
        per_order = len(self.ranks)
        chunks: list[list[np.ndarray]] = [[]]
        load = 0
        for orbit in self._orbits:
            runs = len(orbit) * per_order
            if chunks[-1] and load + runs > self.chunk_runs:
                chunks.append([])
                load = 0
            chunks[-1].append(orbit)
            load += runs
        return chunks

    def chunks(self) -> list[list[np.ndarray]]:
        """Orbits packed greedily, in order, into chunks of about ``chunk_runs`` runs."""
        return self._chunks

    def chunk_rows(self) -> list[int]:
        """Rows of each chunk's runs table."""
        return [sum(len(o) for o in chunk) * len(self.ranks) for chunk in self._chunks]


def n_chunks(spec: SweepSpec) -> int:
    """Number of chunks (jobs, files) of a sweep."""
    return len(spec.chunks())


def brute_orbit(board: Board, starts: np.ndarray, ranks: np.ndarray, rule: str = "fixed") -> dict[str, np.ndarray]:
    """Rows for every start in ``starts`` x every rank under ``rule`` (fixed, pohl, roth,
    corner), by walking each pair (:func:`knight.engine.walk.pair_outcomes`)."""
    st = np.repeat(np.asarray(starts, np.uint32), len(ranks))
    rk = np.tile(np.asarray(ranks, np.int64), len(starts))
    out = pair_outcomes(board, rule, st, rk)
    out["start"] = st
    out["order"] = rk.astype(np.uint16)
    return out


def orbit_rows(
    board: Board, starts: np.ndarray, ranks: np.ndarray, engine: str, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows (sorted by start, then order) for the starts of one orbit under ``engine``.

    Also returns ``steps`` (knight steps walked, one-element array) for benchmarks.
    """
    if engine == "brute":
        return brute_orbit(board, starts, ranks, rule)
    if engine == "tree":
        from knight.engine.tree import tree_orbit

        return tree_orbit(board, starts, ranks, rule=rule)
    raise ValueError(f"engine {engine!r} is not one of {', '.join(ENGINES)}")


@dataclass
class ChunkResult:
    table: pa.Table
    steps: int
    seconds: float


def chunk_tasks(spec: SweepSpec, chunk: int) -> list[np.ndarray]:
    """Start groups of one chunk, one Dask task each.

    The tree engine works per orbit (one tree serves every start of the orbit); brute
    force has no shared work, so each start is its own task and workers stay busy.
    """
    chunks = spec.chunks()
    if not 0 <= chunk < len(chunks):
        raise ValueError(f"chunk {chunk} is outside 0..{len(chunks) - 1} for board {spec.board.name}")
    if spec.engine == "brute" and spec.rule == "fixed":
        return [orbit[i : i + 1] for orbit in chunks[chunk] for i in range(len(orbit))]
    return list(chunks[chunk])


def _submit(spec: SweepSpec, chunk: int, client, shared) -> list:
    board_f, ranks_f = shared
    return [
        client.submit(orbit_rows, board_f, starts, ranks_f, spec.engine, spec.rule, pure=False)
        for starts in chunk_tasks(spec, chunk)
    ]


def _collect(spec: SweepSpec, futures, client, progress, t0: float) -> ChunkResult:
    if progress is not None:
        from dask.distributed import as_completed

        for _ in as_completed(futures, loop=client.loop):
            progress.update(1)
    parts = client.gather(futures)
    steps = int(sum(int(p["steps"][0]) for p in parts))
    return ChunkResult(to_table(spec.board, parts, len(spec.ranks)), steps, time.perf_counter() - t0)


def _value(x):
    return x


def _share(spec: SweepSpec, client):
    """Board and orders as tasks, not scattered data: when a worker dies, Dask recomputes
    them from the graph and retries the runs (then KilledWorker after the scheduler's
    allowed failures), where lost scattered data would cancel the whole chunk."""
    return (
        client.submit(_value, spec.board, pure=False),
        client.submit(_value, spec.ranks, pure=False),
    )


def run_chunk(spec: SweepSpec, chunk: int, client=None, progress=None) -> ChunkResult:
    """Compute chunk ``chunk`` of ``spec`` (tasks from :func:`chunk_tasks`), on ``client`` if given."""
    t0 = time.perf_counter()
    if client is None:
        parts = []
        for starts in chunk_tasks(spec, chunk):
            parts.append(orbit_rows(spec.board, starts, spec.ranks, spec.engine, spec.rule))
            if progress is not None:
                progress.update(1)
        steps = int(sum(int(p["steps"][0]) for p in parts))
        return ChunkResult(to_table(spec.board, parts, len(spec.ranks)), steps, time.perf_counter() - t0)
    return _collect(spec, _submit(spec, chunk, client, _share(spec, client)), client, progress, t0)


def iter_chunks(spec: SweepSpec, client=None, progress=None, ahead: int = 1) -> Iterator[ChunkResult]:
    """Every chunk's result, in order; with a client, ``ahead`` later chunks are already
    queued while one is gathered, so workers never idle at chunk boundaries."""
    n = n_chunks(spec)
    if client is None:
        for k in range(n):
            yield run_chunk(spec, k, progress=progress)
        return
    shared = _share(spec, client)
    pending = {}
    for k in range(n):
        t0 = time.perf_counter()
        for j in range(k, min(n, k + ahead + 1)):
            if j not in pending:
                pending[j] = _submit(spec, j, client, shared)
        yield _collect(spec, pending.pop(k), client, progress, t0)


def parse_orders(orders) -> np.ndarray:
    """Ranks of ``"all"`` or a list of order strings."""
    if orders is None or orders == "all":
        return np.arange(N_ORDERS)
    if isinstance(orders, str):
        orders = [orders]
    return np.array([order_rank(str(o)) for o in orders], dtype=np.int64)


def total_tasks(spec: SweepSpec) -> int:
    """Number of Dask tasks of the whole sweep (for progress bars)."""
    return sum(len(chunk_tasks(spec, k)) for k in range(n_chunks(spec)))


__all__ = [
    "ENGINES",
    "DEFAULT_CHUNK_RUNS",
    "SweepSpec",
    "ChunkResult",
    "brute_orbit",
    "orbit_rows",
    "run_chunk",
    "iter_chunks",
    "n_chunks",
    "chunk_tasks",
    "total_tasks",
    "parse_orders",
]
