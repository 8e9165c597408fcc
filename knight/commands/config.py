"""``knight config [FILE ...] [--default FILE]``: check the workflow's configuration without running it.

Reads the default ``config/config.yaml`` and then each FILE as ``snakemake --configfile FILE ...``
does (mappings merged key by key, other values replaced), and runs the workflow's own
check (:func:`knight.pipeline.config.load`). A YAML syntax error is named by file, line
and column: Snakemake reads ``--configfile`` files before the workflow starts and says
only "Config file is not valid JSON or YAML".
"""

from __future__ import annotations

import argparse

HELP = "check config files as the workflow would (YAML syntax with its line, schema, meaning)"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "config",
        help=HELP,
        description="Check config/config.yaml merged with each FILE in turn, as `snakemake --configfile "
        "FILE ...` reads them, before any job: a YAML syntax error by file and line, then every bad "
        "key and value. Exit 0 when valid, 2 otherwise.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="config files given to --configfile, in that order")
    p.add_argument(
        "--default",
        metavar="FILE",
        help="the workflow's default config (default: config/config.yaml in the current folder, "
        "else that of the checkout knight runs from)",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from knight.pipeline.config import default_config_file, load_files

    default = args.default or default_config_file()
    if default is None:
        raise ValueError("no config/config.yaml here or in a checkout of knight: name it with --default FILE")
    config = load_files(args.files, default=default)
    names = [str(default), *args.files]
    sections = ", ".join(sorted(config))
    print(f"valid configuration ({' + '.join(names)}): sections {sections}")
    return 0
