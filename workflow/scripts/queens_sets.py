"""Snakemake script: every dominating set and placement of the configured boards, and counts."""

import polars as pl

from knight.core.io import write_frame
from knight.core.published import published
from knight.queens import dominate, place
from knight.queens.tables import SCHEMA, solutions_frame, write_solutions
from knight.runtime.logs import script_logging

COUNT_SCHEMA = {
    "problem": pl.String,
    "n": pl.Int32,
    "k": pl.Int32,
    "solutions": pl.Int64,
    "classes": pl.Int64,
    "published_solutions": pl.Int64,
    "published_classes": pl.Int64,
    "matches": pl.Boolean,
    "seconds": pl.Float64,
}

sm = snakemake
log = script_logging(sm)
frames = {"dominate": [], "place": []}
counts = []
# (problem, n, k, keep): the sets are written; the counts (queens.counts) only counted.
runs = (
    [("dominate", n, k, True) for n, k in sm.params.dominate]
    + [("place", n, n, True) for n in sm.params.place]
    + [("dominate", n, k, False) for n, k in sm.params.count_dominate]
    + [("place", n, n, False) for n in sm.params.count_place]
)
for problem, n, k, keep in runs:
    if problem == "dominate":
        result = dominate(n, k, tasks=sm.params.tasks, keep=keep)
    else:
        result = place(n, tasks=sm.params.tasks, keep=keep)
    if keep:
        frame = solutions_frame(result)
        frames[problem].append(frame)
        # Two independent class counts (kernel test, table orbits) must agree.
        if int(frame["representative"].sum()) != result.classes:
            raise RuntimeError(f"{problem} n={n} k={k}: table and search disagree on classes")
    want, want_classes = published(problem, n, k)
    ok = (want is None or want == result.solutions) and (want_classes is None or want_classes == result.classes)
    counts.append(
        dict(
            problem=problem,
            n=n,
            k=k,
            solutions=result.solutions,
            classes=result.classes,
            published_solutions=want,
            published_classes=want_classes,
            matches=ok,
            seconds=result.seconds,
        )
    )
    log.info(
        "%s n=%d k=%d: %d solutions, %d classes (published %s, %s)",
        problem,
        n,
        k,
        result.solutions,
        result.classes,
        want,
        want_classes,
    )
table = pl.DataFrame(counts, schema=COUNT_SCHEMA, orient="row")
bad = table.filter(~pl.col("matches"))
if len(bad):
    raise RuntimeError(f"counts differ from the published ones:\n{bad}")
for problem in ("dominate", "place"):
    frame = pl.concat(frames[problem]) if frames[problem] else pl.DataFrame(schema=SCHEMA)
    write_solutions(frame, getattr(sm.output, problem))
write_frame(table, sm.output.counts)
