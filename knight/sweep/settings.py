"""The sweep stage's settings (the workflow's ``sweep`` section): which boards, starts and
tie orders, how the work is cut, which engine. Every constraint of the section is
checked here, once; :class:`~knight.core.checks.SettingError` names the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from knight.core.board import Board
from knight.core.checks import Problems, SettingError, boards_setting, int_arg, orders_setting, squares_setting
from knight.engine.rows import DEFAULT_ENGINE, check_engine
from knight.sweep.census_check import CHECK_LARGEST, CHECK_SAMPLES, CHECK_SEED, CHECK_SMALLEST, checked_boards
from knight.sweep.spec import DEFAULT_CHUNK_RUNS, SweepSpec

#: Largest board of the sweep stage (every start x every order): 65,536 squares is
#: 2.6e9 runs, about 660 jobs of the default size.
MAX_SWEEP_SQUARES = 65_536


@dataclass(frozen=True)
class SweepSettings:
    """The sweep of every board of ``boards`` from ``starts`` (``"all"`` or 1-based
    pairs) under ``orders`` (``"all"`` or order strings), ``chunk_runs`` runs a job and
    file, by ``engine``.

    >>> s = SweepSettings.from_config({"boards": [5, "3x7"], "orders": ["12345678"]})
    >>> [b.name for b in s.boards], s.spec(s.boards[1]).runs
    (['5x5', '3x7'], 21)
    >>> SweepSettings.from_config({"boards": [2], "starts": [[6, 1]]})
    Traceback (most recent call last):
    knight.core.checks.SettingError: boards[0]: 2: a board needs both sides at least 3
    """

    boards: tuple[Board, ...]
    starts: str | tuple[tuple[int, int], ...] = "all"
    orders: str | tuple[str, ...] = "all"
    chunk_runs: int = DEFAULT_CHUNK_RUNS
    engine: str = DEFAULT_ENGINE

    @classmethod
    def from_config(cls, section: Mapping) -> SweepSettings:
        found = Problems()
        boards: list[Board] = []
        with found.under("boards"):
            boards = boards_setting(section.get("boards") or [], max_squares=MAX_SWEEP_SQUARES)
        starts = section.get("starts", "all")
        with found.under("starts"):
            if isinstance(starts, str):
                if starts != "all":
                    raise SettingError("", f'{starts!r}: must be "all" or a list of [row, col] pairs')
            else:
                starts = squares_setting(starts, boards)
        orders = section.get("orders", "all")
        with found.under("orders"):
            orders = orders_setting(orders)
        chunk_runs = section.get("chunk_runs", DEFAULT_CHUNK_RUNS)
        if isinstance(chunk_runs, bool) or not isinstance(chunk_runs, int) or chunk_runs < 1:
            found.add("chunk_runs", f"{chunk_runs!r}: must be an integer of at least 1")
        engine = section.get("engine", DEFAULT_ENGINE)
        with found.under():
            check_engine(engine)
        found.raise_any()
        return cls(tuple(boards), starts, orders, int(chunk_runs), engine)

    def spec(self, board: Board) -> SweepSpec:
        """The sweep of one board (listed or not) under these settings."""
        return SweepSpec.from_config(board, self.params())

    def params(self) -> dict:
        """Plain values that decide a sweep job's rows, as :meth:`SweepSpec.from_config`
        reads them (a job's Snakemake params): starts, orders, chunk_runs (which starts a
        chunk holds) and engine (which code computes them)."""
        starts = self.starts if isinstance(self.starts, str) else [list(p) for p in self.starts]
        orders = self.orders if isinstance(self.orders, str) else list(self.orders)
        return {"starts": starts, "orders": orders, "chunk_runs": self.chunk_runs, "engine": self.engine}


@dataclass(frozen=True)
class CensusSettings:
    """The census's check of its stored runs (the workflow's ``census`` section): rows
    drawn per checked board, the draw's seed, and the largest N of the N x N boards
    checked, from :data:`~knight.sweep.census_check.CHECK_SMALLEST` on.

    >>> CensusSettings.from_config({"check_largest": 6}).checked([Board(5, 5), Board(7, 7), Board(3, 7)])
    [Board(rows=5, cols=5)]
    >>> CensusSettings.from_config({"check_samples": 0})
    Traceback (most recent call last):
    knight.core.checks.SettingError: check_samples must be at least 1, got 0
    """

    check_samples: int = CHECK_SAMPLES
    check_seed: int = CHECK_SEED
    check_largest: int = CHECK_LARGEST

    @classmethod
    def from_config(cls, section: Mapping) -> CensusSettings:
        found = Problems()
        values = {}
        for name, low in (("check_samples", 1), ("check_seed", 0), ("check_largest", CHECK_SMALLEST)):
            try:
                values[name] = int_arg(name, section.get(name, getattr(cls, name)), low)
            except ValueError as exc:
                found.add(name, str(exc))
        found.raise_any()
        return cls(**values)

    def checked(self, boards) -> list[Board]:
        """The boards of ``boards`` the check recomputes samples of."""
        return checked_boards(list(boards), self.check_largest)
