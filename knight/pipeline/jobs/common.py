"""What every stage's jobs use: a job's results version as a parameter, part numbers in
file names, params as plain values, tables combined without a name given twice."""

from __future__ import annotations

import re

from knight.core.dataset import part_name
from knight.pipeline.versions import version


def version_param(kind: str) -> dict:
    """The parameter that carries the results version of ``kind`` (:mod:`knight.pipeline.versions`)."""
    return {"version": version(kind)}


def part_number(k: int) -> str:
    """The number of part ``k`` in a file name (at least four digits).

    >>> part_number(7)
    '0007'
    """
    return re.match(r"part-(\d+)\.parquet", part_name(k)).group(1)


def plain(value):
    """Tuples as lists (what a job's params hold), recursively."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


#: The two files of every figure: a PNG (in the report) and an SVG beside it.
FIG_EXT = ("png", "svg")


def combined(*tables: dict) -> dict:
    """The tables as one; ``RuntimeError`` naming any key two of them give."""
    out: dict = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise RuntimeError(f"named twice: {', '.join(sorted(twice))}")
        out.update(table)
    return out
