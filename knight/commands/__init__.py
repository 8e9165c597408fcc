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
    from knight.core.checks import int_arg

    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    return knight_board(args.board), int_arg("--workers", workers, 1)


def knight_board(text):
    """The board ``text`` names (``8``, ``6x8``), within the sides every stage accepts
    (:data:`knight.core.board.MIN_SIDE`); ValueError naming the value otherwise."""
    from knight.core.checks import board_arg

    return board_arg(text)


def check_random_args(args: argparse.Namespace) -> None:
    """``--seed``, ``--trial``/``--trials``, ``--retries`` within the ranges every caller
    shares (:data:`knight.engine.tiebreak.LIMITS`), whatever the rule; ValueError naming
    the flag and the value."""
    from knight.engine.tiebreak import check_setting

    for name in ("seed", "trial", "trials", "retries"):
        if getattr(args, name, None) is not None:
            check_setting(name, getattr(args, name), label=f"--{name}")


def output_path(flag: str, value: str, *, folder: bool = False, suffix: str | None = None) -> Path:
    """The path of an output option after checking, without writing anything, that it can be
    written: ``value`` is not an existing folder (or, with ``folder``, is not an existing
    file), its nearest existing parent is a folder this process may write in, and it ends
    in ``suffix`` when one is given. A file's folder must exist, as for
    :meth:`knight.Tour.save` (a mistyped folder is not made silently); a folder output
    is made with its parents. ValueError naming ``flag`` and ``value`` otherwise."""
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
    if not folder and parent != start:
        raise ValueError(f"{where}: no folder {path.parent} (create it first)")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.is_file() and not os.access(path, os.W_OK)):
        raise ValueError(f"{where}: no permission to write there")
    return path
