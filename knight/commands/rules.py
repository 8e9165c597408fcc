"""``knight rules BOARD --rule RULE``: one board of the rules stage, from the command line.

Runs the same code as the workflow's rules stage (:mod:`knight.rules.chunks`: the same
chunks and Dask tasks) for one rule on one board, and prints its completion row
(:func:`knight.rules.tables.completion`), or one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import json

from knight.commands import board_and_workers, check_random_args

HELP = "run a tie-break rule on one board from the corner or every start; print its completion row"


def register(sub: argparse._SubParsersAction) -> None:
    from knight.engine.tiebreak import DEFAULT_ORDER, DEFAULT_RETRIES, DEFAULT_SEED, DEFAULT_TRIALS, RULES

    p = sub.add_parser(
        "rules",
        help=HELP,
        description="Run RULE on BOARD from (1,1) or every start (random rules: TRIALS runs a start), "
        "through the rules stage's code, and print runs, complete and closed tours, rates (with a "
        "95% interval for random rules) and seconds.",
    )
    p.add_argument("board", metavar="BOARD", help="8 for 8x8, or RxC such as 6x8")
    p.add_argument("--rule", choices=RULES, default="fixed", help="tie-break rule (default fixed)")
    p.add_argument(
        "--order",
        metavar="ORDER",
        default=DEFAULT_ORDER,
        help=f"tie order breaking the ties left by fixed, pohl, roth, corner (default {DEFAULT_ORDER})",
    )
    p.add_argument(
        "--orders",
        choices=("default", "all"),
        default="default",
        help="all: every residual tie order (tie-tree engine; fixed, pohl, roth, corner)",
    )
    p.add_argument("--starts", choices=("corner", "all"), default="corner", help="(1,1) only (default) or every square")
    p.add_argument(
        "--trials",
        type=int,
        default=DEFAULT_TRIALS,
        help=f"runs per start of the random rules (default {DEFAULT_TRIALS})",
    )
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed of the random rules (default {DEFAULT_SEED})")
    p.add_argument(
        "--retries",
        type=int,
        default=DEFAULT_RETRIES,
        help=f"random-order: attempts per run at most (default {DEFAULT_RETRIES})",
    )
    p.add_argument("--workers", type=int, default=None, help="Dask worker threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    import time

    from knight.core.checks import SettingError
    from knight.rules.driver import run
    from knight.rules.tables import completion

    board, workers = board_and_workers(args)
    check_random_args(args)
    t0 = time.perf_counter()
    try:
        runs = run(
            board,
            args.rule,
            args.starts,
            order=args.order,
            orders=args.orders,
            trials=args.trials,
            seed=args.seed,
            retries=args.retries,
            workers=workers,
        )
    except SettingError as exc:  # a setting the study refuses, named by its flag
        raise exc.renamed({"boards": "BOARD", "rules": "--rule", "starts": "--starts", "orders": "--orders"}) from None
    seconds = time.perf_counter() - t0
    row = completion(runs).row(0, named=True)
    row["seconds"] = round(seconds, 3)
    if args.json:
        print(json.dumps(row))
    else:
        width = max(map(len, row))
        for key, value in row.items():
            shown = f"{value:.6f}" if isinstance(value, float) and key != "seconds" else value
            print(f"{key:<{width}}  {shown}")
    return 0
