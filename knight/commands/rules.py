"""``knight rules BOARD --rule RULE``: one board of the rules stage, from the command line.

Runs the same code as the workflow's rules stage (:mod:`knight.rules.studies`: the same
chunks and Dask tasks) for one rule on one board, and prints its completion row
(:func:`knight.rules.tables.completion`), or one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import json

from knight.commands import board_and_workers, check_random_args

HELP = "run a tie-break rule on one board from the corner or every start; print its completion row"


def register(sub: argparse._SubParsersAction) -> None:
    from knight.core.tiebreak import RULES

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
        default="12345678",
        help="tie order breaking the ties left by fixed, pohl, roth, corner (default 12345678)",
    )
    p.add_argument(
        "--orders",
        choices=("default", "all"),
        default="default",
        help="all: every residual tie order (tie-tree engine; fixed, pohl, roth, corner)",
    )
    p.add_argument("--starts", choices=("corner", "all"), default="corner", help="(1,1) only (default) or every square")
    p.add_argument("--trials", type=int, default=100, help="runs per start of the random rules (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random rules (default 1)")
    p.add_argument("--retries", type=int, default=10, help="random-order: attempts per run at most (default 10)")
    p.add_argument("--workers", type=int, default=None, help="Dask worker threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    import time

    import polars as pl

    from knight.rules.studies import RuleSpec, Study, n_tasks, run_chunk
    from knight.rules.tables import completion
    from knight.runtime.cluster import dask_client
    from knight.runtime.progress import Progress

    board, workers = board_and_workers(args)
    check_random_args(args)
    spec = RuleSpec.from_settings(
        args.rule, {args.rule: {"order": args.order, "seed": args.seed, "trials": args.trials, "retries": args.retries}}
    )
    study = Study("cli", (spec,), (board,), starts=args.starts, orders=args.orders)
    chunks = range(len(study.chunks(args.rule)))
    t0 = time.perf_counter()
    with (
        dask_client(workers) as client,
        Progress(sum(n_tasks(study, args.rule, k) for k in chunks), f"rules {args.rule} {board.name}") as bar,
    ):
        tables = [run_chunk(study, args.rule, k, client=client, progress=bar).table for k in chunks]
    seconds = time.perf_counter() - t0
    runs = pl.concat([pl.from_arrow(t) for t in tables]).with_columns(pl.lit("cli").alias("study"))
    row = completion(runs.lazy()).collect().drop("study").row(0, named=True)
    row["seconds"] = round(seconds, 3)
    if args.json:
        print(json.dumps(row))
    else:
        width = max(map(len, row))
        for key, value in row.items():
            shown = f"{value:.6f}" if isinstance(value, float) and key != "seconds" else value
            print(f"{key:<{width}}  {shown}")
    return 0
