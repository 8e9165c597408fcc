"""One claim's finding from the stored tables of what tests it (the claims stage's job).

Those tables are read where they are used and checked against what their writers
recorded: a rules study's runs dataset against its manifest and seals
(:func:`knight.core.dataset.verify`), a scan's and the queens stage's files by the job's
seal check (:func:`knight.runtime.logs.guard_job`).
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from knight.claims.findings import FINDERS, Finding, not_run
from knight.claims.spec import SCAN_FINDINGS, Claim


def study_runs(manifests) -> pl.LazyFrame:
    """The runs of a rules study's (study, rule) datasets, each verified whole."""
    from knight.core import dataset

    files = [str(p) for m in manifests for p in dataset.verify(Path(m).parent, deep=True)]
    return pl.scan_parquet(files)


def study_seconds(times_files) -> float:
    """Compute seconds of a rules study's chunks (their times tables), summed."""
    return float(pl.concat([pl.read_parquet(f) for f in times_files])["seconds"].sum()) if times_files else 0.0


def queens_counts(counts: str | Path | None = None, summaries=()) -> tuple[pl.DataFrame, float | None]:
    """The queens stage's counts (``counts.parquet``) and frontier searches (summary JSON
    files) as one frame (problem, n, k, solutions, classes), and the searches' seconds
    (one thread each for the counts; CPU seconds summed over the frontier's units)."""
    frames, seconds = [], None
    if counts is not None:
        table = pl.read_parquet(counts)
        frames.append(table.select("problem", "n", "k", "solutions", "classes"))
        if "seconds" in table.columns:
            seconds = float(table["seconds"].sum())
    rows = [json.loads(Path(s).read_text()) for s in summaries]
    if rows:
        seconds = (seconds or 0.0) + float(sum(r["cpu_seconds"] for r in rows))
        frames.append(
            pl.DataFrame(
                [("dominate", r["n"], r["k"], r["solutions"], r["classes"]) for r in rows],
                schema={"problem": pl.String, "n": pl.Int32, "k": pl.Int32, "solutions": pl.Int64, "classes": pl.Int64},
                orient="row",
            )
        )
    frame = pl.concat([f.cast({"n": pl.Int32, "k": pl.Int32}) for f in frames]) if frames else None
    return (frame.unique(["problem", "n", "k"]) if frame is not None else None), seconds


def evaluate(claim: Claim, *, runs=None, scan=None, boards=None, counts=None) -> Finding:
    """The finding of a claim from the tables its finding reads.

    Parameters
    ----------
    claim : Claim
        The claim.
    runs : polars.DataFrame, polars.LazyFrame or None
        A rules study's runs (findings ``tours_from_corner``, ``failures_from_corner``, ``rate``).
    scan : polars.DataFrame or None
        A scan's table (findings ``first_failures``, ``failure_share``).
    boards : Sequence of Board or None
        The scan's boards, with ``scan``.
    counts : polars.DataFrame or None
        The queens stage's counts (finding ``queens_sequence``).

    Returns
    -------
    Finding
        The finding; verdict ``"not run"`` when the table it reads is None.

    Examples
    --------
    >>> import knight
    >>> c = Claim("sc", "S&C", "Tours.", "s", "tours_from_corner", boards=(5, 6))
    >>> evaluate(c, runs=knight.rules.run(5, "squirrel-cull")).verdict
    'holds on 5 (not run: 6)'
    >>> evaluate(c).verdict
    'not run'
    """
    finder = FINDERS[claim.finding]
    if claim.finding in SCAN_FINDINGS:
        return not_run(claim) if scan is None else finder(claim, scan, boards)
    if claim.finding == "queens_sequence":
        return not_run(claim) if counts is None else finder(claim, counts)
    return not_run(claim) if runs is None else finder(claim, runs)
