"""``knight queens``: dominating sets of k queens and non-attacking placements of n queens.

knight queens dominate N K [--workers P] [--tasks T] [--store DIR | --no-store] [--unit I ...]
                           [--json] [--output FILE]
knight queens place N [--workers P] [--tasks T] [--json] [--output FILE]
"""

from __future__ import annotations

import argparse
import json

HELP = "queens: dominating sets and non-attacking placements"


def _common(p: argparse.ArgumentParser) -> None:
    from knight.queens.parallel import DEFAULT_TASKS

    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="P",
        help="Dask worker threads (default 1: tasks run in turn on this thread)",
    )
    p.add_argument(
        "--tasks",
        type=int,
        default=DEFAULT_TASKS,
        metavar="T",
        help=f"tasks the search is split into (default {DEFAULT_TASKS})",
    )
    p.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="existing Dask scheduler to use instead of a local cluster"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (n, [k,] solutions, classes, seconds)")
    p.add_argument(
        "--output",
        default=None,
        metavar="FILE.parquet",
        help="also write every solution as Parquet (and CSV beside it)",
    )


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "queens",
        help="queens: dominating sets and non-attacking placements",
        description="Count queens' dominating sets or N-queens placements, split over Dask workers.",
    )
    sub = parser.add_subparsers(dest="queens_command", metavar="{dominate,place}", required=True)
    dom = sub.add_parser(
        "dominate",
        help="every set of K queens covering the N x N board",
        description="Every set of K queens that covers every square of the N x N board.",
    )
    dom.add_argument("n", type=int, metavar="N", help="board side")
    dom.add_argument("k", type=int, metavar="K", help="number of queens")
    _common(dom)
    dom.add_argument(
        "--store",
        default=None,
        metavar="DIR",
        help="folder of finished units and the class representatives "
        "(default queens-dominate-N-K); a rerun resumes from the units there",
    )
    dom.add_argument("--no-store", action="store_true", help="keep nothing on disk (no resume)")
    dom.add_argument(
        "--unit",
        type=int,
        action="append",
        default=None,
        metavar="I",
        help="run only unit I of the T units (repeatable; e.g. one per cluster job)",
    )
    dom.set_defaults(func=_run)
    pl_ = sub.add_parser(
        "place",
        help="every placement of N non-attacking queens on N x N",
        description="Every placement of N mutually non-attacking queens on the N x N board.",
    )
    pl_.add_argument("n", type=int, metavar="N", help="board side")
    _common(pl_)
    pl_.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from knight.queens import dominate, place
    from knight.queens.checks import (
        MAX_DOMINATE_N,
        MAX_PLACE_N,
        check_k,
        check_n,
        check_tasks,
        check_workers,
    )

    # Validate before starting a cluster: a bad n or k fails in well under a second.
    workers = check_workers(args.workers)
    check_tasks(args.tasks)
    dominating = args.queens_command == "dominate"
    store = None
    if dominating:
        check_k(args.k, check_n(args.n, limit=MAX_DOMINATE_N))
        if not args.no_store:
            store = args.store or f"queens-dominate-{args.n}-{args.k}"
    else:
        check_n(args.n, limit=MAX_PLACE_N)
    keep = args.output is not None

    def search(client=None):
        from knight.runtime.progress import Progress

        with Progress(args.tasks, f"queens {args.queens_command} {args.n}") as bar:
            if dominating:
                return dominate(
                    args.n,
                    args.k,
                    workers=workers,
                    tasks=args.tasks,
                    keep=keep,
                    client=client,
                    progress=bar,
                    store=store,
                    only=args.unit,
                )
            return place(args.n, workers=workers, tasks=args.tasks, keep=keep, client=client, progress=bar)

    from knight.queens.search import warm_up

    warm_up()
    if workers > 1 or args.scheduler:
        from knight.runtime.cluster import dask_client  # Dask only when a cluster is used

        with dask_client(workers, args.scheduler) as client:
            result = search(client)
    else:
        result = search()
    partial = dominating and args.unit is not None
    if keep and not partial:
        from knight.queens.tables import solutions_frame, write_solutions

        write_solutions(solutions_frame(result), args.output)
    classes_path = None
    if store is not None and not partial:
        from knight.queens.tables import classes_frame, write_solutions

        classes_path = f"{store}/classes.parquet"
        write_solutions(classes_frame(result), classes_path)
    if args.json:
        print(json.dumps(result.summary()))
        return 0
    what = (
        f"{result.k} queens dominating {result.n}x{result.n}"
        if dominating
        else f"{result.n} non-attacking queens on {result.n}x{result.n}"
    )
    print(
        f"{what}: {result.solutions:,} solutions, {result.classes:,} up to symmetry"
        + (f" in the {result.tasks} unit(s) finished so far" if partial else "")
    )
    print(
        f"{result.seconds:.3f} s, {result.workers} worker(s), {result.tasks} task(s)"
        + (f", {result.resumed} read back from {store}" if result.resumed else "")
    )
    if classes_path:
        print(f"class representatives: {classes_path}")
    return 0
