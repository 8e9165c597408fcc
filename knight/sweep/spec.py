"""A sweep's plan: which (start, order) pairs of a board it runs, and how it is cut.

A sweep is cut into *chunks* (one Snakemake job, one Parquet file each) made of whole
start orbits under the board's symmetry group, and each chunk into *tasks* (one Dask
task each): an orbit for the tie tree, which serves every start of an orbit from one
search, a start for brute force, which shares no work. Planning computes nothing: it
compiles no kernel and walks no knight (:mod:`.chunks` computes the chunks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from knight.core.board import Board, parse_board, parse_starts
from knight.core.checks import SettingError
from knight.core.orders import N_ORDERS, check_ranks
from knight.core.orders import rank as order_rank
from knight.core.symmetry import group
from knight.engine.rows import DEFAULT_ENGINE, check_engine
from knight.engine.tiebreak import ORDER_RULES

DEFAULT_CHUNK_RUNS = 4_000_000


@dataclass(frozen=True)
class SweepSpec:
    """What to run on one board: start squares (indices) and order ranks, both sorted,
    under a tie-break ``rule`` whose residual ties the orders break (``fixed`` by default).
    A bad value raises :class:`~knight.core.checks.SettingError` keyed by its field
    (``starts``, ``ranks``, ``chunk_runs``, ``engine``, ``rule``)."""

    board: Board
    starts: np.ndarray | None = None
    ranks: np.ndarray | None = None
    chunk_runs: int = DEFAULT_CHUNK_RUNS
    engine: str = DEFAULT_ENGINE
    rule: str = "fixed"

    def __post_init__(self) -> None:
        starts = np.arange(self.board.size) if self.starts is None else np.asarray(self.starts)
        ranks = np.arange(N_ORDERS) if self.ranks is None else np.asarray(self.ranks)
        if starts.size == 0:
            raise SettingError("starts", "a sweep needs at least one start and one order")
        if ranks.size == 0:
            raise SettingError("ranks", "a sweep needs at least one start and one order")
        if starts.min() < 0 or starts.max() >= self.board.size:
            bad = int(starts[(starts < 0) | (starts >= self.board.size)][0])
            raise SettingError("starts", f"start square {bad} is off the {self.board.name} board")
        try:
            check_ranks(ranks)
        except ValueError as exc:
            raise SettingError("ranks", str(exc)) from None
        check_engine(self.engine)
        if self.rule not in ORDER_RULES:
            takes = ", ".join(ORDER_RULES)
            raise SettingError("rule", f"rule {self.rule!r}: a sweep over tie orders takes one of {takes}")
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
            engine=section.get("engine", DEFAULT_ENGINE),
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


def total_tasks(spec: SweepSpec) -> int:
    """Number of Dask tasks of the whole sweep (for progress bars)."""
    return sum(len(chunk_tasks(spec, k)) for k in range(n_chunks(spec)))


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


def parse_orders(orders) -> np.ndarray:
    """Ranks of ``"all"`` or a list of order strings."""
    if orders is None or orders == "all":
        return np.arange(N_ORDERS)
    if isinstance(orders, str):
        orders = [orders]
    return np.array([order_rank(str(o)) for o in orders], dtype=np.int64)


#: Estimated peak bytes of a sweep: a row of the runs table kept in memory (the Arrow
#: tables and the frame made of them), a square of the board (the symmetry group's
#: tables and their temporaries, the start lists), and a square of one worker's tree
#: state (its frames and padded board); upper bounds of a sweep's peaks (tests/faults/test_cost.py checks them).
ROW_BYTES, SQUARE_BYTES, WORKER_SQUARE_BYTES = 32, 320, 128


def sweep_bytes(board: Board, starts: int, orders: int, *, kept: int | None = None, workers: int = 1) -> int:
    """Estimated peak bytes of a sweep of ``starts`` x ``orders`` runs on ``board`` with
    ``workers`` threads, ``kept`` rows held at once (default all of them, as :func:`run`
    returns them; ``knight sweep --out`` holds about two chunks).

    >>> sweep_bytes(Board(8, 8), 64, 40320) // 2**20
    78
    >>> sweep_bytes(Board(10**4, 10**4), 10**8, 1) // 2**30
    44
    """
    rows = starts * orders if kept is None else min(kept, starts * orders)
    return ROW_BYTES * rows + (SQUARE_BYTES + WORKER_SQUARE_BYTES * workers) * board.size


__all__ = [
    "DEFAULT_CHUNK_RUNS",
    "SweepSpec",
    "n_chunks",
    "chunk_tasks",
    "total_tasks",
    "parse_orders",
    "sweep_bytes",
]
