"""The claims table: one row per claim (source, claim, finding, verdict, the range tested,
the compute time of what tests it, the command that remakes it), and its report page.

>>> c = Claim("sc", "Squirrel & Cull (1996)", "Tours.", "sc-corner", "tours_from_corner", boards=(5,))
>>> row = claim_row(c, not_run(c))
>>> row["verdict"], row["command"]
('not run', 'snakemake --cores all results/claims/claim/sc.json --configfile config/claims.yaml')
"""

from __future__ import annotations

import polars as pl

from knight.claims.findings import Finding, not_run
from knight.claims.spec import Claim

#: Columns of the claims table, in order.
SCHEMA = {
    "key": pl.String,
    "source": pl.String,
    "claim": pl.String,
    "tested_by": pl.String,
    "finding": pl.String,
    "verdict": pl.String,
    "counterexample": pl.String,
    "tested": pl.String,
    "seconds": pl.Float64,
    "command": pl.String,
}


def claim_row(claim: Claim, finding: Finding, seconds: float | None = None) -> dict:
    """The claims-table row of one claim and its finding (``seconds``: the
    compute time of what tests it, summed over its jobs)."""
    return {
        "key": claim.key,
        "source": claim.source,
        "claim": claim.claim,
        "tested_by": claim.tested_by,
        "finding": finding.finding,
        "verdict": finding.verdict,
        "counterexample": finding.counterexample,
        "tested": finding.tested,
        "seconds": None if seconds is None else float(seconds),
        "command": claim.command(),
    }


def claims_frame(rows) -> pl.DataFrame:
    """The claims table from rows of :func:`claim_row`, in the order given."""
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")


def _time(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def claims_page(frame: pl.DataFrame) -> str:
    """Markdown: each claim beside what the pipeline found, then the summary table."""
    counts = frame.group_by("verdict").len().sort("verdict")
    tally = ", ".join(f"{v}: {n}" for v, n in counts.iter_rows())
    out = [
        "# Claims of the literature, checked by the pipeline",
        "",
        f"{frame.height} claims ({tally}). Each finding is computed from the result tables of the "
        "study, scan or stage that tests it (docs/claims.md); *not run*: that is not in this run's "
        "configuration.",
        "",
    ]
    for r in frame.iter_rows(named=True):
        out += [
            f"## {r['key']}: {r['verdict']}",
            "",
            f"- **Source**: {r['source']}",
            f"- **Claim**: {r['claim']}",
            f"- **Found**: {r['finding']}",
        ]
        if r["counterexample"]:
            out.append(f"- **Counter-example**: {r['counterexample']}")
        out += [
            f"- **Tested**: {r['tested']} (by `{r['tested_by']}`, {_time(r['seconds'])} of compute)",
            f"- **Reproduce**: `{r['command']}`",
            "",
        ]
    return "\n".join(out)


__all__ = ["SCHEMA", "claim_row", "claims_frame", "claims_page", "not_run"]
