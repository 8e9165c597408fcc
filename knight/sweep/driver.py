"""The sweep stage: a board's sweep run and written as a runs dataset, and
:func:`run`, the library's entry point.

The sweep's plan of orbit chunks is :mod:`.spec`, and their computing :mod:`.chunks`;
this module writes them (``board=RxC/part-NNNN.parquet``, then
the manifest) and hands it to Python callers as a polars ``DataFrame``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from knight.core import dataset
from knight.core.board import Board, parse_starts
from knight.engine.rows import DEFAULT_ENGINE, check_engine
from knight.engine.runs_table import RUNS_SCHEMA, write_runs
from knight.sweep.chunks import ChunkResult, iter_chunks
from knight.sweep.spec import DEFAULT_CHUNK_RUNS, SweepSpec, parse_orders, sweep_bytes, total_tasks


def board_folder(root: str | Path, board: Board, rule: str = "fixed") -> Path:
    """Folder of one board's runs in the Hive-style dataset under ``root``
    (``board=RxC``; ``rule=R/board=RxC`` for a rule other than ``fixed``)."""
    root = Path(root)
    return (root if rule == "fixed" else root / f"rule={rule}") / f"board={board.name}"


def chunk_path(root: str | Path, board: Board, chunk: int, rule: str = "fixed") -> Path:
    """Path of chunk ``chunk`` of a board in the runs dataset under ``root``."""
    return board_folder(root, board, rule) / dataset.part_name(chunk)


def write_chunk(result: ChunkResult, path: str | Path) -> None:
    """Write a chunk's runs table atomically (:func:`knight.engine.runs_table.write_runs`)."""
    write_runs(result.table, path)


def write_board_manifest(folder: str | Path, files, spec: SweepSpec) -> dict:
    """Check a board's runs files against ``spec``'s plan (rows per chunk, the runs
    schema) and write the manifest that seals them (:func:`knight.core.dataset.write_manifest`)."""
    return dataset.write_manifest(
        folder, files, rows=spec.chunk_rows(), schema=RUNS_SCHEMA, board=spec.board.name, rule=spec.rule
    )


@dataclass
class SweepSummary:
    board: Board
    runs: int
    complete: int
    closed: int
    steps: int
    seconds: float
    files: list[Path]


def sweep(
    spec: SweepSpec,
    out_dir: str | Path | None = None,
    client=None,
    progress=None,
    on_chunk=None,
    *,
    workers: int = 1,
) -> SweepSummary:
    """Run every chunk of ``spec`` on ``client`` or ``workers`` local threads
    (:func:`knight.sweep.chunks.iter_chunks`); with ``out_dir``, write the board's runs
    dataset there (``board=RxC/part-NNNN.parquet``, then its manifest, see
    :mod:`knight.core.dataset`). ``on_chunk(result)`` is called with each chunk's
    :class:`ChunkResult`, in order.

    The output folder is checked before any computing (:func:`check_output_dir`: no
    symbolic link below ``out_dir``); earlier parts of the board's folder are removed
    first, so a reused folder never holds two runs' rows.
    """
    folder = None
    if out_dir is not None:
        folder = board_folder(out_dir, spec.board, spec.rule)
        check_output_dir(folder, root=out_dir)
        dataset.begin(folder)
    t0 = time.perf_counter()
    runs = complete = closed = steps = 0
    files = []
    for k, res in enumerate(iter_chunks(spec, client=client, progress=progress, workers=workers)):
        runs += res.table.num_rows
        complete += pc.sum(res.table.column("complete")).as_py() or 0
        closed += pc.sum(res.table.column("closed")).as_py() or 0
        steps += res.steps
        if on_chunk is not None:
            on_chunk(res)
        if folder is not None:
            path = chunk_path(out_dir, spec.board, k, spec.rule)
            write_chunk(res, path)
            files.append(path)
    if folder is not None:
        write_board_manifest(folder, files, spec)
    return SweepSummary(spec.board, runs, complete, closed, steps, time.perf_counter() - t0, files)


