"""Studies of the tie-break rules: the plan of jobs, their runs on Dask, the runs tables.

A study (an entry of the workflow's ``rules.studies``) runs each of its rules on each
of its boards from its starts (docs/rules.md). For one rule, its work is cut into
*chunks*, one Snakemake job and one Parquet part each, of bounded size:

- *walk* chunks (a rule under its own order, and the random rules): consecutive
  segments of (board, starts), boards in the study's order, holding at most
  ``chunk_steps`` knight steps by an upper bound (a run visits at most rows*cols
  squares; random-order makes at most ``retries`` attempts; random rules run
  ``trials`` times a start). So a board of 300 from every start is many chunks, and
  many small boards share one. Each is run by :func:`knight.rules.kernel.outcomes`.
- *tree* chunks (fixed, pohl, roth, corner under every residual tie order, or a list
  of orders): each board's tie-tree sweep (:class:`knight.sweep.driver.SweepSpec`), one
  study chunk per sweep chunk (``chunk_runs`` runs, whole start orbits).

A chunk's rows depend only on its content (:meth:`Chunk.params`), never on how it is
split into Dask tasks or which worker runs them: random draws are keyed by (seed,
rows, cols, start, trial[, attempt]) (docs/conventions.md, "Random choices").
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa

from knight.core.board import Board, parse_boards, parse_starts
from knight.core.orders import N_ORDERS
from knight.core.orders import rank as order_rank
from knight.core.tiebreak import ORDER_RULES, RANDOM_RULES, rule_code
from knight.sweep.driver import SweepSpec, chunk_tasks

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
#: Knight steps (upper bound) of one Dask task of a walk chunk: about a second of work.
TASK_STEPS = 50_000_000
DEFAULT_CHUNK_STEPS = 2_000_000_000
DEFAULT_CHUNK_RUNS = 4_000_000


@dataclass(frozen=True)
class RuleSpec:
    """One rule with its parameters: the tie order of fixed/pohl/roth/corner, the seed
    and trials of the random rules, random-order's retries (1 where they do not apply)."""

    rule: str
    order: str = "12345678"
    seed: int = 0
    trials: int = 1
    retries: int = 1

    def __post_init__(self) -> None:
        rule_code(self.rule)
        order_rank(self.order)  # validates
        for name, low in (("seed", 0), ("trials", 1), ("retries", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"{self.rule}: {name} must be an integer of at least {low}, got {value!r}")

    @classmethod
    def from_settings(cls, rule: str, settings: Mapping | None = None) -> RuleSpec:
        """The rule under the workflow's ``rules.settings`` (absent keys: defaults)."""
        s = dict((settings or {}).get(rule) or {})
        random = rule in RANDOM_RULES
        return cls(
            rule,
            order=str(s.get("order", "12345678")),
            seed=int(s.get("seed", 0)) if random else 0,
            trials=int(s.get("trials", 1)) if random else 1,
            retries=int(s.get("retries", 1)) if rule == "random-order" else 1,
        )

    def params(self) -> dict:
        """Plain values that decide this rule's rows."""
        out = {"rule": self.rule}
        if self.rule in ORDER_RULES:
            out["order"] = self.order
        if self.rule in RANDOM_RULES:
            out.update(seed=self.seed, trials=self.trials)
        if self.rule == "random-order":
            out["retries"] = self.retries
        return out

    def steps_per_start(self, board: Board) -> int:
        """Upper bound of the knight steps of one start's runs on ``board``."""
        return board.size * self.trials * self.retries


@dataclass(frozen=True)
class Chunk:
    """One job's work: walk ``segments`` ((board, first, last) ranges of the study's
    sorted starts of that board) or the tree sweep chunk ``sweep_chunk`` of ``board``."""

    spec: RuleSpec
    kind: str
    segments: tuple[tuple[Board, int, int], ...] = ()
    board: Board | None = None
    sweep: SweepSpec | None = None
    sweep_chunk: int = -1
    rows: int = 0
    steps: int = 0

    def params(self, starts) -> dict:
        """Plain values that decide the chunk's rows (its Snakemake params); ``starts`` is
        the study's starts setting (the segments index its start squares)."""
        out = {**self.spec.params(), "kind": self.kind, "starts": starts}
        if self.kind == "walk":
            out["segments"] = [[b.name, lo, hi] for b, lo, hi in self.segments]
        else:
            out.update(
                board=self.board.name,
                chunk=self.sweep_chunk,
                chunk_runs=int(self.sweep.chunk_runs),
                orders=self.sweep.ranks.tolist() if len(self.sweep.ranks) < N_ORDERS else "all",
            )
        return out


@dataclass(frozen=True)
class Study:
    """A study: its rules (with parameters) on its boards from its starts.

    ``starts``: "corner" ((1, 1)), "all", or 1-based (row, col) pairs; ``orders``:
    "default" (each rule's own order), "all" or order strings (tree chunks).
    """

    name: str
    rules: tuple[RuleSpec, ...]
    boards: tuple[Board, ...]
    starts: str | tuple[tuple[int, int], ...] = "corner"
    orders: str | tuple[str, ...] = "default"
    chunk_steps: int = DEFAULT_CHUNK_STEPS
    chunk_runs: int = DEFAULT_CHUNK_RUNS

    def __post_init__(self) -> None:
        if not self.rules or not self.boards:
            raise ValueError(f"study {self.name!r}: needs at least one rule and one board")
        for spec in self.rules:
            if spec.rule == "squirrel-cull":
                bad = [b.name for b in self.boards if not b.square or b.rows < 5]
                if bad:
                    raise ValueError(
                        f"study {self.name!r}: squirrel-cull needs square boards of side 5 or more, not {bad[0]}"
                    )
                if self.starts != "corner":
                    raise ValueError(f"study {self.name!r}: squirrel-cull starts from (1, 1) only")
            if self.orders != "default" and spec.rule not in ORDER_RULES:
                raise ValueError(f"study {self.name!r}: {spec.rule} takes no tie orders (orders: {self.orders!r})")
        for board in self.boards:
            self.start_squares(board)  # validates starts on every board

    @classmethod
    def from_config(cls, study: Mapping, section: Mapping | None = None) -> Study:
        """A study from one ``rules.studies`` entry and the ``rules`` section (settings,
        chunk sizes)."""
        section = section or {}
        starts = study.get("starts", "corner")
        orders = study.get("orders", "default")
        return cls(
            name=study["name"],
            rules=tuple(RuleSpec.from_settings(r, section.get("settings")) for r in dict.fromkeys(study["rules"])),
            boards=tuple(parse_boards(study["boards"])),
            starts=starts if isinstance(starts, str) else tuple(sorted({tuple(p) for p in starts})),
            orders=orders if isinstance(orders, str) else tuple(sorted(set(orders))),
            chunk_steps=int(section.get("chunk_steps", DEFAULT_CHUNK_STEPS)),
            chunk_runs=int(section.get("chunk_runs", DEFAULT_CHUNK_RUNS)),
        )

    def spec(self, rule: str) -> RuleSpec:
        for s in self.rules:
            if s.rule == rule:
                return s
        raise ValueError(f"study {self.name!r} does not run rule {rule!r}")

    def start_squares(self, board: Board) -> np.ndarray:
        """The study's start squares on ``board`` (indices, sorted)."""
        return np.unique(parse_starts(board, self.starts if isinstance(self.starts, str) else list(self.starts)))

    @property
    def over_orders(self) -> bool:
        """True when the study runs many tie orders (tree chunks), not each rule's own."""
        return self.orders != "default"

    def ranks(self, rule: str) -> np.ndarray:
        if self.orders == "default":
            return np.array([order_rank(self.spec(rule).order)], dtype=np.int64)
        if self.orders == "all":
            return np.arange(N_ORDERS, dtype=np.int64)
        return np.unique([order_rank(o) for o in self.orders]).astype(np.int64)

    def chunks(self, rule: str) -> list[Chunk]:
        """The rule's chunks, in file order (part k is chunk k)."""
        return self._chunks[rule]

    def chunk_params(self, rule: str, k: int) -> dict:
        """What decides the rows of chunk ``k`` of ``rule`` (plain values)."""
        starts = self.starts if isinstance(self.starts, str) else [list(p) for p in self.starts]
        return self.chunks(rule)[k].params(starts)

    @cached_property
    def _chunks(self) -> dict[str, list[Chunk]]:
        return {s.rule: (self._tree_chunks(s) if self.over_orders else self._walk_chunks(s)) for s in self.rules}

    def _walk_chunks(self, spec: RuleSpec) -> list[Chunk]:
        chunks: list[Chunk] = []
        segments: list[tuple[Board, int, int]] = []
        load = rows = 0

        def close():
            nonlocal segments, load, rows
            if segments:
                chunks.append(Chunk(spec, "walk", segments=tuple(segments), rows=rows, steps=load))
            segments, load, rows = [], 0, 0

        for board in self.boards:
            n = len(self.start_squares(board))
            w = spec.steps_per_start(board)
            lo = 0
            while lo < n:
                take = min(n - lo, (self.chunk_steps - load) // w)
                if take <= 0:
                    if segments:
                        close()
                        continue
                    take = 1  # one start's runs exceed a chunk: a chunk of its own
                segments.append((board, lo, lo + take))
                load += take * w
                rows += take * spec.trials
                lo += take
        close()
        return chunks

    def _tree_chunks(self, spec: RuleSpec) -> list[Chunk]:
        chunks = []
        for board in self.boards:
            sweep = SweepSpec(
                board,
                starts=self.start_squares(board),
                ranks=self.ranks(spec.rule),
                chunk_runs=self.chunk_runs,
                engine="tree",
                rule=spec.rule,
            )
            for j, rows in enumerate(sweep.chunk_rows()):
                chunks.append(
                    Chunk(spec, "tree", board=board, sweep=sweep, sweep_chunk=j, rows=rows, steps=rows * board.size)
                )
        return chunks


# --- running a chunk --------------------------------------------------------------
def walk_rows(board: Board, spec: RuleSpec, starts: np.ndarray) -> dict[str, np.ndarray]:
    """Rows of ``spec`` from ``starts`` (every trial each), with the task's compute seconds."""
    from knight.rules.kernel import outcomes

    t0 = time.perf_counter()
    out = outcomes(board, spec.rule, starts, spec.trials, order=spec.order, seed=spec.seed, retries=spec.retries)
    out["seconds"] = np.array([time.perf_counter() - t0])
    return out


def walk_tasks(study: Study, chunk: Chunk) -> list[tuple[Board, np.ndarray]]:
    """A walk chunk's Dask tasks: (board, start squares) of about :data:`TASK_STEPS` steps."""
    out = []
    for board, lo, hi in chunk.segments:
        squares = study.start_squares(board)[lo:hi]
        per_task = max(1, TASK_STEPS // chunk.spec.steps_per_start(board))
        out += [(board, squares[a : a + per_task]) for a in range(0, len(squares), per_task)]
    return out


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


def run_chunk(study: Study, rule: str, k: int, client=None, progress=None) -> ChunkResult:
    """Compute chunk ``k`` of ``rule`` in ``study`` (on ``client``'s workers if given).

    Walk rows come in segment order, each start's trials together; tree rows by start,
    then order (as the sweep's). Raises ``RuntimeError`` if the rows differ from the plan.
    """
    chunks = study.chunks(rule)
    if not 0 <= k < len(chunks):
        raise ValueError(f"study {study.name!r} rule {rule}: chunk {k} is outside 0..{len(chunks) - 1}")
    chunk = chunks[k]
    t0 = time.perf_counter()
    if chunk.kind == "tree":
        from knight.sweep.driver import run_chunk as run_sweep_chunk

        res = run_sweep_chunk(chunk.sweep, chunk.sweep_chunk, client=client, progress=progress)
        cols = {name: res.table.column(name).to_numpy() for name in res.table.column_names}
        table = pa.Table.from_arrays(_arrays(rule, chunk.board, cols), schema=RUNS_SCHEMA)
        steps = res.steps
        times = _times(rule, {chunk.board: [table.num_rows, steps, res.seconds]})
    else:
        jobs = walk_tasks(study, chunk)
        if client is None:
            results = []
            for board, starts in jobs:
                results.append(walk_rows(board, chunk.spec, starts))
                if progress is not None:
                    progress.update(1)
        else:
            futures = [client.submit(walk_rows, board, chunk.spec, starts, pure=False) for board, starts in jobs]
            if progress is not None:
                from dask.distributed import as_completed

                for _ in as_completed(futures, loop=client.loop):
                    progress.update(1)
            results = client.gather(futures)
        per_board: dict[Board, list[float]] = {}
        batches = []
        for (board, _), p in zip(jobs, results):
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


def run(
    board,
    rule: str,
    starts="corner",
    *,
    order: str = "12345678",
    orders="default",
    trials: int = 100,
    seed: int = 1,
    retries: int = 10,
    workers: int = 1,
):
    """``rule`` on ``board`` from ``starts``: a ``polars.DataFrame`` of runs, one row per
    (start, trial), or per (start, order) with ``orders``.

    The columns are the rules stage's runs table's (:data:`RUNS_SCHEMA`): ``start`` and
    ``end`` are square indices ``row * cols + col``, ``order`` the rank of the tie order
    used (null for random and squirrel-cull), ``attempts`` random-order's attempts.
    ``board``: ``8``, ``"6x8"`` or a :class:`~knight.Board` (sides at least 3);
    ``starts``: ``"corner"`` ((1, 1)), ``"all"`` or 1-based ``(row, col)`` pairs;
    ``order``: the tie order after the rule's key (fixed, pohl, roth, corner);
    ``orders``: ``"default"`` (that one order), ``"all"`` or order strings (every one
    from every start, tie-tree engine); ``trials``, ``seed``: runs per start and the
    generator's seed of the random rules; ``retries``: random-order's attempts at most;
    ``workers``: Dask worker threads (1: this thread, no Dask). Defaults are the
    command line's (``knight rules``). A progress bar is drawn when stderr is a terminal.

    >>> run(8, "pohl").select("rule", "start", "visited", "complete").rows()
    [('pohl', 0, 64, True)]
    """
    import contextlib

    import polars as pl

    from knight.core.checks import board_arg, int_arg, named, square_arg
    from knight.runtime.progress import Progress

    board = board_arg(board, min_side=3)
    rule_code(rule)
    if not isinstance(starts, str):
        starts = tuple(sorted({board.human(square_arg(board, s, name="starts")) for s in starts}))
    if not isinstance(orders, str):
        orders = tuple(sorted({str(o).strip() for o in orders}))
        for o in orders:
            try:
                order_rank(o)
            except ValueError as exc:
                raise ValueError(named("orders", str(exc))) from None
    if orders != "default" and rule not in ORDER_RULES:
        raise ValueError(f"orders {orders!r}: {rule} takes no tie orders (only {', '.join(ORDER_RULES)} do)")
    if rule == "squirrel-cull" and starts != "corner":
        raise ValueError(f"starts {starts!r}: squirrel-cull starts from (1, 1) only")
    if rule == "squirrel-cull" and (not board.square or board.rows < 5):
        raise ValueError(f"board {board.name}: squirrel-cull needs a square board of side 5 or more")
    settings = {
        "order": str(order).strip(),
        "seed": int_arg("seed", seed, 0, 2**64 - 1),
        "trials": int_arg("trials", trials, 1),
        "retries": int_arg("retries", retries, 1, 65535),
    }
    workers = int_arg("workers", workers, 1)
    try:
        study = Study("api", (RuleSpec.from_settings(rule, {rule: settings}),), (board,), starts=starts, orders=orders)
        study.ranks(rule)  # the rule's order, checked before any work
    except ValueError as exc:
        message = str(exc)
        raise ValueError(named("starts", message) if message.startswith("square") else message) from None
    chunks = range(len(study.chunks(rule)))
    if workers == 1:
        client_context = contextlib.nullcontext()
    else:
        from knight.runtime.cluster import dask_client

        client_context = dask_client(workers)
    with (
        client_context as client,
        Progress(sum(n_tasks(study, rule, k) for k in chunks), f"rules {rule} {board.name}") as bar,
    ):
        tables = [run_chunk(study, rule, k, client=client, progress=bar).table for k in chunks]
    return pl.from_arrow(pa.concat_tables(tables))
