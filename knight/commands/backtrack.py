"""``knight backtrack``: exact tour search by backtracking (seeds 001 and 003).

knight backtrack BOARD --start R,C [--closed] [--prune none|dead-ends|pairs]
                 [--ordering warnsdorff|fixed] [--order 12345678] [--limit NODES] [--json]
"""

from __future__ import annotations

import argparse
import json

HELP = "exact tour search by backtracking"


def register(subparsers) -> None:
    from knight.exact.backtrack import ORDERINGS, PRUNE_LEVELS

    p = subparsers.add_parser(
        "backtrack",
        help=HELP,
        description="Search a knight's tour from one start by iterative backtracking "
        "(numba), with Warnsdorff move ordering and dead-end pruning. Gives up cleanly "
        "after --limit moves.",
    )
    p.add_argument("board", metavar="BOARD", help="N (N x N) or RxC, e.g. 8 or 3x7")
    p.add_argument("--start", required=True, metavar="R,C", help="1-based start square")
    p.add_argument("--closed", action="store_true", help="the tour must end a knight move from the start")
    p.add_argument(
        "--prune",
        choices=PRUNE_LEVELS,
        default="pairs",
        help="refuse moves that strand one square (dead-ends) or also a pair (pairs, default)",
    )
    p.add_argument(
        "--ordering",
        choices=ORDERINGS,
        default="warnsdorff",
        help="least onward degree first, ties by --order (warnsdorff, default) or first "
        "to the square farthest from the start (warnsdorff-far); or --order alone (fixed)",
    )
    p.add_argument(
        "--order", default="12345678", metavar="ORDER", help="move priority as a tie order string (default 12345678)"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=10_000_000,
        metavar="NODES",
        help="give up after this many moves (default 10,000,000)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: found (true/false/null = gave up), path, nodes, backtracks, seconds",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from knight.commands import knight_board
    from knight.core.board import format_grid, parse_square, step_numbers
    from knight.exact.backtrack import backtrack

    board = knight_board(args.board)
    start = parse_square(board, args.start)
    res = backtrack(
        board, start, closed=args.closed, prune=args.prune, ordering=args.ordering, order=args.order, limit=args.limit
    )
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    kind = "closed tour" if args.closed else "tour"
    where = f"{board.name} from {board.human(start)}"
    if res.found is None:
        print(
            f"gave up: no {kind} of {where} decided within {res.nodes:,} nodes "
            f"({res.backtracks:,} backtracks, {res.seconds:.3f} s); raise --limit"
        )
    elif not res.found:
        why = {
            "colour rule": "start is on the minority colour of an odd board",
            "odd board": "an odd board has no closed tour",
        }.get(res.reason, "search exhausted")
        print(f"no {kind} of {where}: {why} ({res.nodes:,} nodes, {res.backtracks:,} backtracks, {res.seconds:.3f} s)")
    else:
        print(f"{kind} of {where}: {res.nodes:,} nodes, {res.backtracks:,} backtracks, {res.seconds:.3f} s")
        print(format_grid(step_numbers(board, res.path)))
    return 0
