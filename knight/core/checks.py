"""Arguments of the public functions, checked before any work: each bad value raises a
one-line ``ValueError`` that names the argument and the value.

Boards are ``8`` (8 x 8), ``"6x8"`` (6 rows, 8 columns) or a :class:`Board`; squares
are 1-based ``(row, col)`` pairs or ``"R,C"`` strings, as on the command line
(docs/conventions.md). The parsing itself is :mod:`knight.core.board`'s.
"""

from __future__ import annotations

import contextlib
import numbers

from knight.core.board import MIN_SIDE, Board, parse_board, parse_boards, parse_square
from knight.core.orders import parse_order


class SettingError(ValueError):
    """Bad values of a spec's settings (a sweep, a study, a rule's settings, a config
    section): each problem is a ``key`` naming the setting as the spec knows it
    (``boards[2]``, ``starts``, ``seed``, ...) and a ``message`` giving the value and
    what is wrong. The spec that needs a rule states it once; the config layer prefixes
    the section (``config key sweep.boards[2]: ...``), the command line its flag, the
    Python API its argument (:meth:`renamed`). One error may carry several problems, so
    that a config is reported whole."""

    def __init__(self, key: str, message: str, *, more: tuple[tuple[str, str], ...] = ()):
        self.problems: tuple[tuple[str, str], ...] = ((key, message), *more)
        super().__init__("; ".join(named(k, m) if k else m for k, m in self.problems))
        self.key, self.message = key, message

    @classmethod
    def of(cls, problems) -> SettingError:
        """One error carrying every ``(key, message)`` of ``problems`` (at least one)."""
        first, *more = problems
        return cls(*first, more=tuple(more))

    def within(self, prefix: str) -> SettingError:
        """The same problems with their keys under ``prefix``: ``boards[2]`` within
        ``studies[0]`` is ``studies[0].boards[2]``; a key of ``[i]`` is joined directly."""
        return SettingError.of([(join_key(prefix, k), m) for k, m in self.problems])

    def renamed(self, names: dict[str, str]) -> ValueError:
        """The first problem under the caller's name of the setting (``names[key]``, e.g.
        the argument ``board`` for a study's ``boards``, or a command line flag)."""
        return ValueError(named(names.get(self.key, self.key), self.message))


def join_key(prefix: str, key: str) -> str:
    """``prefix`` and ``key`` as one key path.

    >>> join_key("studies[0]", "boards[2]"), join_key("orders", "[1]"), join_key("", "seed")
    ('studies[0].boards[2]', 'orders[1]', 'seed')
    """
    if not prefix:
        return key
    if not key:
        return prefix
    return f"{prefix}{key}" if key.startswith("[") else f"{prefix}.{key}"


class Problems:
    """Collects the problems of several checks, so that a spec reports them all at once.

    >>> found = Problems()
    >>> with found.under("seed"):
    ...     raise SettingError("", "'x': not an integer")
    >>> found.add("trials", "0: must be at least 1")
    >>> found.raise_any()
    Traceback (most recent call last):
    knight.core.checks.SettingError: seed: 'x': not an integer; trials: 0: must be at least 1
    """

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []

    def add(self, key: str, message: str) -> None:
        self.found.append((key, message))

    @contextlib.contextmanager
    def under(self, key: str = ""):
        """Collect a :class:`SettingError` raised in the block (a ``ValueError`` too, as a
        problem of ``key``) instead of letting it through."""
        try:
            yield
        except SettingError as exc:
            self.found.extend((join_key(key, k), m) for k, m in exc.problems)
        except ValueError as exc:
            self.found.append((key, str(exc)))

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_any(self) -> None:
        """Raise one :class:`SettingError` with every problem collected, if any."""
        if self.found:
            raise SettingError.of(self.found)


def given_once(seen: dict, item, key: str, shown: str) -> None:
    """Note ``item`` (what a list's entry means: a :class:`Board`, a rule's name, a
    search) as given at ``key``; a :class:`SettingError` naming the entry that gave it
    first when one did. An entry given twice would repeat its rows, so a list of boards,
    rules or searches holds each once; ``5`` and ``"5x5"`` are one board because both
    parse to the same :class:`Board`.

    >>> seen = {}
    >>> given_once(seen, Board(5, 5), "[0]", "5")
    >>> given_once(seen, Board(5, 5), "[1]", "'5x5'")
    Traceback (most recent call last):
    knight.core.checks.SettingError: '5x5': given twice (as [0] too): give each once
    """
    first = seen.setdefault(item, key)
    if first != key:
        raise SettingError("", f"{shown}: given twice (as {first} too): give each once")


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


