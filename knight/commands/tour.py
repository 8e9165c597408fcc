"""``knight tour BOARD [--rule RULE]``: one Warnsdorff run, printed and drawn.

Prints the numbered board as the thesis's ``problemknight01_1`` does (1 on the start,
rows*cols on the last square of a complete tour, 0 on unvisited squares, columns
right-aligned), then board size, start and end squares (1-based ``row,col``),
unvisited squares and whether the path is closed (a complete tour whose end is one
knight move from the start, docs/conventions.md) or open.
"""

from __future__ import annotations

import argparse
import json

HELP = "one Warnsdorff run under any tie-break rule: print the numbered board, optionally draw it"


def summary(board, start, run) -> str:
    """The thesis's closing lines (:meth:`knight.core.tour.Tour.summary`)."""
    return run.summary()


def as_json(board, start, run) -> dict:
    """The run as plain JSON types (:meth:`knight.core.tour.Tour.to_json`)."""
    return run.to_json()


def register(sub: argparse._SubParsersAction) -> None:
    from knight.engine.tiebreak import DEFAULT_ORDER, DEFAULT_RETRIES, DEFAULT_SEED, RULES

    p = sub.add_parser(
        "tour",
        help=HELP,
        description="Run Warnsdorff's rule on BOARD from START, ties broken by RULE (default: the "
        "fixed tie ORDER); print the numbered board (0 = unvisited) and the thesis's summary "
        "lines, or --json.",
    )
    p.add_argument("board", metavar="BOARD", help="8 for 8x8, or RxC such as 6x8")
    p.add_argument("--start", metavar="R,C", default="1,1", help="1-based row,col of the start (default 1,1)")
    p.add_argument("--rule", choices=RULES, default="fixed", help="tie-break rule (default fixed)")
    p.add_argument(
        "--order",
        metavar="ORDER",
        default=DEFAULT_ORDER,
        help=f"tie order, highest priority first (default {DEFAULT_ORDER}); breaks the ties "
        "left by fixed, pohl, roth and corner",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed of the random rules (default {DEFAULT_SEED})")
    p.add_argument("--trial", type=int, default=0, help="trial number of a random rule's run (default 0)")
    p.add_argument(
        "--retries",
        type=int,
        default=DEFAULT_RETRIES,
        help=f"random-order: attempts at most (default {DEFAULT_RETRIES})",
    )
    p.add_argument("--svg", metavar="FILE", help="draw the tour to an SVG file")
    p.add_argument("--png", metavar="FILE", help="draw the tour to a PNG file")
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution in dots per inch (default 150)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the board")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from knight.commands import check_random_args, knight_board, output_path
    from knight.core.board import format_grid, parse_square, step_numbers
    from knight.core.checks import int_arg
    from knight.core.orders import parse_order

    # Every argument and output path is checked before any work.
    board = knight_board(args.board)
    start = parse_square(board, args.start)
    parse_order(args.order)
    check_random_args(args)
    int_arg("--dpi", args.dpi, 1)
    for flag, path in (("--svg", args.svg), ("--png", args.png)):
        if path:
            output_path(flag, path, suffix="." + flag.removeprefix("--"))
    from knight.warnsdorff import tour

    result = tour(board, args.start, args.rule, args.order, args.seed, trial=args.trial, retries=args.retries)
    if args.json:
        print(json.dumps(as_json(board, start, result)))
    else:
        print(format_grid(step_numbers(board, result.path)))
        print(summary(board, start, result))
    if args.svg or args.png:
        from knight.report.figures import save, tour_figure

        fig = tour_figure(result, title=_title(board, start, args.rule, result))
        for path in (args.svg, args.png):
            if path:
                save(fig, path, dpi=args.dpi, sealed=False)  # a picture the user asked for
    return 0


def _title(board, start, rule, run) -> str:
    return run.title()