def check_output_dir(folder: str | Path, root: str | Path | None = None) -> None:
    """Raise a one-line ``ValueError`` unless ``folder`` is (or can be made) a writable
    folder that is not a symbolic link, nor has one among its parents below ``root``
    (the ``--out`` folder, which itself may be a link): the writer clears the folder, and
    must never clear the one a link points to (:func:`knight.core.dataset.refuse_links`)."""
    folder = Path(folder)
    dataset.refuse_links(folder, root)
    for parent in [folder, *folder.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"output folder {folder}: {parent} is a file, not a folder")
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-test-{os.getpid()}.tmp"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"output folder {folder}: cannot write there ({exc.strerror or exc})") from None


def _count(value, everything: int, named: dict[str, int] | None = None) -> int:
    """How many starts or orders ``value`` names: ``everything`` for "all"."""
    if value is None or value == "all":
        return everything
    if isinstance(value, str):
        return (named or {}).get(value, 1)
    return len(value)


#: Seconds of CPU a run costs at least per square of the board, by engine: the tree
#: walks a stretch that runs share once, the brute engine walks every run in full. Both
#: lie below the costs on the performance page (docs/performance.md, "Sweep"), so only
#: a sweep that could not finish is refused.
CPU_SECONDS_PER_RUN_SQUARE = {"tree": 0.3e-9, "brute": 4e-9}
#: The CPU-hours above which a sweep is refused unless the caller raises the limit.
DEFAULT_MAX_CPU_HOURS = 1000.0


def sweep_cpu_hours(board: Board, starts: int, orders: int, engine: str = DEFAULT_ENGINE) -> float:
    """A lower estimate of the CPU-hours a sweep of ``starts`` x ``orders`` runs on
    ``board`` costs with ``engine`` (:data:`CPU_SECONDS_PER_RUN_SQUARE`).

    >>> round(sweep_cpu_hours(Board(1000, 1000), 10**6, 40320))
    3360
    """
    return starts * orders * board.size * CPU_SECONDS_PER_RUN_SQUARE[engine] / 3600


def check_sweep_fits(
    board: Board,
    starts,
    orders,
    *,
    kept: int | None = None,
    workers: int = 1,
    engine: str = DEFAULT_ENGINE,
    max_cpu_hours: float = DEFAULT_MAX_CPU_HOURS,
) -> None:
    """Refuse, in one line and before any work, a sweep that could not finish: one whose
    :func:`sweep_cpu_hours` exceed ``max_cpu_hours`` (a :class:`~knight.core.checks.SettingError`
    keyed ``max_cpu_hours``), or whose :func:`sweep_bytes` do not fit in memory
    (:func:`knight.runtime.memory.check_fits`). ``starts``, ``orders`` as :func:`run`
    takes them; ``kept`` rows held at once (default all).

    >>> check_sweep_fits(Board(1000, 1000), "all", "all")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    knight.core.checks.SettingError: max_cpu_hours: sweep of 1000x1000 (...) needs at least an estimated ...
    """
    from knight.core.checks import SettingError, positive_number
    from knight.core.orders import N_ORDERS
    from knight.runtime.memory import check_fits

    limit = positive_number("max_cpu_hours", max_cpu_hours)
    n_starts = _count(starts, board.size, {"corner": 1})
    n_orders = _count(orders, N_ORDERS)
    what = f"sweep of {board.name} ({n_starts * n_orders:,} runs"
    hours = sweep_cpu_hours(board, n_starts, n_orders, engine)
    if hours > limit:
        raise SettingError(
            "max_cpu_hours",
            f"{what}, {engine} engine) needs at least an estimated {hours:,.0f} CPU-hours, more than the "
            f"limit of {limit:,.0f}: choose a smaller sweep or raise the limit",
        )
    check_fits(f"{what})", sweep_bytes(board, n_starts, n_orders, kept=kept, workers=workers))


