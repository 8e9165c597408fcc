"""The exact stage's settings (the workflow's ``exact`` section): the backtracking runs
and the constructed closed tours. The JSON schema gives the types; what it cannot say
(boards parse, an order is a permutation, a closed tour can be built) is checked here,
once; :class:`~knight.core.checks.SettingError` names the key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from knight.core.board import Board
from knight.core.checks import Problems, board_setting, given_once, order_setting
from knight.exact.construct import ConstructError, choose_method


@dataclass(frozen=True)
class ExactSettings:
    """``backtrack``: (board, closed) runs keyed ``RxC-open`` / ``RxC-closed``, with the
    section's pruning levels, orderings, order, node limit and whether the sweep's per-start
    table joins them; ``construct``: the boards built by each method and the tours written.

    >>> ExactSettings.from_config({"construct": {"boards": [7]}})
    Traceback (most recent call last):
    knight.core.checks.SettingError: construct.boards[0]: 7: 7x7 has no closed knight's tour: ...
    """

    section: Mapping
    runs: dict[str, tuple[Board, bool]]
    construct_boards: tuple[Board, ...]
    tours: tuple[Board, ...]

    @classmethod
    def from_config(cls, section: Mapping) -> ExactSettings:
        found = Problems()
        backtrack = section.get("backtrack", {})
        runs, seen = {}, {}
        for i, item in enumerate(backtrack.get("boards", [])):
            with found.under(f"backtrack.boards[{i}].board"):
                board = board_setting(item["board"])
                closed = bool(item.get("closed", False))
                run = f"{board.name}-{'closed' if closed else 'open'}"
                given_once(seen, run, f"backtrack.boards[{i}]", f"{item['board']!r} ({run})")
                runs[run] = (board, closed)
        if "order" in backtrack:
            with found.under("backtrack.order"):
                order_setting(backtrack["order"])
        construct = section.get("construct", {})
        built = {}
        for name in ("boards", "tours"):
            built[name], seen = [], {}
            for i, value in enumerate(construct.get(name, [])):
                with found.under(f"construct.{name}[{i}]"):
                    board = board_setting(value)
                    given_once(seen, board, f"construct.{name}[{i}]", f"{value!r} (board {board.name})")
                    try:
                        choose_method(board)
                    except ConstructError as exc:
                        raise ValueError(f"{value!r}: {exc}") from None
                    built[name].append(board)
        found.raise_any()
        unique = lambda boards: tuple(dict.fromkeys(boards))  # noqa: E731
        return cls(section, runs, unique(built["boards"]), unique(built["tours"]))
