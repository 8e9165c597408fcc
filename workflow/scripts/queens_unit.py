"""Snakemake script: one work unit of a frontier domination search, written to its store:
copied from its committed record (the job's input, when there is one) if that verifies,
else searched."""

from pathlib import Path

from knight.queens.search import dominate
from knight.queens.units import Keeping
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
n, k, units = sm.params.instance
unit = int(sm.wildcards.unit)
store = Path(sm.output[0]).parent
# The store under results/ is the workflow's: one of another plan (from before an upgrade)
# is named in the log and replaced, where the command line would refuse it.
records = Path(sm.input[0]).parent if len(sm.input) else None
result = dominate(n, k, tasks=units, store=Keeping(store, owned=True, records=records), only=[unit])
log.info(
    "dominate n=%d k=%d unit %d of %d: %d sets, %d classes, %.3f CPU s%s",
    n,
    k,
    unit,
    units,
    result.solutions,
    result.classes,
    result.cpu_seconds,
    f", copied from its record in {records}" if result.resumed else "",
)
