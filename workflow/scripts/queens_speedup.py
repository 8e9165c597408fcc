"""Snakemake script: speed-up and efficiency table and plot from timings.parquet."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from knight.io import atomic_path, write_frame
from knight.logs import script_logging
from knight.queens.study import speedup_table

sm = snakemake
log = script_logging(sm)
table = speedup_table(pl.read_parquet(sm.input.timings))
write_frame(table, sm.output.parquet)

measured = table.filter(pl.col("seconds").is_not_null())
fig, (ax_s, ax_e) = plt.subplots(1, 2, figsize=(10, 4.2), constrained_layout=True)
ps = sorted(set(measured["workers"].to_list())) or [1]
ax_s.plot(ps, ps, "k--", lw=1, label="ideal S(p) = p")
ax_e.plot(ps, [1.0] * len(ps), "k--", lw=1, label="ideal E(p) = 1")
for (name,), part in measured.sort("workers").group_by(["instance"], maintain_order=True):
    t1 = part.filter(pl.col("workers") == 1)["seconds"]
    label = f"{name} (T(1) = {t1[0]:.2f} s)" if len(t1) else name
    (line,) = ax_s.plot(part["workers"], part["speedup"], "o-", label=label)
    ax_e.plot(part["workers"], part["efficiency"], "o-", color=line.get_color(), label=label)
    # Best runs, dotted: less sensitive to other load on a shared machine.
    ax_s.plot(part["workers"], part["speedup_best"], "o:", mfc="none", color=line.get_color(), alpha=0.6)
    ax_e.plot(part["workers"], part["efficiency_best"], "o:", mfc="none", color=line.get_color(), alpha=0.6)
ax_s.set(xlabel="workers p", ylabel="speed-up S(p) = T(1) / T(p)",
         title="Speed-up (solid: medians, dotted: best runs)")
ax_e.set(xlabel="workers p", ylabel="efficiency E(p) = S(p) / p", title="Efficiency",
         ylim=(0, 1.15))
for ax in (ax_s, ax_e):
    ax.set_xticks(ps)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
skipped = table.filter(pl.col("seconds").is_null())["note"].drop_nulls().unique().to_list()
if skipped:
    fig.suptitle("; ".join(skipped), fontsize=8)
with atomic_path(sm.output.plot) as tmp:
    fig.savefig(tmp, dpi=120, format="png")
log.info("\n%s", table)
