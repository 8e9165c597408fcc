"""Snakemake script: merge a frontier search's units; its classes and a summary beside OEIS."""

import json
from pathlib import Path

from knight.core.io import atomic_path
from knight.core.published import published
from knight.queens.search import dominate
from knight.queens.tables import classes_frame, write_solutions
from knight.queens.units import Keeping
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
n, k, units = sm.params.instance
# Every unit is on disk: each is verified and read back; one that does not verify fails the job,
# naming the file (the workflow's start-up removes such units, so the next run remakes them).
result = dominate(n, k, tasks=units, store=Keeping(Path(sm.input[0]).parent, repair=False))
if result.resumed != result.tasks:
    raise RuntimeError(f"dominate n={n} k={k}: {result.tasks - result.resumed} unit(s) were searched again")
want, want_classes = published("dominate", n, k)
summary = {
    "n": n,
    "k": k,
    "units": result.tasks,
    "solutions": result.solutions,
    "classes": result.classes,
    "cpu_seconds": round(result.cpu_seconds, 3),
    "published_solutions": want,
    "published_classes": want_classes,
    "matches": (want is None or want == result.solutions) and (want_classes is None or want_classes == result.classes),
}
if not summary["matches"]:
    raise RuntimeError(f"dominate n={n} k={k}: counts differ from the published ones: {summary}")
write_solutions(classes_frame(result), sm.output.classes)
with atomic_path(sm.output.summary) as tmp:
    tmp.write_text(json.dumps(summary, indent=1) + "\n")
log.info("%s", summary)
