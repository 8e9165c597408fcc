"""Subcommands of the ``knight`` console command (see :mod:`knight.cli`)."""

from __future__ import annotations

import argparse
import os


def board_and_workers(args: argparse.Namespace):
    """``(Board, worker threads)`` from ``args.board`` and ``args.workers`` (default: all
    cores); ValueError naming the bad value."""
    from knight.core.board import parse_board

    board = parse_board(args.board)
    if board.rows < 3 or board.cols < 3:
        raise ValueError(f"board {args.board!r}: both sides must be at least 3")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    return board, workers
