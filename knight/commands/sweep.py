"""``knight sweep BOARD``: every start x every order of one board, as a runs dataset."""

from __future__ import annotations

import argparse

from knight.commands import board_and_workers

HELP = "run Warnsdorff from every start under every tie order of one board"


def register(sub: argparse._SubParsersAction) -> None:
    from knight.engine.rows import DEFAULT_ENGINE, ENGINES
    from knight.engine.tiebreak import ORDER_RULES
    from knight.sweep.driver import DEFAULT_MAX_CPU_HOURS
    from knight.sweep.spec import DEFAULT_CHUNK_RUNS

    p = sub.add_parser(
        "sweep",
        help=HELP,
        description="Run every start x every tie order (or the ones given) of BOARD with the "
        "same code the workflow uses; print runs, complete, closed, the knight moves the "
        "engine made (steps) and seconds.",
    )
    p.add_argument("board", metavar="BOARD", help="8 for 8x8, or RxC such as 6x8")
    p.add_argument("--out", metavar="DIR", help="write the runs dataset under DIR (board=RxC/part-NNNN.parquet)")
    p.add_argument(
        "--engine", choices=ENGINES, default=DEFAULT_ENGINE, help="tree (default) or brute (the independent check)"
    )
    p.add_argument(
        "--rule",
        choices=ORDER_RULES,
        default="fixed",
        help="tie-break rule whose residual ties the orders break (default fixed)",
    )
    p.add_argument("--orders", nargs="+", metavar="ORDER", help="order strings to run (default: all 40,320)")
    p.add_argument("--workers", type=int, default=None, help="Dask worker threads (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="use an existing Dask scheduler instead")
    p.add_argument("--chunk-runs", type=int, default=DEFAULT_CHUNK_RUNS, help="runs per output file")
    p.add_argument(
        "--max-cpu-hours",
        type=float,
        default=DEFAULT_MAX_CPU_HOURS,
        metavar="H",
        help=f"refuse a sweep estimated above H CPU-hours (default {DEFAULT_MAX_CPU_HOURS:,.0f}; inf: no limit)",
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    import contextlib

    from knight.core.checks import SettingError
    from knight.core.dataset import writing
    from knight.runtime.cluster import dask_client
    from knight.runtime.progress import Progress
    from knight.sweep.driver import board_folder, check_output_dir, check_sweep_fits, sweep
    from knight.sweep.spec import SweepSpec, parse_orders, total_tasks

    board, workers = board_and_workers(args)
    # Rows of about two chunks are held at once (one written, the next gathered).
    kept = 2 * args.chunk_runs if args.chunk_runs > 0 else None
    local = 0 if args.scheduler else workers  # a scheduler's workers are not in this process
    try:
        check_sweep_fits(
            board,
            "all",
            args.orders or "all",
            kept=kept,
            workers=local,
            engine=args.engine,
            max_cpu_hours=args.max_cpu_hours,
        )
        spec = SweepSpec(
            board,
            ranks=parse_orders(args.orders or "all"),
            chunk_runs=args.chunk_runs,
            engine=args.engine,
            rule=args.rule,
        )
    except SettingError as exc:
        raise exc.renamed({"chunk_runs": "--chunk-runs", "max_cpu_hours": "--max-cpu-hours"}) from None
    held = contextlib.nullcontext()
    if args.out:
        check_output_dir(board_folder(args.out, board, spec.rule), root=args.out)  # before any computing
        held = writing(board_folder(args.out, board, spec.rule))  # a second writer is refused at once
    with (
        held,
        dask_client(workers, args.scheduler) as client,
        Progress(total_tasks(spec), f"sweep {board.name}") as bar,
    ):
        summary = sweep(spec, args.out, client=client, progress=bar)
    print(f"board     {board.name}")
    print(f"rule      {spec.rule}")
    print(f"engine    {spec.engine}")
    print(f"runs      {summary.runs}")
    print(f"complete  {summary.complete}")
    print(f"closed    {summary.closed}")
    walked = "runs sharing a first stretch walk it once" if spec.engine == "tree" else "every run walked in full"
    print(f"steps     {summary.steps} (knight moves the engine made; {walked})")
    print(f"seconds   {summary.seconds:.3f}")
    if args.out:
        print(f"written   {len(summary.files)} file(s) under {args.out}")
        print(f"Python    knight.scan({str(args.out)!r}) reads them, verified")
    return 0
