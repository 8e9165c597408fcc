"""Every path the workflow's jobs write, by name: each stage's ``paths`` module combined
(a name two stages give is refused), filled in by :func:`path`."""

from __future__ import annotations

import re

from knight.claims.paths import PATHS as CLAIMS_PATHS
from knight.exact.paths import PATHS as EXACT_PATHS
from knight.pipeline.jobs.common import combined
from knight.queens.paths import PATHS as QUEENS_PATHS
from knight.report.paths import PATHS as REPORT_PATHS
from knight.rules.paths import PATHS as RULES_PATHS
from knight.sweep.paths import PATHS as SWEEP_PATHS

#: Root of every result.
RESULTS = "results"


#: Every path the workflow's jobs write, by name, from each stage's ``paths`` module:
#: ``RULE`` or ``RULE.OUTPUT`` for outputs, ``RULE.log`` and ``RULE.benchmark``.
PATHS = combined(SWEEP_PATHS, RULES_PATHS, QUEENS_PATHS, EXACT_PATHS, CLAIMS_PATHS, REPORT_PATHS)


def path(key: str, /, **fields) -> str:
    """The path named ``key`` in :data:`PATHS` with ``fields`` filled in; the other
    fields stay Snakemake wildcards.

    >>> path("board_tables", name="ends")
    'results/tables/boards/{board}/ends.parquet'
    >>> path("board_tables", board="5x5", name="ends")
    'results/tables/boards/5x5/ends.parquet'
    """
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), PATHS[key])


#: The jobs that make many files of one kind (:meth:`Plan.why_not_planned`).
PATTERNS = {
    name: PATHS[name]
    for name in (
        "sweep_part",
        "sweep_manifest",
        "rules_runs_part",
        "rules_times_part",
        "rules_manifest",
        "frontier_unit",
        "scan_part",
        "scan_times",
    )
}


__all__ = ["PATHS", "PATTERNS", "RESULTS", "path"]
