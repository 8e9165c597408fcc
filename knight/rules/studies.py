"""Studies of the tie-break rules: the plan of jobs, their runs on Dask, the runs tables.

A study (an entry of the workflow's ``rules.studies``) runs each of its rules on each
of its boards from its starts (docs/rules.md). For one rule, its work is cut into
*chunks*, one Snakemake job and one Parquet part each, of bounded size:

- *walk* chunks (a rule under its own order, and the random rules): consecutive
  segments of (board, starts), boards in the study's order, holding at most
  ``chunk_steps`` knight steps by an upper bound (a run visits at most rows*cols
  squares; random-order makes at most ``retries`` attempts; random rules run
  ``trials`` times a start). So a board of 300 from every start is many chunks, and
  many small boards share one. Each is run by :func:`knight.engine.walk.outcomes`.
- *tree* chunks (fixed, pohl, roth, corner under every residual tie order, or a list
  of orders): each board's tie-tree sweep (:class:`knight.sweep.spec.SweepSpec`), one
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
from knight.core.checks import (
    Problems,
    SettingError,
    boards_setting,
    given_once,
    order_setting,
    orders_setting,
    squares_setting,
)
from knight.core.orders import N_ORDERS
from knight.core.orders import rank as order_rank
from knight.engine import rule_registry
from knight.engine.squirrel_cull import check_board
from knight.engine.tiebreak import (
    DEFAULT_ORDER,
    DEFAULT_RETRIES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    ORDER_RULES,
    RANDOM_RULES,
    RULES,
    check_setting,
    rule_code,
)
from knight.runtime.tasks import pool, run_tasks
from knight.sweep.chunks import run_chunk as run_sweep_chunk
from knight.sweep.spec import DEFAULT_CHUNK_RUNS, SweepSpec, chunk_tasks, sweep_bytes

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


@dataclass(frozen=True)
class RuleSpec:
    """One rule with its settings: the tie order after the rule's key (fixed, pohl, roth,
    corner), the seed and trials of the random rules, random-order's retries. Defaults
    are :mod:`knight.engine.tiebreak`'s; a setting that does not apply to the rule is set
    to a neutral value (seed 0, trials 1, retries 1), so it cannot change a row or a
    job's parameters. Bad values raise :class:`~knight.core.checks.SettingError` naming
    the setting."""

    rule: str
    order: str = DEFAULT_ORDER
    seed: int = DEFAULT_SEED
    trials: int = DEFAULT_TRIALS
    retries: int = DEFAULT_RETRIES

    def __post_init__(self) -> None:
        try:
            rule_code(self.rule)
        except ValueError as exc:
            raise SettingError("rule", str(exc)) from None
        try:
            order_rank(self.order)
        except ValueError as exc:
            raise SettingError("order", f"{self.order!r}: {exc}") from None
        takes = rule_registry.rule(self.rule).defaults
        for name, neutral in (("seed", 0), ("trials", 1), ("retries", 1)):
            try:
                value = check_setting(name, getattr(self, name)) if name in takes else neutral
            except ValueError as exc:
                raise SettingError(name, str(exc)) from None
            object.__setattr__(self, name, value)

    @classmethod
    def from_settings(cls, rule: str, settings: Mapping | None = None) -> RuleSpec:
        """The rule under the workflow's ``rules.settings`` (absent keys: the defaults)."""
        s = dict((settings or {}).get(rule) or {})
        return cls(rule, **{k: (str(v).strip() if k == "order" else v) for k, v in s.items()})

    def params(self) -> dict:
        """Plain values that decide this rule's rows."""
        out = {"rule": self.rule}
        out.update((name, getattr(self, name)) for name, _ in rule_registry.rule(self.rule).settings)
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


