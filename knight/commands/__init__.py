"""Subcommands of the ``knight`` console command (see :mod:`knight.cli`).

The helpers here check arguments before any work, raising a one-line ``ValueError``
that names the argument and its value (``knight.cli`` prints it and exits with 2).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def board_and_workers(args: argparse.Namespace):
    """``(Board, worker threads)`` from ``args.board`` and ``args.workers`` (default: all
    cores); ValueError naming the bad value."""
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    return knight_board(args.board), workers


def knight_board(text):
    """The board ``text`` names (``8``, ``6x8``), within the sides every stage accepts
    (:data:`knight.core.board.MIN_SIDE`); ValueError naming the value otherwise."""
    from knight.core.board import check_sides, parse_board

    board = parse_board(text)
    problem = check_sides(board)
    if problem:
        raise ValueError(f"board {text!r}: {problem}")
    return board


def in_range(flag: str, value: int, low: int, high: int | None = None) -> int:
    """``value`` of option ``flag`` when ``low <= value <= high``; ValueError naming it otherwise."""
    if value < low or (high is not None and value > high):
        bounds = f"at least {low}" if high is None else f"from {low} to {high:,}"
        raise ValueError(f"{flag} must be {bounds}, got {value}")
    return value


def check_random_args(args: argparse.Namespace) -> None:
    """``--seed``, ``--trial``/``--trials``, ``--retries`` within the generator's and the
    kernel's ranges (docs/conventions.md), whatever the rule; ValueError naming the bad one."""
    from knight.rules.kernel import MAX_RETRIES

    in_range("--seed", args.seed, 0, 2**64 - 1)
    if getattr(args, "trial", None) is not None:
        in_range("--trial", args.trial, 0, 2**32 - 1)
    if getattr(args, "trials", None) is not None:
        in_range("--trials", args.trials, 1, 2**32)
    in_range("--retries", args.retries, 1, MAX_RETRIES)


def output_path(flag: str, value: str, *, folder: bool = False, suffix: str | None = None) -> Path:
    """The path of an output option after checking, without writing anything, that it can be
    written: ``value`` is not an existing folder (or, with ``folder``, is not an existing
    file), its nearest existing parent is a folder this process may write in, and it ends
    in ``suffix`` when one is given. ValueError naming ``flag`` and ``value`` otherwise."""
    path = Path(value)
    where = f"{flag} {value!r}"
    if suffix is not None and path.suffix.lower() != suffix:
        raise ValueError(f"{where}: the file name must end in {suffix}")
    if folder and path.exists() and not path.is_dir():
        raise ValueError(f"{where}: exists and is not a folder")
    if not folder and path.is_dir():
        raise ValueError(f"{where}: is a folder, not a file")
    start = (path if folder else path.parent).absolute()
    parent = next(p for p in [start, *start.parents] if p.exists())
    if not parent.is_dir():
        raise ValueError(f"{where}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.is_file() and not os.access(path, os.W_OK)):
        raise ValueError(f"{where}: no permission to write there")
    return path
