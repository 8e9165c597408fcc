"""``knight queens``: dominating sets of k queens and non-attacking placements of n queens.

knight queens dominate N K [--workers P] [--tasks T] [--store DIR [--unit I ...]]
                           [--json] [--output FILE.parquet]
knight queens place N [--workers P] [--tasks T] [--json] [--output FILE.parquet]
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
        help="keep each finished unit and the class representatives in DIR; a rerun "
        "verifies the units there and searches only the others (default: nothing is written)",
    )
    dom.add_argument(
        "--unit",
        type=int,
        action="append",
        default=None,
        metavar="I",
        help="with --store: run only unit I of the T units (repeatable; e.g. one per cluster job)",
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


def _check(args: argparse.Namespace):
    """``(workers, store or None, output or None)`` after checking every argument and
    output path, before any search (one-line ValueError naming the bad one)."""
    from knight.commands import output_path
    from knight.queens.checks import MAX_DOMINATE_N, MAX_PLACE_N, check_k, check_n, check_tasks, check_workers

    workers = check_workers(args.workers)
    check_tasks(args.tasks)
    store = None
    if args.queens_command == "dominate":
        check_k(args.k, check_n(args.n, limit=MAX_DOMINATE_N))
        if args.unit is not None and args.store is None:
            raise ValueError("--unit needs --store DIR (where the unit's result is kept)")
        if args.store is not None:
            store = output_path("--store", args.store, folder=True)
    else:
        check_n(args.n, limit=MAX_PLACE_N)
    output = None if args.output is None else output_path("--output", args.output, suffix=".parquet")
    return workers, store, output


def _run(args: argparse.Namespace) -> int:
    from knight.queens import dominate, place

    # Validate before starting a cluster: a bad n or k fails in well under a second.
    workers, store, output = _check(args)
    dominating = args.queens_command == "dominate"
    keep = output is not None

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

    warm_up(args.queens_command, keep=keep or store is not None)
    if workers > 1 or args.scheduler:
        from knight.runtime.cluster import dask_client  # Dask only when a cluster is used

        with dask_client(workers, args.scheduler) as client:
            result = search(client)
    else:
        result = search()
    partial = dominating and args.unit is not None
    if keep and not partial:
        from knight.queens.tables import solutions_frame, write_solutions

        write_solutions(solutions_frame(result), output)
    classes_path = None
    if store is not None and not partial:
        from knight.queens.tables import classes_frame, write_solutions

        classes_path = store / "classes.parquet"
        write_solutions(classes_frame(result), classes_path)
    if args.json:
        print(json.dumps(result.summary()))
        return 0
    print(_report(result, dominating, partial, store))
    if classes_path:
        print(f"class representatives: {classes_path}")
    return 0


def _report(result, dominating: bool, partial: bool, store) -> str:
    """Two lines: the counts, then the time and what it covers (units searched, read back)."""
    n, k = result.n, result.k
    what = f"{k} queens dominating {n}x{n}" if dominating else f"{n} non-attacking queens on {n}x{n}"
    counts = f"{what}: {result.solutions:,} solutions, {result.classes:,} up to symmetry"
    if partial:
        counts += f" in the {result.tasks} unit(s) asked for (--unit)"
    timing = f"{result.seconds:.3f} s, {result.workers} worker(s), {result.tasks} task(s)"
    if dominating and store is not None:
        searched = result.tasks - result.resumed
        timing = (
            f"{result.seconds:.3f} s, {result.workers} worker(s): {searched} of {result.tasks} unit(s) searched, "
            f"{result.resumed} read back from {store}"
        )
    return f"{counts}\n{timing}"
