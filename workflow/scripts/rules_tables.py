"""Snakemake script: the rules stage's aggregate tables over every study (knight.rules.tables)."""

from pathlib import Path

import polars as pl

from knight.core import dataset
from knight.core.board import Board
from knight.core.io import atomic_path, write_frame
from knight.report.text import html_table, markdown
from knight.rules import tables as rule_tables
from knight.runtime.logs import script_logging
from knight.sweep.tables import board_tables

sm = snakemake
log = script_logging(sm)
studies = sm.params.studies


def study_runs(manifest: str) -> pl.LazyFrame:
    folder = Path(manifest).parent
    info = dataset.read_manifest(folder)
    files = [str(p) for p in dataset.verify(folder, deep=True)]
    return pl.scan_parquet(files).with_columns(pl.lit(info["study"]).alias("study"))


runs = pl.concat([study_runs(m) for m in sm.input.manifests], how="vertical")
single = pl.col("study").is_in([n for n, s in studies.items() if s["orders"] == "default"])
every_start = pl.col("study").is_in([n for n, s in studies.items() if s["starts"] == "all"])

times = pl.concat(
    [pl.scan_parquet(p).with_columns(pl.lit(Path(p).parts[-3].split("=", 1)[1]).alias("study")) for p in sm.input.times]
)
tables = {
    "completion": rule_tables.completion(runs),
    "failures": rule_tables.failures(runs.filter(single)),
    "table57": rule_tables.table57(runs.filter(single & every_start & rule_tables.DETERMINISTIC)),
    "retries": rule_tables.retries(runs.filter(single)),
    "ends": rule_tables.ends(runs.filter(single & every_start)),
    "times": rule_tables.times(times),
    "squirrel_cull": rule_tables.squirrel_cull(runs.filter(pl.col("rule") == "squirrel-cull")),
}
frames = dict(zip(tables, pl.collect_all(list(tables.values()))))

# Studies over many tie orders: the sweep's order table (table 58) per study, rule and board,
# with the symmetry check (orders of one class agree) when every start was run.
order_frames = []
many = (
    runs.filter(~single)
    .select("study", "rule", "rows", "cols")
    .unique()
    .collect()
    .sort("study", "rule", "rows", "cols")
)
for study, rule, rows, cols in many.iter_rows():
    part = runs.filter(
        (pl.col("study") == study) & (pl.col("rule") == rule) & (pl.col("rows") == rows) & (pl.col("cols") == cols)
    )
    got = board_tables(part, Board(rows, cols), check_classes=studies[study]["starts"] == "all")
    order_frames.append(got["orders"].select(pl.lit(study).alias("study"), pl.lit(rule).alias("rule"), pl.all()))
    log.info(
        "%s/%s %dx%d: %d orders complete from every start", study, rule, rows, cols, got["orders"]["complete_all"].sum()
    )
frames["orders"] = (
    pl.concat(order_frames)
    if order_frames
    else pl.DataFrame(
        schema={
            "study": pl.String,
            "rule": pl.String,
            "rows": pl.UInt16,
            "cols": pl.UInt16,
            "order": pl.UInt16,
            "order_string": pl.String,
            "class_id": pl.UInt16,
            "starts": pl.UInt32,
            "complete": pl.UInt32,
            "closed": pl.UInt32,
            "complete_all": pl.Boolean,
        }
    )
)

for name, frame in frames.items():
    flat = frame.with_columns(pl.col(c).list.join(" ") for c, t in frame.schema.items() if t == pl.List(pl.String))
    write_frame(frame, sm.output[name], csv=False)
    with atomic_path(sm.output[f"{name}_csv"]) as tmp:
        flat.write_csv(tmp)
    log.info("%s: %d rows", name, frame.height)


def write_text(path, text):
    with atomic_path(path) as tmp:
        tmp.write_text(text)


t57 = (
    frames["table57"]
    .with_columns(
        pl.format("{}x{}", "rows", "cols").alias("board"),
        pl.col("closed_starts").list.head(8).list.join(" ").alias("closing starts (first 8)"),
    )
    .select("study", "rule", "board", "starts", "complete", "closed", "closing starts (first 8)")
)
write_text(
    sm.output.table57_md,
    "# Table 57: tours from every start under one order\n\n"
    "Per board: starts run, complete tours, closed tours, and the first closing starts (row, col).\n\n"
    + markdown(t57, empty="No study runs one order from every start."),
)
sc = frames["squirrel_cull"]
failing = sc.filter(~pl.col("complete"))
CLAIMS = (
    "Published claims. Squirrel and Cull (1996) conjecture that Warnsdorff's rule with their switched "
    "orders gives a knight's tour on every square board of side 5 or more; their repository "
    "(douglassquirrel/warnsdorff) states it as a conjecture, proved for m = 7 (mod 8) by S. Ganzfried "
    "('A new algorithm for knight's tours', REU report, Oregon State University), who gives empirical "
    "evidence for the other cases; warnsdorff.com offers the algorithm's tours of boards 5 to 1000."
)
boards = f"{sc.height} boards run ({', '.join(sorted(set(sc['study'])))})"
if failing.height:
    ms = ", ".join(f"m = {m} ({v:,} of {q:,} squares)" for m, v, q in failing.select("m", "visited", "squares").rows())
    verdict = (
        f"{boards}: every one gives a full tour except {ms}. Their own program (config.py and tour.py of "
        "that repository, restated) stops on the same square, so the table as published does not give a "
        "tour there: a counter-example to the claim of tours for every board up to 1000."
    )
else:
    verdict = f"{boards}: every one gives a full tour, as claimed."
write_text(
    sm.output.squirrel_cull_md,
    "# Squirrel and Cull's switched orders from (1, 1)\n\n"
    + CLAIMS
    + "\n\n"
    + verdict
    + "\n\n"
    + markdown(failing.select("study", "m", "visited", "squares", "covered"), empty="No board without a full tour."),
)
write_text(
    sm.output.squirrel_cull_html,
    html_table(
        failing.select("study", "m", "visited", "squares", "covered"),
        title="Squirrel and Cull's switched orders: boards without a full tour",
        note=CLAIMS + " " + verdict,
        empty="No board without a full tour.",
    ),
)
write_text(
    sm.output.table57_html,
    html_table(
        t57,
        title="Table 57: tours from every start under one order",
        note="Per board: starts run, complete tours, closed tours, first closing starts (row, col).",
        empty="No study runs one order from every start.",
    ),
)
