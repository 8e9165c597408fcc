"""Snakemake script: the rules stage's figures (thesis figures 18-20, 27-28) from its tables."""

import numpy as np
import polars as pl

from knight.board import Board, board_grid
from knight.draw import rule_curves_figure, save, square_multiples_figure
from knight.logs import script_logging

sm = snakemake
log = script_logging(sm)
completion = pl.read_parquet(sm.input.completion).filter(pl.col("rows") == pl.col("cols"))
times = pl.read_parquet(sm.input.times).filter(pl.col("rows") == pl.col("cols"))
retries = pl.read_parquet(sm.input.retries)
ends = pl.read_parquet(sm.input.ends)


def write(fig, name):
    save(fig, sm.output[f"{name}_png"], dpi=sm.params.dpi)
    save(fig, sm.output[f"{name}_svg"])


def by_study(frame, value, low=None, high=None):
    panels = []
    for (study,), part in frame.sort("study", "rule", "rows").group_by(["study"], maintain_order=True):
        curves = {}
        for (rule,), r in part.group_by(["rule"], maintain_order=True):
            curves[rule] = (r["rows"], r[value], r[low] if low and r[low].null_count() == 0 else None,
                            r[high] if high and r[high].null_count() == 0 else None)
        panels.append((f"study {study}", curves))
    return panels


write(rule_curves_figure(by_study(completion, "completion_rate", "ci_low", "ci_high"),
                         ylabel="runs giving a complete tour (%)", percent=True,
                         title="Complete tours against N, by tie-break rule (bands: 95 % intervals of random rules)"),
      "completion")
per_run = times.with_columns((pl.col("seconds") / pl.col("runs")).alias("seconds_per_run"))
write(rule_curves_figure(by_study(per_run, "seconds_per_run"), ylabel="compute time per run (s)", log=True,
                         title="Time of one run against N, by tie-break rule (figures 18-19)"), "time")

panels = []
for (study,), part in retries.sort("study", "rows", "after").group_by(["study"], maintain_order=True):
    sizes = part["rows"].unique().sort().to_list()
    pick = sizes if len(sizes) <= 8 else [sizes[i] for i in np.linspace(0, len(sizes) - 1, 8).round().astype(int)]
    curves = {f"{n}x{n}": (p["after"], p["incomplete_rate"], None, None)
              for (n,), p in part.filter(pl.col("rows").is_in(pick)).group_by(["rows"], maintain_order=True)}
    panels.append((f"study {study}: random-order", curves))
fig = rule_curves_figure(panels or [("no random-order runs", {})], ylabel="runs still incomplete (%)",
                         percent=True, title="Tours still incomplete after a attempts of random-order (figure 20)")
for ax in fig.axes:
    if ax.get_xlabel():
        ax.set_xlabel("attempts a")
write(fig, "retries")

for value, name, what in (("complete_ends", "ends", "complete tours ending on each square (figure 27)"),
                          ("closed_starts", "closed_starts", "closed tours starting on each square (figure 28)")):
    panels = []
    square = ends.filter(pl.col("rows") == pl.col("cols"))
    for (study, rule), part in square.sort("study", "rule").group_by(["study", "rule"], maintain_order=True):
        if rule != "fixed" and "fixed" in square.filter(pl.col("study") == study)["rule"].to_list():
            continue  # one rule per study: fixed when it ran
        sizes = part.filter(pl.col(value) > 0)["rows"].unique().sort().to_list()
        pick = sizes if len(sizes) <= 12 else [sizes[i] for i in np.linspace(0, len(sizes) - 1, 12).round().astype(int)]
        for n in pick:
            p = part.filter(pl.col("rows") == n)
            panels.append((f"{study}/{rule} {n}x{n}", board_grid(Board(n, n), p["square"], p[value], fill=0)))
    write(square_multiples_figure(panels or [("none", np.zeros((1, 1)))], label="share of the board's maximum",
                                  title=f"Tie-break rules: {what}"), name)
log.info("figures written from %d completion rows", completion.height)