def integer(name: str, value) -> int:
    """``value`` as an int: a Python or numpy integer, never a bool, a float (``2.0``
    neither: a whole float is refused like any other, so a value means one thing) nor a
    string. The one check of an integer the user gives (API arguments, squares, config
    values past the schema, worker counts).

    >>> integer("n", 2), integer("n", 2.0)
    Traceback (most recent call last):
    ValueError: n must be an integer, got 2.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def int_arg(name: str, value, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper bound when ``high`` is None)."""
    value = integer(name, value)
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {span}, got {value}")
    return value


def positive_number(name: str, value) -> float:
    """``value`` as a float above 0 (``inf`` allowed: no limit), never a bool or a string;
    a :class:`SettingError` keyed ``name`` otherwise.

    >>> positive_number("max_cpu_hours", 10), positive_number("max_cpu_hours", float("inf"))
    (10.0, inf)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise SettingError(name, f"{value!r}: must be a number above 0")
    return float(value)


def choice_arg(name: str, value, choices) -> str:
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} {value!r} is not one of {', '.join(choices)}")
    return value


# --- settings of a spec (a config section, a study): problems as SettingError -------------
def board_setting(value, *, max_squares: int | None = None) -> Board:
    """The board ``value`` (``8``, ``"6x8"``), both sides at least
    :data:`knight.core.board.MIN_SIDE` and at most ``max_squares`` squares (a stage's
    limit); :class:`SettingError` naming the value otherwise."""
    try:
        board = parse_board(value)
    except ValueError as exc:
        raise SettingError("", f"{value!r}: {exc}") from None
    if min(board.rows, board.cols) < MIN_SIDE:
        raise SettingError("", f"{value!r}: a board needs both sides at least {MIN_SIDE}")
    if max_squares is not None and board.size > max_squares:
        raise SettingError("", f"{value!r}: {board.size:,} squares is more than this stage's limit of {max_squares:,}")
    return board


def boards_setting(value, *, max_squares: int | None = None) -> list[Board]:
    """The boards of a list (``[5, "6x8"]``: problems keyed ``[i]``) or of a range
    ``{from, to, step}`` of N x N boards (the first bad one named, the range grows)."""
    found = Problems()
    boards: list[Board] = []
    if isinstance(value, dict):
        try:
            ranged = parse_boards(value)
        except ValueError as exc:
            raise SettingError("", f"{value!r}: {exc}") from None
        for board in ranged:
            with found.under(""):
                boards.append(board_setting(board.name, max_squares=max_squares))
            if found:
                break
    else:
        seen: dict = {}
        for i, item in enumerate(value):
            with found.under(f"[{i}]"):
                board = board_setting(item, max_squares=max_squares)
                given_once(seen, board, f"[{i}]", f"{item!r} (board {board.name})")
                boards.append(board)
    found.raise_any()
    return boards


def order_setting(value) -> str:
    """The order string ``value`` (a permutation of ``12345678``), stripped."""
    try:
        parse_order(str(value))
    except ValueError:
        raise SettingError("", f"{value!r}: not a permutation of 12345678") from None
    return str(value).strip()


def orders_setting(value) -> str | tuple[str, ...]:
    """``"all"`` or a non-empty list of order strings (problems keyed ``[i]``), sorted
    without repeats."""
    if isinstance(value, str):
        if value != "all":
            raise SettingError("", f'{value!r}: must be "all" or a list of order strings')
        return value
    if not value:
        raise SettingError("", '[]: give "all" or at least one order')
    found = Problems()
    for i, item in enumerate(value):
        with found.under(f"[{i}]"):
            order_setting(item)
    found.raise_any()
    return tuple(sorted({str(o).strip() for o in value}))


def squares_setting(pairs, boards) -> tuple[tuple[int, int], ...]:
    """1-based ``[row, col]`` pairs that lie on every one of ``boards`` (problems keyed
    ``[i]``, naming the first board a pair is off), sorted without repeats."""
    found = Problems()
    for i, pair in enumerate(pairs):
        for board in boards:
            if not (1 <= pair[0] <= board.rows and 1 <= pair[1] <= board.cols):
                found.add(
                    f"[{i}]",
                    f"{list(pair)!r}: off the {board.name} board (rows 1..{board.rows}, columns 1..{board.cols})",
                )
                break
    found.raise_any()
    return tuple(sorted({(int(r), int(c)) for r, c in pairs}))
