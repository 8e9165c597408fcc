"""Tables of the exact stage: backtracking runs per start, their totals, the per-start
answer beside the Warnsdorff sweep, and timed constructions.

Boards: ``rows``, ``cols`` (uint16); squares: ``start`` index ``r*cols + c`` (uint32) and
1-based ``row``, ``col`` (uint16). ``found`` is null when a run reached its node limit.
"""

from __future__ import annotations

import time

import polars as pl

from knight.core.board import Board, parse_board
from knight.exact.backtrack import backtrack
from knight.exact.check import tour_problem
from knight.exact.construct import choose_method, construct

RUNS_SCHEMA = {
    "rows": pl.UInt16,
    "cols": pl.UInt16,
    "closed": pl.Boolean,
    "start": pl.UInt32,
    "row": pl.UInt16,
    "col": pl.UInt16,
    "ordering": pl.String,
    "prune": pl.String,
    "found": pl.Boolean,
    "reason": pl.String,
    "nodes": pl.UInt64,
    "backtracks": pl.UInt64,
    "seconds": pl.Float64,
    "limit": pl.UInt64,
}
KEYS = ["rows", "cols", "closed", "start"]


def backtrack_runs(
    board: Board, *, closed: bool, prunes, orderings, order: str = "12345678", limit: int = 2_000_000, log=None
) -> pl.DataFrame:
    """One row per start x ordering x pruning level; every tour found is checked."""
    rows = []
    for start in range(board.size):
        r, c = board.human(start)
        for ordering in orderings:
            for prune in prunes:
                res = backtrack(board, start, closed=closed, prune=prune, ordering=ordering, order=order, limit=limit)
                if res.found:
                    problem = tour_problem(board.rows, board.cols, res.path, closed=closed)
                    if problem:
                        raise RuntimeError(f"{board.name} from {(r, c)}: wrong tour: {problem}")
                rows.append(
                    (
                        board.rows,
                        board.cols,
                        closed,
                        start,
                        r,
                        c,
                        ordering,
                        prune,
                        res.found,
                        res.reason,
                        res.nodes,
                        res.backtracks,
                        res.seconds,
                        limit,
                    )
                )
        if log:
            print(f"{board.name} {'closed' if closed else 'open'} start {(r, c)} done", file=log, flush=True)
    return pl.DataFrame(rows, schema=RUNS_SCHEMA, orient="row")


def backtrack_summary(runs: pl.DataFrame) -> pl.DataFrame:
    """Totals per board, tour kind, ordering and pruning level over all starts."""
    return (
        runs.group_by(["rows", "cols", "closed", "ordering", "prune"], maintain_order=True)
        .agg(
            starts=pl.len().cast(pl.UInt32),
            found=(pl.col("found") == True).sum().cast(pl.UInt32),  # noqa: E712
            no_tour=(pl.col("found") == False).sum().cast(pl.UInt32),  # noqa: E712
            gave_up=pl.col("found").is_null().sum().cast(pl.UInt32),
            nodes=pl.col("nodes").sum(),
            max_nodes=pl.col("nodes").max(),
            backtracks=pl.col("backtracks").sum(),
            seconds=pl.col("seconds").sum(),
        )
        .sort(["rows", "cols", "closed", "ordering", "prune"])
    )


def start_answers(runs: pl.DataFrame) -> pl.DataFrame:
    """Per start: ``exists`` (true if some run found a tour, false if some run proved there
    is none, null if every run gave up), how it was decided, and the fewest nodes."""
    per = runs.group_by(KEYS + ["row", "col"], maintain_order=True).agg(
        any_found=(pl.col("found") == True).any(),  # noqa: E712
        any_none=(pl.col("found") == False).any(),  # noqa: E712
        reason=pl.col("reason").filter(pl.col("found").is_not_null()).first(),
        min_nodes=pl.col("nodes").filter(pl.col("found").is_not_null()).min(),
    )
    clash = per.filter(pl.col("any_found") & pl.col("any_none"))
    if clash.height:
        raise RuntimeError(f"runs disagree on whether a tour exists:\n{clash}")
    exists = pl.when(pl.col("any_found")).then(True).when(pl.col("any_none")).then(False).otherwise(None)
    return per.with_columns(exists=exists).select(KEYS + ["row", "col", "exists", "reason", "min_nodes"]).sort(KEYS)


def warnsdorff_beside(answers: pl.DataFrame, starts: pl.DataFrame | None) -> pl.DataFrame:
    """Join the sweep's per-start table (``rows, cols, start, orders, complete, closed``).

    Adds ``warnsdorff_orders``, ``warnsdorff_complete``, ``warnsdorff_closed`` (orders run,
    completing, closing) and ``heuristic_succeeds``: some order completes (open tours) or
    closes (closed tours); ``heuristic_misses``: a tour exists but no order gets one.
    All null where the sweep has no row for the start. Raises RuntimeError where the sweep
    completes from a start the search proved has no tour (the two engines disagree).
    """
    if starts is None:
        starts = pl.DataFrame(
            schema={
                "rows": pl.UInt16,
                "cols": pl.UInt16,
                "start": pl.UInt32,
                "orders": pl.UInt32,
                "complete": pl.UInt32,
                "closed": pl.UInt32,
            }
        )
    sw = starts.select(
        pl.col("rows").cast(pl.UInt16),
        pl.col("cols").cast(pl.UInt16),
        pl.col("start").cast(pl.UInt32),
        warnsdorff_orders=pl.col("orders").cast(pl.UInt32),
        warnsdorff_complete=pl.col("complete").cast(pl.UInt32),
        warnsdorff_closed=pl.col("closed").cast(pl.UInt32),
    )
    out = answers.join(sw, on=["rows", "cols", "start"], how="left")
    wins = pl.when(pl.col("closed")).then(pl.col("warnsdorff_closed")).otherwise(pl.col("warnsdorff_complete")) > 0
    out = out.with_columns(heuristic_succeeds=wins).with_columns(
        heuristic_misses=pl.col("exists") & ~pl.col("heuristic_succeeds")
    )
    # Two independent engines: a Warnsdorff tour where the search proved none is a bug.
    clash = out.filter((pl.col("exists") == False) & pl.col("heuristic_succeeds"))  # noqa: E712
    if clash.height:
        raise RuntimeError(f"the sweep has tours where the search proved there are none:\n{clash}")
    return out


CONSTRUCT_SCHEMA = {
    "rows": pl.UInt32,
    "cols": pl.UInt32,
    "method": pl.String,
    "squares": pl.UInt64,
    "closed": pl.Boolean,
    "seconds": pl.Float64,
}


def construct_runs(boards, methods, log=None) -> pl.DataFrame:
    """Build every board by each applicable method; ``closed`` is the independent check,
    ``seconds`` the construction time (numba code loaded beforehand)."""
    construct(Board(6, 6), "seed"), construct(Board(6, 8), "grid")  # load compiled code
    rows = []
    for spec in boards:
        board = spec if isinstance(spec, Board) else parse_board(spec)
        for method in methods:
            if method == "seed" and abs(board.rows - board.cols) > 2:
                continue
            choose_method(board, method)
            t0 = time.perf_counter()
            tour = construct(board, method)
            seconds = time.perf_counter() - t0
            ok = tour_problem(board.rows, board.cols, tour, closed=True) is None
            rows.append((board.rows, board.cols, method, board.size, ok, seconds))
            if log:
                print(f"{board.name} {method}: closed={ok} {seconds:.4f} s", file=log, flush=True)
    return pl.DataFrame(rows, schema=CONSTRUCT_SCHEMA, orient="row")
