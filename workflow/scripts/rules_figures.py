"""Snakemake script: the rules stage's figures (thesis figures 18-20, 27-28) from its tables."""

import numpy as np
import polars as pl

from knight.core.board import Board, board_grid
from knight.report.figures import rule_curves_figure, save, square_multiples_figure
from knight.runtime.logs import script_logging

sm = snakemake
log = script_logging(sm)
completion = pl.read_parquet(sm.input.completion).filter(pl.col("rows") == pl.col("cols"))
times = pl.read_parquet(sm.input.times).filter(pl.col("rows") == pl.col("cols"))
retries = pl.read_parquet(sm.input.retries)
ends = pl.read_parquet(sm.input.ends)


def write(fig, name):
    save(fig, sm.output[f"{name}_png"], dpi=sm.params.dpi)
    save(fig, sm.output[f"{name}_svg"])


def panels(frame, value, *, band=False, events=False):
    """Per study: lines (one per rule) against N; a single board as bars; with ``events``,
    rules run once a board (deterministic, from one start) as marks where they fail."""
    out = []
    for (study,), part in frame.sort("study", "rule", "rows").group_by(["study"], maintain_order=True):
        if part["rows"].n_unique() == 1:
            out.append(
                (f"study {study} ({part['rows'][0]}x{part['rows'][0]})", "bars", dict(zip(part["rule"], part[value])))
            )
            continue
        lines, marks = {}, {}
        for (rule,), r in part.group_by(["rule"], maintain_order=True):
            if events and (r["runs"] == 1).all():
                marks[rule] = (r["rows"].to_numpy(), ~(r["complete"] == 1).to_numpy())
            else:
                ci = band and r["ci_low"].null_count() == 0
                lines[rule] = (r["rows"], r[value], r["ci_low"] if ci else None, r["ci_high"] if ci else None)
        if lines:
            out.append((f"study {study}", "lines", lines))
        if marks:
            out.append((f"study {study}", "events", marks))
    return out


write(
    rule_curves_figure(
        panels(completion, "completion_rate", band=True, events=True),
        ylabel="runs giving a complete tour (%)",
        percent=True,
        title="Complete tours against N, by tie-break rule (bands: 95 % intervals of random rules)",
    ),
    "completion",
)
per_run = times.with_columns((pl.col("seconds") / pl.col("runs")).alias("seconds_per_run"))
write(
    rule_curves_figure(
        panels(per_run, "seconds_per_run"),
        ylabel="compute time per run (s)",
        log=True,
        title="Time of one run against N, by tie-break rule (figures 18-19)",
    ),
    "time",
)

curves = []
for (study,), part in retries.sort("study", "rows", "after").group_by(["study"], maintain_order=True):
    sizes = part["rows"].unique().sort().to_list()
    pick = sizes if len(sizes) <= 8 else [sizes[i] for i in np.linspace(0, len(sizes) - 1, 8).round().astype(int)]
    lines = {
        f"{n}x{n}": (p["after"], p["incomplete_rate"], None, None)
        for (n,), p in part.filter(pl.col("rows").is_in(pick)).group_by(["rows"], maintain_order=True)
    }
    curves.append((f"study {study}: random-order", "lines", lines))
write(
    rule_curves_figure(
        curves or [("no random-order runs", "lines", {})],
        ylabel="runs still incomplete (%)",
        percent=True,
        xlabel="attempts a",
        title="Tours still incomplete after a attempts of random-order (figure 20)",
    ),
    "retries",
)

for value, name, what in (
    ("complete_ends", "ends", "complete tours ending on each square (figure 27)"),
    ("closed_starts", "closed_starts", "closed tours starting on each square (figure 28)"),
):
    grids = []
    square = ends.filter(pl.col("rows") == pl.col("cols"))
    for (study, rule), part in square.sort("study", "rule").group_by(["study", "rule"], maintain_order=True):
        if rule != "fixed" and "fixed" in square.filter(pl.col("study") == study)["rule"].to_list():
            continue  # one rule per study: fixed when it ran
        sizes = part.filter(pl.col(value) > 0)["rows"].unique().sort().to_list()
        pick = sizes if len(sizes) <= 12 else [sizes[i] for i in np.linspace(0, len(sizes) - 1, 12).round().astype(int)]
        for n in pick:
            p = part.filter(pl.col("rows") == n)
            grids.append((f"{study}/{rule} {n}x{n}", board_grid(Board(n, n), p["square"], p[value], fill=0)))
    write(
        square_multiples_figure(
            grids or [("none", np.zeros((1, 1)))],
            label="share of the board's maximum",
            title=f"Tie-break rules: {what}",
        ),
        name,
    )
log.info("figures written from %d completion rows", completion.height)
