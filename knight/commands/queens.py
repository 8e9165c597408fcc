"""``knight queens``: dominating sets of k queens and non-attacking placements of n queens.

knight queens dominate N K [--workers P] [--tasks T] [--store DIR [--unit I ...] [--stop-after S]]
                           [--json] [--output FILE.parquet] [--sets FILE.csv]
knight queens place N [--workers P] [--tasks T] [--json] [--output FILE.parquet]
knight queens verify FILE.csv [--k K] [--classes]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

HELP = "queens: dominating sets and non-attacking placements"
#: Exit status of a search stopped by ``--stop-after`` with units left (none merged).
EXIT_STOPPED = 3
#: Seconds between two lines of a store's progress on standard error.
STATUS_SECONDS = 60.0


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
        default=None,
        metavar="T",
        help=f"tasks the search is split into (default {DEFAULT_TASKS}; "
        "for dominate with --store, the units of the store's plan of this search)",
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
    sub = parser.add_subparsers(dest="queens_command", metavar="{dominate,place,verify}", required=True)
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
    dom.add_argument(
        "--stop-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --store: start no unit after SECONDS of wall time; the units running then "
        f"finish and are written, and the command exits with status {EXIT_STOPPED} if units are left "
        "(nothing merged; rerun to continue)",
    )
    dom.add_argument(
        "--sets",
        default=None,
        metavar="FILE.csv",
        help="also write every set, one row each, in the plain format `knight queens verify` checks",
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
    ver = sub.add_parser(
        "verify",
        help="check a file of dominating sets without searching",
        description="Check a file of dominating sets (CSV: n,r1,c1,...,rk,ck; 1-based rows and columns) "
        "without searching: every set has gamma(n) queens and covers the board, no set comes twice, and "
        "the file is a union of whole symmetry classes. Prints the classes' sizes; exit status 1 names "
        "the first line that fails.",
    )
    ver.add_argument("file", metavar="FILE.csv", help="the sets, one row each (as `dominate --sets` writes)")
    ver.add_argument("--k", type=int, default=None, metavar="K", help="queens per set (default: gamma(n))")
    ver.add_argument("--classes", action="store_true", help="also print each class: its sets and smallest member")
    ver.add_argument("--json", action="store_true", help="print one JSON object (n, k, sets, classes, sizes)")
    ver.set_defaults(func=_verify)


def _check(args: argparse.Namespace):
    """``(workers, tasks, store or None, output or None)`` after checking every argument
    and output path, before any search (one-line ValueError naming the bad one)."""
    from knight.commands import output_path
    from knight.queens.checks import MAX_DOMINATE_N, MAX_PLACE_N, check_k, check_n, check_tasks, check_workers
    from knight.queens.parallel import DEFAULT_TASKS

    workers = check_workers(args.workers)
    if args.tasks is not None:
        check_tasks(args.tasks)
    tasks = args.tasks
    store = None
    if args.queens_command == "dominate":
        check_k(args.k, check_n(args.n, limit=MAX_DOMINATE_N))
        if args.unit is not None and args.store is None:
            raise ValueError("--unit needs --store DIR (where the unit's result is kept)")
        if args.store is not None:
            store = output_path("--store", args.store, folder=True)
        if args.sets is not None and args.unit is not None:
            raise ValueError("--sets needs the whole search, not --unit")
        if args.sets is not None:
            output_path("--sets", args.sets, suffix=".csv")
        if args.stop_after is not None and args.store is None:
            raise ValueError("--stop-after needs --store DIR (where the finished units are kept)")
        if args.stop_after is not None and not args.stop_after > 0:
            raise ValueError(f"--stop-after must be a positive number of seconds, got {args.stop_after}")
        if tasks is None and store is not None:
            from knight.queens.units import stored_units

            # A store already cut for this search is resumed as it was cut, not refused.
            tasks = stored_units(store, "dominate", args.n, args.k)
    else:
        check_n(args.n, limit=MAX_PLACE_N)
    output = None if args.output is None else output_path("--output", args.output, suffix=".parquet")
    return workers, DEFAULT_TASKS if tasks is None else tasks, store, output


class _Status:
    """Lines on standard error saying how far a search with a store is: the units done and
    left and the CPU seconds their files record, when the store is read, then at most
    every :data:`STATUS_SECONDS` as units finish, and for the last unit."""

    def __init__(self, label: str):
        self.label = label
        self.last = None

    def __call__(self, done: int, units: int, cpu: float) -> None:
        now = time.monotonic()
        if self.last is not None and now - self.last < STATUS_SECONDS and done < units:
            return
        self.last = now
        from tqdm import tqdm

        line = f"{self.label}: {done:,} of {units:,} unit(s) done, {units - done:,} left; {cpu:,.1f} CPU s spent"
        tqdm.write(line, file=sys.stderr)


def _run(args: argparse.Namespace) -> int:
    from knight.queens import dominate, place
    from knight.queens.units import Stopped

    # Validate before starting a cluster: a bad n or k fails in well under a second.
    t_start = time.time()
    workers, tasks, store, output = _check(args)
    dominating = args.queens_command == "dominate"
    sets_path = getattr(args, "sets", None)
    keep = output is not None or sets_path is not None
    stop_after = getattr(args, "stop_after", None)
    stop_at = None if stop_after is None else t_start + stop_after

    def search(client=None):
        from knight.runtime.progress import Progress

        with Progress(tasks, f"queens {args.queens_command} {args.n}") as bar:
            if dominating:
                return dominate(
                    args.n,
                    args.k,
                    workers=workers,
                    tasks=tasks,
                    keep=keep,
                    client=client,
                    progress=bar,
                    store=store,
                    only=args.unit,
                    stop_at=stop_at,
                    report=None if store is None else _Status(f"queens dominate {args.n} {args.k}"),
                )
            return place(args.n, workers=workers, tasks=tasks, keep=keep, client=client, progress=bar)

    from knight.queens.search import warm_up

    warm_up(args.queens_command, keep=keep or store is not None)
    try:
        if workers > 1 or args.scheduler:
            from knight.runtime.cluster import dask_client  # Dask only when a cluster is used

            with dask_client(workers, args.scheduler) as client:
                result = search(client)
        else:
            result = search()
    except Stopped as stop:
        print(
            f"knight queens: stopped after --stop-after {stop_after:g} s: {stop.done:,} unit(s) done, "
            f"{stop.left:,} left, {stop.cpu:,.1f} CPU s spent, in {store}; rerun the same command to continue",
            file=sys.stderr,
        )
        return EXIT_STOPPED
    partial = dominating and args.unit is not None
    if output is not None and not partial:
        from knight.queens.tables import solutions_frame, write_solutions

        write_solutions(solutions_frame(result), output)
    if sets_path is not None:
        from knight.queens.verify import write_sets

        write_sets(sets_path, result.n, result.sets)
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
    if sets_path is not None:
        print(f"sets: {sets_path}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """``knight queens verify``: 0 and a summary when the file verifies, else 1 and one line."""
    from knight.queens.verify import SetsError, cells, verify_file

    if args.k is not None and args.k < 1:
        raise ValueError(f"--k must be at least 1, got {args.k}")
    try:
        got = verify_file(args.file, k=args.k)
    except SetsError as exc:
        print(f"knight queens verify: refused: {exc}", file=sys.stderr)
        return 1
    sizes = got.sizes()
    if args.json:
        print(
            json.dumps(
                {
                    "n": got.n,
                    "k": got.k,
                    "sets": len(got.sets),
                    "classes": len(got.classes),
                    "sizes": {str(size): count for size, count in sizes.items()},
                    "class_sets": [size for _, size in got.classes],
                }
            )
        )
        return 0
    print(
        f"{args.file}: {len(got.sets):,} distinct sets of {got.k} queens dominating {got.n}x{got.n}, "
        f"{len(got.classes):,} whole symmetry classes"
    )
    print("sets per class: " + ", ".join(f"{size}: {count:,} class(es)" for size, count in sizes.items()))
    if args.classes:
        for i, (rep, size) in enumerate(got.classes, start=1):
            print(f"class {i}: {size} sets, smallest {cells(got.n, rep)}")
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