def run(
    board,
    starts="all",
    orders="all",
    rule: str = "fixed",
    engine: str = DEFAULT_ENGINE,
    workers: int = 1,
    out: str | Path | None = None,
    *,
    chunk_runs: int = DEFAULT_CHUNK_RUNS,
    max_cpu_hours: float = DEFAULT_MAX_CPU_HOURS,
):
    """Warnsdorff's rule from every start under every tie order of a board.

    Parameters
    ----------
    board : int, str or Board
        ``8``, ``"6x8"`` or a :class:`~knight.Board`, both sides at least 3.
    starts : str or Sequence of tuple of int
        ``"all"``, ``"corner"`` (1, 1) or 1-based ``(row, col)`` pairs.
    orders : str or Sequence of str
        ``"all"`` (the 40,320 tie orders) or order strings such as ``"12345678"``.
    rule : str
        The tie-break rule whose residual ties the orders break: ``fixed``, ``pohl``,
        ``roth`` or ``corner``.
    engine : str
        ``"tree"`` (each distinct path walked once) or ``"brute"`` (every pair walked:
        the independent check).
    workers : int
        Dask worker threads; 1 runs in this thread, without Dask.
    out : str, pathlib.Path or None
        A folder to write the runs dataset to as well, as ``knight sweep --out`` writes it
        (checked before any work); None writes nothing.
    chunk_runs : int
        Runs at most to a part file.
    max_cpu_hours : float
        The most CPU-hours the sweep may be estimated to cost (a lower estimate,
        :func:`~knight.sweep.driver.sweep_cpu_hours`); above it the sweep is refused
        before any work. ``float("inf")``: no limit.

    Returns
    -------
    polars.DataFrame
        One row per (start, order), sorted by start, then order, with the columns of the
        runs table: ``rows, cols, start, order, visited, end, complete, closed, ties``;
        ``start`` and ``end`` are square indices ``row * cols + col``, ``order`` the tie
        order's rank (:doc:`/conventions`). A progress bar is drawn when stderr is a terminal.

    Raises
    ------
    ValueError
        A bad argument, in one line naming it; a sweep whose estimated CPU-hours exceed
        ``max_cpu_hours`` or whose rows do not fit in memory; an ``out`` folder that cannot
        be written. All before any work.

    See Also
    --------
    knight.sweep.tables : Aggregates of the runs.
    knight.scan : The runs of a written dataset, verified.

    Examples
    --------
    >>> runs = run(5, starts=[(1, 1)], orders=["12345678", "21345678"])
    >>> runs.select("start", "order", "visited", "complete").rows()
    [(0, 0, 25, True), (0, 5040, 25, True)]
    """
    import polars as pl

    from knight.core.checks import SettingError, board_arg, int_arg, named
    from knight.runtime.progress import Progress

    board = board_arg(board, min_side=3)
    workers = int_arg("workers", workers, 1)
    try:  # before any list is made
        engine = check_engine(engine)
        check_sweep_fits(board, starts, orders, workers=workers, engine=engine, max_cpu_hours=max_cpu_hours)
    except SettingError as exc:
        raise exc.renamed({}) from None
    try:
        squares = parse_starts(board, starts)
    except ValueError as exc:
        raise ValueError(named("starts", str(exc))) from None
    try:
        ranks = parse_orders(orders)
    except ValueError as exc:
        raise ValueError(named("orders", str(exc))) from None
    spec = SweepSpec(
        board,
        starts=squares,
        ranks=ranks,
        chunk_runs=int_arg("chunk_runs", chunk_runs, 1),
        engine=engine,
        rule=rule,
    )
    if out is not None:
        check_output_dir(board_folder(out, board, spec.rule), root=out)
    tables = []
    with Progress(total_tasks(spec), f"sweep {board.name}") as bar:
        sweep(spec, out, progress=bar, on_chunk=lambda res: tables.append(res.table), workers=workers)
    return pl.from_arrow(pa.concat_tables(tables))


__all__ = [
    "run",
    "sweep",
    "check_sweep_fits",
    "sweep_cpu_hours",
    "DEFAULT_MAX_CPU_HOURS",
    "SweepSummary",
    "write_chunk",
    "write_board_manifest",
    "chunk_path",
    "board_folder",
    "check_output_dir",
]
