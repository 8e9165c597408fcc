"""Benchmark: backtracking search, nodes and time per start under each pruning level.

    python benchmarks/bench_backtrack.py [--board 8x8] [--closed] [--limit NODES]

Prints, per ordering and pruning level: starts found / no tour / gave up, total and
largest node counts, total backtracks, wall seconds, and nodes per second.
"""

from __future__ import annotations

import argparse
import time

from knight.core.board import parse_board
from knight.exact.backtrack import ORDERINGS, PRUNE_LEVELS, backtrack


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="8x8")
    ap.add_argument("--closed", action="store_true")
    ap.add_argument("--limit", type=int, default=2_000_000)
    args = ap.parse_args()
    board = parse_board(args.board)
    backtrack(parse_board(5), 0)  # load compiled code
    kind = "closed" if args.closed else "open"
    print(f"{board.name} {kind} tours from all {board.size} starts, limit {args.limit:,} nodes per run")
    print(
        f"{'ordering':>14} {'prune':>9} {'found':>5} {'none':>4} {'gave':>4} {'nodes':>12} "
        f"{'max nodes':>10} {'backtracks':>12} {'seconds':>8} {'Mnodes/s':>8}"
    )
    for ordering in ORDERINGS:
        for prune in PRUNE_LEVELS:
            t0 = time.perf_counter()
            res = [
                backtrack(board, s, closed=args.closed, prune=prune, ordering=ordering, limit=args.limit)
                for s in range(board.size)
            ]
            sec = time.perf_counter() - t0
            nodes = sum(r.nodes for r in res)
            print(
                f"{ordering:>14} {prune:>9} {sum(r.found is True for r in res):>5} "
                f"{sum(r.found is False for r in res):>4} {sum(r.found is None for r in res):>4} "
                f"{nodes:>12,} {max(r.nodes for r in res):>10,} {sum(r.backtracks for r in res):>12,} "
                f"{sec:8.3f} {nodes / sec / 1e6:8.1f}"
            )


if __name__ == "__main__":
    main()
