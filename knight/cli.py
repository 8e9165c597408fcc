"""The ``knight`` console command: one subcommand per module in ``knight.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys

#: Subcommand modules under ``knight.commands``; each defines ``register(subparsers)``
#: which adds its parser and sets ``func(args) -> int``.
COMMANDS = ("sweep", "tour", "queens", "backtrack", "construct")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="knight",
        description="Chessboard combinatorics: Warnsdorff tie orders, queens, exact tours.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"knight.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError) as exc:
        print(f"knight {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"knight {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
