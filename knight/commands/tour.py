"""``knight tour BOARD --start R,C --order ORDER``: one Warnsdorff run, printed and drawn.

Prints the numbered board as the thesis's ``problemknight01_1`` does (1 on the start,
rows*cols on the last square of a complete tour, 0 on unvisited squares, columns
right-aligned), then board size, start and end squares (1-based ``row,col``),
unvisited squares and whether the path is closed (CONVENTIONS.md: a complete tour
whose end is one knight move from the start) or open.
"""

from __future__ import annotations

import argparse
import json
import re

import numpy as np

from knight.board import Board, parse_board

_SQUARE_RE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def parse_square(board: Board, text: str) -> int:
    """Square index of a 1-based ``"R,C"`` on ``board``."""
    m = _SQUARE_RE.match(str(text))
    if not m:
        raise ValueError(f"start {text!r} is not R,C (1-based row and column, e.g. 1,1)")
    return board.from_human(int(m.group(1)), int(m.group(2)))


def format_numbering(grid: np.ndarray) -> str:
    """Rows of step numbers, each right-aligned to the widest (rows*cols) plus one space apart."""
    width = len(str(grid.size))
    return "\n".join(" ".join(f"{int(v):>{width}d}" for v in row) for row in grid)


def summary(run) -> str:
    """The thesis's closing lines: board size, start, end, unvisited, open/closed."""
    b = run.board
    (sr, sc), (er, ec) = b.human(run.start), b.human(run.end)
    return "\n".join([
        f"board size = {b.rows}x{b.cols}",
        f"start square {sr},{sc}",
        f"end square {er},{ec}",
        f"unvisited squares = {b.size - run.visited}",
        "path is closed." if run.closed else "path is open.",
    ])


def as_json(run) -> dict:
    """The run as plain JSON types; squares are 1-based ``[row, col]``."""
    b = run.board
    return {
        "rows": b.rows,
        "cols": b.cols,
        "start": list(b.human(run.start)),
        "order": run.order,
        "path": [list(b.human(int(s))) for s in run.path],
        "visited": run.visited,
        "end": list(b.human(run.end)),
        "complete": run.complete,
        "closed": run.closed,
    }


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tour",
        help="one Warnsdorff run: print the numbered board, optionally draw it",
        description="Run Warnsdorff's rule on BOARD from START under the tie ORDER; print the "
        "numbered board (0 = unvisited) and the thesis's summary lines, or --json.",
    )
    p.add_argument("board", metavar="BOARD", help="8 for 8x8, or RxC such as 6x8")
    p.add_argument("--start", metavar="R,C", default="1,1", help="1-based row,col of the start (default 1,1)")
    p.add_argument("--order", metavar="ORDER", default="12345678",
                   help="tie order, highest priority first (default 12345678)")
    p.add_argument("--svg", metavar="FILE", help="draw the tour to an SVG file")
    p.add_argument("--png", metavar="FILE", help="draw the tour to a PNG file")
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution in dots per inch (default 150)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the board")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from knight.orders import parse_order
    from knight.warnsdorff import run as warnsdorff_run

    board = parse_board(args.board)
    start = parse_square(board, args.start)
    parse_order(args.order)  # clear error before any work
    if args.dpi < 1:
        raise ValueError(f"--dpi must be positive, got {args.dpi}")
    result = warnsdorff_run(board, start, args.order.strip())
    if args.json:
        print(json.dumps(as_json(result)))
    else:
        print(format_numbering(result.numbering()))
        print(summary(result))
    if args.svg or args.png:
        from knight.draw import save, tour_figure

        fig = tour_figure(result)
        for path in (args.svg, args.png):
            if path:
                save(fig, path, dpi=args.dpi)
    return 0
