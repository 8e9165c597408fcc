"""Sweeps over (start, order) pairs of one board: planning chunks, running them on
Dask, and the runs table they produce.

A sweep is cut into *chunks* (one Snakemake job, one Parquet file each) made of
whole start orbits under the board's symmetry group, and each chunk into one Dask
task per orbit. Both engines compute the same rows:

- ``brute``: every (start, order) pair walked by :func:`knight.sweep.brute.run_batch`;
- ``tree``: :mod:`knight.sweep.tree`, which walks each distinct path once and derives
  mirror-image starts by symmetry.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from knight.core import dataset
from knight.core.board import Board, parse_board, parse_starts
from knight.core.checks import SettingError
from knight.core.io import write_parquet
from knight.core.layout import Outcomes, padded
from knight.core.orders import N_ORDERS, all_orders
from knight.core.orders import rank as order_rank
from knight.core.symmetry import group
from knight.core.tiebreak import ORDER_RULES
from knight.sweep.brute import run_batch

ENGINES = ("brute", "tree")
DEFAULT_CHUNK_RUNS = 4_000_000

#: Columns of the runs table, in order.
RUNS_SCHEMA = pa.schema(
    [
        ("rows", pa.uint16()),
        ("cols", pa.uint16()),
        ("start", pa.uint32()),
        ("order", pa.uint16()),
        ("visited", pa.uint32()),
        ("end", pa.uint32()),
        ("complete", pa.bool_()),
        ("closed", pa.bool_()),
        ("ties", pa.uint16()),
    ]
)

#: Parquet writer options of a runs file (``pyarrow.parquet.write_table`` keywords). The
#: rows are sorted by (start, order). ``rows``, ``cols``, ``start``, ``visited`` and
#: ``ties`` take a dictionary with run-length encoded indices (the first three cost a
#: few bytes per row group; ``ties`` has a few hundred values); ``order`` counts up by
#: one within a start, which delta encoding stores in almost nothing; ``complete`` and
#: ``closed`` are run-length encoded bits; ``end`` (a square, up to a few thousand
#: values) is split into byte streams, whose high bytes are nearly constant. Then zstd.
#: These are standard Parquet encodings: pyarrow and polars read them. Sizes against
#: the data's own entropy: docs/scaling.md.
RUNS_PARQUET = {
    "compression": "zstd",
    "row_group_size": 1 << 20,
    "use_dictionary": ["rows", "cols", "start", "visited", "ties"],
    "column_encoding": {
        "order": "DELTA_BINARY_PACKED",
        "complete": "RLE",
        "closed": "RLE",
        "end": "BYTE_STREAM_SPLIT",
    },
}

#: Blocks (one start's rows) shorter than this are copied into one array by :func:`to_table`.
_MIN_BLOCK_ROWS = 4096

_OUTCOME_DTYPES = {
    "visited": np.uint32,
    "end": np.uint32,
    "complete": np.bool_,
    "closed": np.bool_,
    "ties": np.uint16,
}

#: NumPy dtype of every column of :data:`RUNS_SCHEMA`.
_COLUMN_DTYPES = {"rows": np.uint16, "cols": np.uint16, "start": np.uint32, "order": np.uint16, **_OUTCOME_DTYPES}


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


def brute_orbit(board: Board, starts: np.ndarray, ranks: np.ndarray) -> dict[str, np.ndarray]:
    """Rows for every start in ``starts`` x every rank, by walking each pair."""
    st = np.repeat(np.asarray(starts, np.uint32), len(ranks))
    rk = np.tile(np.asarray(ranks, np.uint16), len(starts))
    out = {name: np.empty(len(st), dtype) for name, dtype in _OUTCOME_DTYPES.items()}
    steps = run_batch(*padded(board), st, rk, all_orders(), Outcomes(**out))
    out["start"] = st
    out["order"] = rk
    out["steps"] = np.array([steps], np.int64)
    return out


def orbit_rows(
    board: Board, starts: np.ndarray, ranks: np.ndarray, engine: str, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows (sorted by start, then order) for the starts of one orbit under ``engine``.

    Also returns ``steps`` (knight steps walked, one-element array) for benchmarks.
    """
    if engine == "brute":
        if rule != "fixed":
            return brute_rule_orbit(board, starts, ranks, rule)
        return brute_orbit(board, starts, ranks)
    if engine == "tree":
        from knight.sweep.tree import tree_orbit

        return tree_orbit(board, starts, ranks, rule=rule)
    raise ValueError(f"engine {engine!r} is not one of {', '.join(ENGINES)}")


