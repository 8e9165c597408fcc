"""Arguments of the public functions, checked before any work: each bad value raises a
one-line ``ValueError`` that names the argument and the value.

Boards are ``8`` (8 x 8), ``"6x8"`` (6 rows, 8 columns) or a :class:`Board`; squares
are 1-based ``(row, col)`` pairs or ``"R,C"`` strings, as on the command line
(docs/conventions.md). The parsing itself is :mod:`knight.core.board`'s.
"""

from __future__ import annotations

import numbers

from knight.core.board import MIN_SIDE, Board, parse_board, parse_square


class SettingError(ValueError):
    """A bad value of one setting of a spec object (a study, a rule's settings): ``key``
    names the setting as the object knows it (``boards``, ``starts``, ``seed``, ...),
    ``message`` gives the value and what is wrong. The config layer prefixes the config
    key, the command line its flag, the Python API its argument; the rule itself is
    written once, in the object that needs it."""

    def __init__(self, key: str, message: str):
        super().__init__(named(key, message))
        self.key, self.message = key, message

    def renamed(self, names: dict[str, str]) -> ValueError:
        """The same error under the caller's name of the setting (``names[key]``, e.g. the
        argument ``board`` for a study's ``boards``, or a command line flag)."""
        return ValueError(named(names.get(self.key, self.key), self.message))


def named(name: str, message: str) -> str:
    """``message`` led by the argument's ``name`` (unchanged when it already is)."""
    return message if message.startswith(f"{name} ") else f"{name}: {message}"


def board_arg(value, *, name: str = "board", min_side: int = MIN_SIDE) -> Board:
    """A :class:`Board` from ``8``, ``"6x8"`` or a Board, both sides at least ``min_side``
    (by default :data:`knight.core.board.MIN_SIDE`, the limit of every knight stage)."""
    if isinstance(value, Board):
        board = value
    else:
        try:
            board = parse_board(value)
        except ValueError as exc:
            raise ValueError(named(name, str(exc))) from None
    if min(board.rows, board.cols) < min_side:
        raise ValueError(f"{name} {board.name}: both sides must be at least {min_side}")
    return board


def square_arg(board: Board, value, *, name: str = "start") -> int:
    """Square index of a 1-based ``(row, col)`` pair or ``"R,C"`` string on ``board``."""
    try:
        return parse_square(board, value)
    except ValueError as exc:
        raise ValueError(named(name, str(exc))) from None


def int_arg(name: str, value, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper bound when ``high`` is None)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {span}, got {value}")
    return value


def choice_arg(name: str, value, choices) -> str:
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} {value!r} is not one of {', '.join(choices)}")
    return value
