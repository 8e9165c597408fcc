"""What checking stored results against their seals costs (docs/integrity.md).

    python benchmarks/bench_integrity.py WORKDIR [--board 12x12] [--repeats 3]

WORKDIR is a finished workflow run (e.g. of the default pipeline's sweep_stage). Prints:
- SHA-256 throughput of one thread on a 100 MiB file (page cache);
- the workflow's start-up check over WORKDIR/results (every sealed file hashed, in threads);
- the per-board tables job of BOARD: its work (polars aggregates over the runs) and its
  check of every part against the manifest, alternated in one process, as a ratio.

The start-up check removes nothing from a clean run; run it on a copy if in doubt.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def sha_throughput(repeats: int) -> list[float]:
    from knight.core import seal

    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(os.urandom(100 * 1024 * 1024))
    try:
        seal.digest(f.name)  # into the page cache
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            seal.digest(f.name)
            times.append(time.perf_counter() - t0)
        return times
    finally:
        os.unlink(f.name)


def start_up(work: Path, repeats: int) -> list[tuple[float, int, int]]:
    from knight.pipeline.integrity import check_results

    out = []
    cwd = os.getcwd()
    os.chdir(work)
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            found = check_results("results")
            out.append((time.perf_counter() - t0, found.checked, found.bytes))
            assert not (found.damaged or found.missing or found.derived), found.lines()
    finally:
        os.chdir(cwd)
    return out


def tables_job(work: Path, board_name: str, repeats: int) -> tuple[list[float], list[float], int]:
    from knight.core import dataset, seal
    from knight.core.board import parse_board
    from knight.sweep.tables import board_tables, scan_runs

    board = parse_board(board_name)
    folder = work / "results" / "runs" / f"board={board.name}"
    size = sum(p.stat().st_size for p in folder.glob("part-*.parquet"))
    check, compute = [], []
    for _ in range(repeats):  # alternate: check every byte, then the job's own work
        seal._checked.clear()
        t0 = time.perf_counter()
        parts = dataset.verify(folder, deep=True)
        check.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        board_tables(scan_runs([str(p) for p in parts]), board, check_classes=True)
        compute.append(time.perf_counter() - t0)
    return check, compute, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("work", type=Path)
    ap.add_argument("--board", default="12x12")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    times = sha_throughput(args.repeats)
    print(f"sha256, 100 MiB, one thread: {', '.join(f'{t:.3f}' for t in times)} s")
    for seconds, files, size in start_up(args.work, args.repeats):
        print(f"start-up check: {files} files, {size / 1e6:.1f} MB in {seconds:.3f} s")
    check, compute, size = tables_job(args.work, args.board, args.repeats)
    ratios = [c / w for c, w in zip(check, compute)]
    print(
        f"tables job {args.board} ({size / 1e6:.1f} MB of runs): check {statistics.median(check):.3f} s, "
        f"aggregates {statistics.median(compute):.3f} s (medians of {args.repeats}); "
        f"check / aggregates = {', '.join(f'{r:.3f}' for r in ratios)}"
    )


if __name__ == "__main__":
    main()
