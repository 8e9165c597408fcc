"""The exact solvers' tours as :class:`~knight.core.tour.Tour` values: ``knight.exact.backtrack``
and ``knight.exact.construct``.

Boards are ``8``, ``"6x8"`` or a :class:`~knight.Board`; squares 1-based ``(row, col)``
or ``"R,C"``. Every tour returned has been checked (:func:`knight.exact.check.tour_problem`).
"""

from __future__ import annotations

import numpy as np

from knight.core.checks import board_arg, choice_arg, int_arg, named, square_arg
from knight.core.orders import parse_order
from knight.core.tour import Tour
from knight.exact.backtrack import ORDERINGS, PRUNE_LEVELS
from knight.exact.backtrack import backtrack as search
from knight.exact.check import tour_problem
from knight.exact.construct import construct as closed_path


class SearchLimit(RuntimeError):
    """A backtracking search reached its node limit before finding a tour or proving none."""


def _checked(board, start, path, *, closed, order, solver) -> Tour:
    problem = tour_problem(board.rows, board.cols, path, closed=closed)
    if problem:  # a bug, never expected: say so rather than return a wrong tour
        raise RuntimeError(f"{solver} gave a wrong tour of {board.name}: {problem}")
    return Tour(board, start, order, path, None, rule=None, solver=solver)


def backtrack(
    board,
    start=(1, 1),
    *,
    closed: bool = False,
    prune: str = "pairs",
    ordering: str = "warnsdorff",
    order: str = "12345678",
    limit: int = 10_000_000,
) -> Tour | None:
    """A knight's tour found by backtracking, or None when there is none.

    Parameters
    ----------
    board : int, str or Board
        ``8``, ``"6x8"`` or a :class:`~knight.Board`, both sides at least 3.
    start : tuple of int or str
        The first square, 1-based ``(row, col)`` or ``"R,C"``.
    closed : bool
        The tour must close: its end one knight move from the start.
    prune : str
        ``"none"``, ``"dead-ends"`` (refuse a move that leaves a square with an entrance
        but no exit) or ``"pairs"`` (also one that cuts off a pair of such squares):
        :data:`PRUNE_LEVELS`.
    ordering : str
        ``"warnsdorff"`` tries moves by least onward degree, ties by ``order``;
        ``"warnsdorff-far"`` breaks degree ties towards the square farthest from the start;
        ``"fixed"`` tries moves in ``order`` alone.
    order : str
        A tie order, a permutation of the moves ``1``..``8``, highest priority first.
    limit : int
        Search nodes (moves tried) at most.

    Returns
    -------
    Tour or None
        The tour (checked, ``solver="backtrack"``), or None when the search proves there
        is none.

    Raises
    ------
    SearchLimit
        ``limit`` nodes passed without an answer.
    ValueError
        A bad argument, in one line naming it.

    See Also
    --------
    construct : A closed tour of a large even board, without search.
    has_closed_tour : Whether a closed tour exists at all.

    Notes
    -----
    The search's counters (nodes, backtracks) are on :doc:`/exact`.

    Examples
    --------
    >>> t = backtrack(5, (1, 1))
    >>> t.complete, t.solver
    (True, 'backtrack')
    >>> backtrack(5, (1, 2)) is None  # an odd board's tour starts on the majority colour
    True
    """
    board = board_arg(board)
    square = square_arg(board, start)
    choice_arg("prune", prune, PRUNE_LEVELS)
    choice_arg("ordering", ordering, ORDERINGS)
    order = str(order).strip()
    try:
        parse_order(order)
    except ValueError as exc:
        raise ValueError(named("order", str(exc))) from None
    limit = int_arg("limit", limit, 1)
    res = search(board, square, closed=bool(closed), prune=prune, ordering=ordering, order=order, limit=limit)
    if res.found is None:
        raise SearchLimit(
            f"no {'closed ' if closed else ''}tour of {board.name} from {board.human(square)} "
            f"decided within {res.nodes:,} nodes: raise limit"
        )
    if not res.found:
        return None
    return _checked(board, square, res.path, closed=bool(closed), order=order, solver="backtrack")


def construct(board, start=(1, 1), *, method: str = "auto") -> Tour:
    """A closed knight's tour by divide and conquer, in time linear in the board's squares.

    Parameters
    ----------
    board : int, str or Board
        ``8``, ``"6x8"`` or a :class:`~knight.Board`: an even board, both sides at least 6.
    start : tuple of int or str
        The square the tour is walked from, 1-based ``(row, col)`` or ``"R,C"``.
    method : str
        ``"seed"`` (quarters of a seed tour, ``|rows - cols| <= 2``), ``"grid"`` (blocks of
        6, 8 and 10, any even board) or ``"auto"`` (seed when it applies).

    Returns
    -------
    Tour
        The closed tour (checked, ``solver="construct"``), starting at ``start``.

    Raises
    ------
    ConstructError
        A board the method cannot build, saying why (a ``ValueError``).
    ValueError
        A bad argument, in one line naming it.

    See Also
    --------
    backtrack, has_closed_tour

    Examples
    --------
    >>> t = construct(8)
    >>> t.closed, t.squares[0], t.visited
    (True, (1, 1), 64)
    """
    board = board_arg(board)
    square = square_arg(board, start)
    path = closed_path(board, method)
    at = int(np.flatnonzero(path == square)[0])
    return _checked(board, square, np.roll(path, -at), closed=True, order=None, solver="construct")
