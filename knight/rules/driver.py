"""The rules stage's entry point: :func:`run`, a rule on a board, refused before any work
when it cannot fit in memory (:func:`run_bytes`)."""

from __future__ import annotations

import pyarrow as pa

from knight.core.board import Board
from knight.core.checks import (
    SettingError,
)
from knight.core.orders import N_ORDERS
from knight.engine.tiebreak import (
    DEFAULT_ORDER,
    DEFAULT_RETRIES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    RANDOM_RULES,
    RULES,
    rule_code,
)
from knight.rules.chunks import n_tasks, run_chunk
from knight.rules.study import RuleSpec, Study
from knight.runtime.tasks import pool
from knight.sweep.spec import sweep_bytes


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
