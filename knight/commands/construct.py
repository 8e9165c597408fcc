"""``knight construct``: a closed tour of an even board by divide and conquer (seed 004).

knight construct BOARD [--method auto|seed|grid] [--out FILE] [--grid] [--json]
"""

from __future__ import annotations

import argparse
import json

HELP = "closed tour of an even board by divide and conquer"


def register(subparsers) -> None:
    from knight.exact.construct import METHODS

    p = subparsers.add_parser(
        "construct",
        help=HELP,
        description="Build a closed knight's tour of an m x n board (m, n even, at least 6) "
        "in time linear in the number of squares, by joining structured base tours (seed 004).",
    )
    p.add_argument("board", metavar="BOARD", help="N (N x N) or RxC, e.g. 8 or 10x12")
    p.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help="seed: seed 004's quarters (|rows-cols| <= 2); grid: blocks of 6, 8, 10 "
        "(any even board); auto (default): seed when it applies",
    )
    p.add_argument(
        "--out",
        metavar="FILE.parquet",
        default=None,
        help="write the tour as Parquet: step (1..rows*cols), row, col (1-based)",
    )
    p.add_argument("--grid", action="store_true", help="print the step number of every square")
    p.add_argument("--json", action="store_true", help="print one JSON object: rows, cols, closed, seconds")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import time

    from knight.commands import knight_board, output_path
    from knight.core.board import format_grid, step_numbers
    from knight.exact.check import tour_problem
    from knight.exact.construct import choose_method, construct
    from knight.exact.tour_io import write_tour

    board = knight_board(args.board)
    method = choose_method(board, args.method)  # clear message before any work
    if args.out:
        output_path("--out", args.out, suffix=".parquet")
    t0 = time.perf_counter()
    tour = construct(board, method)
    if args.out:
        try:
            write_tour(tour, board, args.out)
        except OSError as exc:
            raise ValueError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
    seconds = time.perf_counter() - t0
    problem = tour_problem(board.rows, board.cols, tour, closed=True)
    if problem:  # a bug, never expected: say so rather than print a wrong tour
        raise RuntimeError(f"constructed tour of {board.name} is wrong: {problem}")
    if args.grid:
        print(format_grid(step_numbers(board, tour)))
    if args.json:
        print(
            json.dumps({"rows": board.rows, "cols": board.cols, "closed": True, "method": method, "seconds": seconds})
        )
    elif not args.grid:
        where = f" -> {args.out}" if args.out else ""
        print(f"closed tour of {board.name} ({method} method): {board.size:,} squares, {seconds:.3f} s{where}")
    return 0
