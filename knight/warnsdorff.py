"""One Warnsdorff run from one start under any tie-break rule, as a :class:`~knight.core.tour.Tour`.

:func:`tour` is ``knight.tour``: the library's front door to a single run, with the
command line's names and defaults (``knight tour``).
"""

from __future__ import annotations

from knight.core.checks import board_arg, choice_arg, named, square_arg
from knight.core.orders import parse_order
from knight.core.tour import Tour
from knight.engine.tiebreak import DEFAULT_ORDER, DEFAULT_RETRIES, DEFAULT_SEED, RULES, check_setting


def tour(
    board,
    start=(1, 1),
    rule: str = "fixed",
    order: str = DEFAULT_ORDER,
    seed: int = DEFAULT_SEED,
    *,
    trial: int = 0,
    retries: int = DEFAULT_RETRIES,
) -> Tour:
    """Run Warnsdorff's rule once on a board from a start, ties broken by a tie-break rule.

    Parameters
    ----------
    board : int, str or Board
        ``8`` (8 x 8), ``"6x8"`` (6 rows, 8 columns) or a :class:`~knight.Board`.
    start : tuple of int or str
        The first square, 1-based ``(row, col)`` or ``"R,C"``, row 1 at the top.
    rule : str
        The tie-break rule: ``fixed``, ``pohl``, ``roth``, ``corner``, ``random``,
        ``random-order``, ``squirrel-cull``, ``pohl-random`` or ``roth-random``
        (:doc:`/conventions`, "Tie-break rules").
    order : str
        The tie order, a permutation of the moves ``1``..``8``, highest priority first: it
        breaks what the rule leaves tied (fixed, pohl, roth, corner).
    seed : int
        Seed of the random rules' generator.
    trial : int
        Trial number: with ``seed``, it keys one random run's draws.
    retries : int
        Attempts random-order makes at most before it gives up.

    Returns
    -------
    Tour
        The walk, complete or stuck.

    Raises
    ------
    ValueError
        A bad argument, in one line naming it; a board too large for this machine's memory.

    See Also
    --------
    knight.sweep.run : Every start under every tie order.
    knight.rules.run : A tie-break rule over many starts and trials.
    knight.exact.backtrack : A tour found by search, or proof of none.

    Examples
    --------
    >>> t = tour(8)
    >>> t.visited, t.complete, t.closed, t.squares[-1], t.ties
    (64, True, False, (2, 7), 14)
    >>> tour(8, start=(9, 1))
    Traceback (most recent call last):
    ValueError: start: square (9, 1) is off the 8x8 board (rows 1..8, columns 1..8)
    """
    board = board_arg(board)
    square = square_arg(board, start)
    rule = choice_arg("rule", rule, RULES)
    order = str(order).strip()
    try:
        parse_order(order)
    except ValueError as exc:
        raise ValueError(named("order", str(exc))) from None
    seed, trial, retries = (check_setting(k, v) for k, v in (("seed", seed), ("trial", trial), ("retries", retries)))
    from knight.runtime.memory import check_fits

    check_fits(f"tour of {board.name} ({rule})", tour_bytes(board, rule))
    from knight.engine.walk import run

    return run(board, square, rule, order=order, seed=seed, trial=trial, retries=retries)


#: Bytes a square of one tour's run beyond its board storage, at its peak (the
#: path as the kernel writes it, its board squares, the Tour's copy, temporaries).
TOUR_SQUARE_BYTES = 40


def tour_bytes(board, rule: str = "fixed") -> int:
    """Estimated peak bytes of :func:`tour` of ``rule`` on ``board`` (a :class:`Board`):
    the rule kernel's board storage (:func:`knight.engine.walk.board_bytes`) plus
    :data:`TOUR_SQUARE_BYTES` a square for the path.

    >>> from knight.core.board import Board
    >>> tour_bytes(Board(8, 8)), tour_bytes(Board(46000, 46000)) // 2**30
    (2704, 80)
    """
    from knight.engine.tiebreak import rule_code
    from knight.engine.walk import board_bytes

    return board_bytes(board, rule_code(rule)) + TOUR_SQUARE_BYTES * board.size