def brute_rule_orbit(board: Board, starts: np.ndarray, ranks: np.ndarray, rule: str) -> dict[str, np.ndarray]:
    """Rows of :func:`brute_orbit` for a rule with a key (pohl, roth, corner): every pair
    walked by the per-run kernel of :mod:`knight.rules.kernel`."""
    from knight.rules.kernel import pair_outcomes

    st = np.repeat(np.asarray(starts, np.uint32), len(ranks))
    rk = np.tile(np.asarray(ranks, np.int64), len(starts))
    out = pair_outcomes(board, rule, st, rk)
    out["start"] = st
    out["order"] = rk.astype(np.uint16)
    return out


def to_table(board: Board, parts: Iterable[dict[str, np.ndarray]], per_start: int) -> pa.Table:
    """Assemble task results into one runs table (``RUNS_SCHEMA``), sorted by (start, order).

    Each part holds whole starts, every start a block of ``per_start`` rows sorted by
    order, so the table is the blocks sorted by start. A column is the blocks in that
    order as the chunks of one Arrow array, each a view of its part's memory (no row
    sort, no copy; a part's array of another dtype is cast, see :func:`_arrow`). Blocks under
    :data:`_MIN_BLOCK_ROWS` rows (a few orders a start) are joined into one array
    instead, so that no column is thousands of tiny chunks.
    """
    parts = list(parts)
    blocks = sorted(
        (int(p["start"][lo]), k, lo) for k, p in enumerate(parts) for lo in range(0, len(p["start"]), per_start)
    )
    n = len(blocks) * per_start
    arrays = []
    for f in RUNS_SCHEMA:
        if f.name in ("rows", "cols"):
            arrays.append(_arrow(np.full(n, getattr(board, f.name), _COLUMN_DTYPES[f.name]), f))
            continue
        column = pa.chunked_array([_arrow(parts[k][f.name][lo : lo + per_start], f) for _, k, lo in blocks], f.type)
        arrays.append(column.combine_chunks() if per_start < _MIN_BLOCK_ROWS else column)
    return pa.Table.from_arrays(arrays, schema=RUNS_SCHEMA)


def _arrow(values: np.ndarray, field: pa.Field) -> pa.Array:
    """``values`` as the Arrow array of runs column ``field``: a view of their memory when
    their dtype is the column's (booleans are packed into bits), otherwise a copy that
    must hold the same values (``ValueError`` if one does not fit). Built from buffers:
    ``pa.array`` imports pandas to inspect a NumPy array, 0.2 s of every job."""
    dtype = np.dtype(_COLUMN_DTYPES[field.name])
    if values.dtype != dtype:
        cast = values.astype(dtype)
        if not np.array_equal(cast, values):
            raise ValueError(f"runs column {field.name}: values do not fit {field.type}")
        values = cast
    data = np.packbits(values, bitorder="little") if dtype == np.bool_ else np.ascontiguousarray(values)
    return pa.Array.from_buffers(field.type, len(values), [None, pa.py_buffer(data)])


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


def board_folder(root: str | Path, board: Board, rule: str = "fixed") -> Path:
    """Folder of one board's runs in the Hive-style dataset under ``root``
    (``board=RxC``; ``rule=R/board=RxC`` for a rule other than ``fixed``)."""
    root = Path(root)
    return (root if rule == "fixed" else root / f"rule={rule}") / f"board={board.name}"


def chunk_path(root: str | Path, board: Board, chunk: int, rule: str = "fixed") -> Path:
    """Path of chunk ``chunk`` of a board in the runs dataset under ``root``."""
    return board_folder(root, board, rule) / dataset.part_name(chunk)


def write_chunk(result: ChunkResult, path: str | Path) -> None:
    """Write a chunk's runs table atomically, with the encodings of :data:`RUNS_PARQUET`."""
    write_parquet(result.table, path, **RUNS_PARQUET)


@dataclass
class SweepSummary:
    board: Board
    runs: int
    complete: int
    closed: int
    steps: int
    seconds: float
    files: list[Path]


