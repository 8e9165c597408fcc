"""A study of the tie-break rules: its rules with their settings, its boards and starts,
and its plan of chunks.

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

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from knight.core.board import Board, parse_boards, parse_starts
from knight.core.checks import (
    SettingError,
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
    check_setting,
    rule_code,
)
from knight.sweep.spec import DEFAULT_CHUNK_RUNS, SweepSpec

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