def _shown(starts) -> str:
    """``starts`` as a user writes it: ``'all'``, or ``[[row, col], ...]``."""
    return repr(starts) if isinstance(starts, str) else repr([list(s) for s in starts])


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
        """Every constraint of a study, in one place: the workflow's config check, the
        command line and the Python API all build a Study and report its errors
        (:class:`~knight.core.checks.SettingError`, naming ``rules``, ``boards``,
        ``starts`` or ``orders``)."""
        if not self.rules:
            raise SettingError("rules", f"study {self.name!r}: needs at least one rule")
        if not self.boards:
            raise SettingError("boards", f"study {self.name!r}: needs at least one board")
        for spec in self.rules:
            if rule_registry.rule(spec.rule).switches_orders:
                for board in self.boards:
                    try:
                        check_board(board.rows, board.cols)
                    except ValueError as exc:
                        raise SettingError("boards", str(exc)) from None
                if self.starts != "corner":
                    raise SettingError(
                        "starts", f"{_shown(self.starts)}: {spec.rule} starts from (1, 1) only: use starts: corner"
                    )
            if self.orders != "default" and spec.rule not in ORDER_RULES:
                other = [s.rule for s in self.rules if s.rule not in ORDER_RULES]
                raise SettingError(
                    "orders",
                    f"{self.orders!r}: only {', '.join(ORDER_RULES)} take tie orders, not {', '.join(other)}",
                )
        if not isinstance(self.orders, str):
            for order in self.orders:
                try:
                    order_rank(order)
                except ValueError as exc:
                    raise SettingError("orders", f"{order!r}: {exc}") from None
        for board in self.boards:
            try:
                self.start_squares(board)
            except ValueError as exc:
                raise SettingError("starts", str(exc)) from None

    @classmethod
    def from_config(cls, study: Mapping, section: Mapping | None = None) -> Study:
        """A study from one ``rules.studies`` entry and the ``rules`` section (settings,
        chunk sizes); the entry's own ``settings`` of a rule override the section's."""
        section = section or {}
        starts = study.get("starts", "corner")
        orders = study.get("orders", "default")
        settings = dict(section.get("settings") or {})
        for rule, own in (study.get("settings") or {}).items():
            settings[rule] = {**(settings.get(rule) or {}), **(own or {})}
        return cls(
            name=study["name"],
            rules=tuple(RuleSpec.from_settings(r, settings) for r in dict.fromkeys(study["rules"])),
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


#: Largest board of the rules stage (one padded byte per square in a run).
MAX_RULES_SQUARES = 100_000_000


@dataclass(frozen=True)
class RulesSettings:
    """The rules stage's settings (the workflow's ``rules`` section): its studies, each
    built as :meth:`Study.from_config` builds it. Every constraint of the section is
    checked here or in the objects it builds; problems are keyed within the section
    (``studies[1].starts[0]``, ``settings.pohl.order``)."""

    studies: tuple[Study, ...]

    @classmethod
    def from_config(cls, section: Mapping) -> RulesSettings:
        found = Problems()
        for rule, settings in (section.get("settings") or {}).items():
            if isinstance(settings, Mapping) and "order" in settings:
                with found.under(f"settings.{rule}.order"):
                    order_setting(settings["order"])
                if found:
                    continue
            with found.under(f"settings.{rule}"):
                RuleSpec.from_settings(rule, {rule: settings})
        if found:
            found.raise_any()  # every study would repeat them
        studies, names = [], set()
        for i, entry in enumerate(section.get("studies") or []):
            if entry["name"] in names:
                found.add(f"studies[{i}].name", f"{entry['name']!r}: another study has this name")
            names.add(entry["name"])
            with found.under(f"studies[{i}]"):
                studies.append(_study(entry, section))
        found.raise_any()
        return cls(tuple(studies))

    def by_name(self) -> dict[str, Study]:
        return {s.name: s for s in self.studies}


def _study(entry: Mapping, section: Mapping) -> Study:
    """One study entry: its boards, starts, orders and rules' orders checked as values
    first (each problem named), then the study built (its own constraints)."""
    found = Problems()
    boards = []
    with found.under("boards"):
        boards = boards_setting(entry["boards"], max_squares=MAX_RULES_SQUARES)
    seen: dict = {}
    for i, rule in enumerate(entry["rules"]):
        with found.under(f"rules[{i}]"):
            given_once(seen, rule, f"rules[{i}]", repr(rule))
    if isinstance(entry.get("starts"), list):
        with found.under("starts"):
            squares_setting(entry["starts"], boards)
    if isinstance(entry.get("orders"), list):
        with found.under("orders"):
            orders_setting(entry["orders"])
    for rule, own in (entry.get("settings") or {}).items():
        if "order" in own:
            with found.under(f"settings.{rule}.order"):
                order_setting(own["order"])
    found.raise_any()  # the study cannot be built from values already named
    return Study.from_config(entry, section)


# --- running a chunk --------------------------------------------------------------
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


def _check_fits(board: Board, rule: str, starts, orders, trials, workers) -> None:
    """Refuse, in one line, a :func:`run` whose :func:`run_bytes` do not fit in memory,
    before any list of starts is made (arguments as :func:`run` takes them; values it
    would refuse are left to its own checks)."""
    from knight.runtime.memory import check_fits

    if rule not in RULES or isinstance(trials, bool) or not isinstance(trials, int) or not isinstance(workers, int):
        return
    n_starts = board.size if starts == "all" else 1 if starts == "corner" else len(starts)
    n_orders = 0 if orders == "default" else N_ORDERS if orders == "all" else len(orders)
    trials = max(trials, 1) if rule in RANDOM_RULES else 1  # the other rules run once a start
    need = run_bytes(board, rule, n_starts, trials, orders=n_orders, workers=max(workers, 1))
    check_fits(f"rules run of {rule} on {board.name} ({n_starts * trials * max(n_orders, 1):,} runs)", need)


def n_tasks(study: Study, rule: str, k: int) -> int:
    """Dask tasks of one chunk (for progress lines)."""
    chunk = study.chunks(rule)[k]
    if chunk.kind == "tree":
        return len(chunk_tasks(chunk.sweep, chunk.sweep_chunk))
    return len(walk_tasks(study, chunk))


#: Estimated bytes of a row of the rules stage's runs kept in memory (Arrow tables and the
#: frame made of them), of a start square's lists, and of a square of the board beyond
#: the kernel's board storage; upper bounds of a run's peaks (tests/faults/test_cost.py checks them).
RULES_ROW_BYTES, START_BYTES, RULES_SQUARE_BYTES = 48, 32, 1


def run_bytes(board: Board, rule: str, starts: int, runs_per_start: int, *, orders: int = 0, workers: int = 1) -> int:
    """Estimated peak bytes of :func:`run` of ``rule`` on ``board`` from ``starts`` starts,
    ``runs_per_start`` rows each (trials), with ``workers`` threads: the rows, the start
    lists, and per worker two runs' board storage (:func:`knight.engine.walk.board_bytes`);
    over ``orders`` tie orders (the tie-tree engine), the sweep's estimate
    (:func:`knight.sweep.spec.sweep_bytes`).

    >>> run_bytes(Board(8, 8), "roth", 64, 1)
    5760
    >>> run_bytes(Board(40000, 40000), "fixed", 1, 1) // 2**30
    5
    """
    if orders:
        return sweep_bytes(board, starts, orders, workers=workers)
    from knight.engine.walk import board_bytes

    rows = starts * runs_per_start
    storage = workers * board_bytes(board, rule_code(rule), runs=2)
    return RULES_ROW_BYTES * rows + START_BYTES * starts + RULES_SQUARE_BYTES * board.size + storage


def run(
    board,
    rule: str,
    starts="corner",
    *,
    order: str = DEFAULT_ORDER,
    orders="default",
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    retries: int = DEFAULT_RETRIES,
    workers: int = 1,
    progress: bool = True,
):
    """A tie-break rule on a board: one run per (start, trial), or per (start, order).

    Parameters
    ----------
    board : int, str or Board
        ``8``, ``"6x8"`` or a :class:`~knight.Board`, both sides at least 3.
    rule : str
        The tie-break rule: ``fixed``, ``pohl``, ``roth``, ``corner``, ``random``,
        ``random-order``, ``squirrel-cull``, ``pohl-random`` or ``roth-random``
        (:doc:`/conventions`).
    starts : str or Sequence of tuple of int
        ``"corner"`` (1, 1), ``"all"`` or 1-based ``(row, col)`` pairs (run once each,
        in square order).
    order : str
        The tie order that breaks what the rule's key leaves tied (fixed, pohl, roth,
        corner), highest priority first.
    orders : str or Sequence of str
        ``"default"`` (``order`` alone), ``"all"`` or order strings: every one from every
        start, by the tie-tree engine.
    trials : int
        Runs per start of the random rules.
    seed : int
        Seed of the random rules' generator.
    retries : int
        Attempts random-order makes at most per run.
    workers : int
        Dask worker threads; 1 runs in this thread, without Dask.
    progress : bool
        Draw a progress bar when stderr is a terminal.

    Returns
    -------
    polars.DataFrame
        The rules stage's runs, columns ``rule, rows, cols, start, order, trial, attempts,
        visited, end, complete, closed``: ``start`` and ``end`` are square indices
        ``row * cols + col``, ``order`` the tie order's rank (null for random and
        squirrel-cull), ``attempts`` random-order's attempts.

    Raises
    ------
    ValueError
        A bad argument, in one line naming it (also a run too large for this machine's memory).

    See Also
    --------
    knight.rules.tables : Aggregates of the runs.
    knight.tour : One run, as a :class:`~knight.Tour`.

    Notes
    -----
    The defaults are the command line's (``knight rules``).

    Examples
    --------
    >>> run(8, "pohl").select("rule", "start", "visited", "complete").rows()
    [('pohl', 0, 64, True)]
    """
    import polars as pl

    from knight.core.checks import board_arg, int_arg, square_arg
    from knight.runtime.progress import Progress

    board = board_arg(board)
    if not isinstance(starts, str):
        starts = tuple(sorted({board.human(square_arg(board, s, name="starts")) for s in starts}))
    if not isinstance(orders, str):
        orders = tuple(sorted({str(o).strip() for o in orders}))
    _check_fits(board, rule, starts, orders, trials, workers)
    try:
        spec = RuleSpec(rule, order=str(order).strip(), seed=seed, trials=trials, retries=retries)
        study = Study("api", (spec,), (board,), starts=starts, orders=orders)
    except SettingError as exc:
        raise exc.renamed({"boards": "board", "rules": "rule"}) from None
    workers = int_arg("workers", workers, 1)
    chunks = range(len(study.chunks(rule)))
    with (
        pool(workers) as client,
        Progress(
            sum(n_tasks(study, rule, k) for k in chunks),
            f"rules {rule} {board.name}",
            enabled=None if progress else False,
        ) as bar,
    ):
        tables = [run_chunk(study, rule, k, client=client, progress=bar).table for k in chunks]
    return pl.from_arrow(pa.concat_tables(tables))