def sweep(
    spec: SweepSpec, out_dir: str | Path | None = None, client=None, progress=None, on_chunk=None
) -> SweepSummary:
    """Run every chunk of ``spec``; with ``out_dir``, write the board's runs dataset there
    (``board=RxC/part-NNNN.parquet``, then its manifest, see :mod:`knight.core.dataset`).
    ``on_chunk(result)`` is called with each chunk's :class:`ChunkResult`, in order.

    The output folder is checked before any computing; earlier parts of the board's
    folder are removed first, so a reused folder never holds two runs' rows.
    """
    folder = None
    if out_dir is not None:
        folder = board_folder(out_dir, spec.board, spec.rule)
        check_output_dir(folder)
        dataset.begin(folder)
    t0 = time.perf_counter()
    runs = complete = closed = steps = 0
    files = []
    for k, res in enumerate(iter_chunks(spec, client=client, progress=progress)):
        runs += res.table.num_rows
        complete += pc.sum(res.table.column("complete")).as_py() or 0
        closed += pc.sum(res.table.column("closed")).as_py() or 0
        steps += res.steps
        if on_chunk is not None:
            on_chunk(res)
        if folder is not None:
            path = chunk_path(out_dir, spec.board, k, spec.rule)
            write_chunk(res, path)
            files.append(path)
    if folder is not None:
        dataset.write_manifest(
            folder, files, rows=spec.chunk_rows(), schema=RUNS_SCHEMA, board=spec.board.name, rule=spec.rule
        )
    return SweepSummary(spec.board, runs, complete, closed, steps, time.perf_counter() - t0, files)


def check_output_dir(folder: str | Path) -> None:
    """Raise a one-line ``ValueError`` unless ``folder`` is (or can be made) a writable folder."""
    folder = Path(folder)
    for parent in [folder, *folder.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"output folder {folder}: {parent} is a file, not a folder")
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}.tmp"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"output folder {folder}: cannot write there ({exc.strerror or exc})") from None


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


def run(
    board,
    starts="all",
    orders="all",
    rule: str = "fixed",
    engine: str = "tree",
    workers: int = 1,
    out: str | Path | None = None,
    *,
    chunk_runs: int = DEFAULT_CHUNK_RUNS,
):
    """Warnsdorff's rule from every start under every tie order of ``board``: a
    ``polars.DataFrame`` with one row per (start, order), sorted by start, then order.

    The columns are the Parquet runs table's (:data:`RUNS_SCHEMA`): ``start`` and ``end``
    are square indices ``row * cols + col`` (0-based), ``order`` the tie order's rank
    (docs/conventions.md). ``board``: ``8``, ``"6x8"`` or a :class:`~knight.Board` (sides
    at least 3); ``starts``: ``"all"``, ``"corner"`` or 1-based ``(row, col)`` pairs;
    ``orders``: ``"all"`` (the 40,320) or order strings; ``rule``: fixed, pohl, roth or
    corner (each order breaks the ties the rule's key leaves); ``engine``: ``"tree"``
    (each distinct path walked once) or ``"brute"`` (every pair walked: the independent
    check); ``workers``: Dask worker threads (1: this thread, no Dask). With ``out`` the
    runs dataset is written there too, as ``knight sweep --out`` writes it (the folder
    is checked before any work). A progress bar is drawn when stderr is a terminal.

    >>> runs = run(5, starts=[(1, 1)], orders=["12345678", "21345678"])
    >>> runs.select("start", "order", "visited", "complete").rows()
    [(0, 0, 25, True), (0, 5040, 25, True)]
    """
    import contextlib

    import polars as pl

    from knight.core.checks import board_arg, choice_arg, int_arg, named
    from knight.runtime.progress import Progress

    board = board_arg(board, min_side=3)
    try:
        squares = parse_starts(board, starts)
    except ValueError as exc:
        raise ValueError(named("starts", str(exc))) from None
    try:
        ranks = parse_orders(orders)
    except ValueError as exc:
        raise ValueError(named("orders", str(exc))) from None
    spec = SweepSpec(
        board,
        starts=squares,
        ranks=ranks,
        chunk_runs=int_arg("chunk_runs", chunk_runs, 1),
        engine=choice_arg("engine", engine, ENGINES),
        rule=rule,
    )
    workers = int_arg("workers", workers, 1)
    if out is not None:
        check_output_dir(board_folder(out, board, spec.rule))
    tables = []
    if workers == 1:
        client_context = contextlib.nullcontext()
    else:
        from knight.runtime.cluster import dask_client

        client_context = dask_client(workers)
    with client_context as client, Progress(total_tasks(spec), f"sweep {board.name}") as bar:
        sweep(spec, out, client=client, progress=bar, on_chunk=lambda res: tables.append(res.table))
    return pl.from_arrow(pa.concat_tables(tables))


__all__ = [
    "ENGINES",
    "run",
    "RUNS_SCHEMA",
    "RUNS_PARQUET",
    "SweepSpec",
    "ChunkResult",
    "SweepSummary",
    "brute_orbit",
    "orbit_rows",
    "run_chunk",
    "write_chunk",
    "chunk_path",
    "board_folder",
    "sweep",
    "n_chunks",
    "parse_orders",
    "iter_chunks",
    "chunk_tasks",
    "total_tasks",
    "check_output_dir",
]
