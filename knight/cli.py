"""The ``knight`` console command: one subcommand per module in ``knight.commands``.

Each command module is light to import (argparse only) and names its one-line
``HELP``; its ``register(subparsers)`` builds the full parser and may import the
library. Only the chosen command is registered in full, so ``knight --help`` and a
single tour import no more than they use (no Dask, no matplotlib).

Errors are one line on standard error, ``knight COMMAND: error: ...``: a bad argument
(exit 2), a resource fault (:mod:`knight.runtime.faults`: a full disk, memory that ran
out, a Dask scheduler that went away; exit 1), a Ctrl-C (exit 130). A write past
``ulimit -f`` fails as a resource fault instead of killing the command (SIGXFSZ is
ignored).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

#: Subcommand modules under ``knight.commands``; each defines ``HELP`` and
#: ``register(subparsers)``, which adds its parser and sets ``func(args) -> int``.
COMMANDS = ("sweep", "rules", "tour", "queens", "backtrack", "construct", "config")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``command`` (or all, when None) registered in full."""
    parser = argparse.ArgumentParser(
        prog="knight",
        description="Chessboard combinatorics: Warnsdorff tie orders and tie-break rules, queens, exact tours.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"knight.commands.{name}")
        if command is None or command == name:
            module.register(sub)
        else:
            sub.add_parser(name, help=module.HELP)
    return parser


def _chosen(argv: list[str]) -> str:
    """The subcommand named in ``argv`` (its first argument that is one), or "" for none."""
    return next((a for a in argv if a in COMMANDS), "")


def main(argv: list[str] | None = None) -> int:
    from knight.core import seal
    from knight.runtime import faults
    from knight.runtime.logs import interrupted, note_interrupts, one_line_interrupts

    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_chosen(argv)).parse_args(argv)
    faults.ignore_file_size_signal()
    note_interrupts()
    one_line_interrupts(f"knight {args.command}")
    try:
        with seal.recording(seal.Provenance(by=f"knight {args.command}")):  # what made the files, in their seals
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print(f"knight {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if interrupted(exc):  # a Ctrl-C that a library turned into another error
            print(f"knight {args.command}: interrupted", file=sys.stderr)
            return 130
        cause = faults.describe(exc)
        if cause is not None:
            print(f"knight {args.command}: error: {cause}", file=sys.stderr)
            return 1
        if isinstance(exc, (ValueError, FileNotFoundError)):
            print(f"knight {args.command}: error: {exc}", file=sys.stderr)
            return 2
        raise


def console() -> None:
    """The console command: :func:`main`, then exit with its code.

    The objects the command leaves (numba's compiled kernels, Dask, Arrow) are moved out
    of the garbage collector's sight first, so the interpreter's last collections at exit
    do not walk them: that walk took 0.25–0.35 s of a ``knight queens place 16`` process
    of 4 s. Everything the commands write is closed before :func:`main` returns, and the
    standard streams are still flushed at exit."""
    code = main()
    gc.freeze()
    try:  # what the command printed, while a failure can still be told in one line
        sys.stdout.flush()
    except OSError as exc:
        from knight.runtime import faults

        cause = faults.describe(exc) or f"cannot write the output: {exc}"
        print(f"knight: error: {cause.replace(':', ' writing standard output:', 1)}", file=sys.stderr)
        sys.stdout = None  # nothing left to flush at exit
        code = code or 1
    sys.exit(code)


if __name__ == "__main__":
    console()
