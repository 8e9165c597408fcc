# queens stage: dominating sets of k queens and N-queens placements, with the
# speed-up S(p) = T(1)/T(p) and efficiency E(p) = S(p)/p of the Dask-split search.
# Config: the `queens:` section (workflow/schemas/queens.schema.yaml).
from pathlib import Path

from snakemake.utils import validate

from knight.queens.checks import check_k, check_n, MAX_DOMINATE_N, MAX_PLACE_N

validate(config.setdefault("queens", {}), str(Path(workflow.current_basedir) / "../schemas/queens.schema.yaml"))
QUEENS = config["queens"]
# Semantic checks the schema cannot express (k <= n*n ...): stop before any job runs.
for _q in QUEENS["instances"]:
    if _q["problem"] == "dominate":
        check_k(_q["k"], check_n(_q["n"], limit=MAX_DOMINATE_N))
    else:
        check_n(_q["n"], limit=MAX_PLACE_N)
for _n, _k in QUEENS["sets"]["dominate"]:
    check_k(_k, check_n(_n, limit=MAX_DOMINATE_N))
for _n in QUEENS["sets"]["place"]:
    check_n(_n, limit=MAX_PLACE_N)

# The library code the results depend on: editing it reruns the stage.
QUEENS_CODE = sorted(str(p) for p in (Path(workflow.current_basedir) / "../../knight/queens").resolve().glob("*.py"))

ALL_TARGETS += [
    "results/queens/timings.parquet",
    "results/queens/speedup.parquet",
    "results/queens/speedup.png",
    "results/queens/dominating_sets.parquet",
    "results/queens/placements.parquet",
    "results/queens/counts.parquet",
]


rule queens_study:
    """Just the queens stage (snakemake queens_study)."""
    input:
        [t for t in ALL_TARGETS if t.startswith("results/queens/")],


rule queens_timings:
    """Time every instance with 1, 2, 4 ... Dask workers (and the serial code), `repeats` times."""
    input:
        code=QUEENS_CODE,
    output:
        parquet="results/queens/timings.parquet",
        csv="results/queens/timings.csv",
    params:
        instances=QUEENS["instances"],
        workers=QUEENS["workers"],
        repeats=QUEENS["repeats"],
        tasks=QUEENS["tasks"],
    threads: QUEENS["max_threads"]
    log:
        "results/queens/logs/timings.log",
    script:
        "../scripts/queens_timings.py"


rule queens_speedup:
    """Medians, S(p), E(p) beside the serial baseline; plot against p with the ideal line."""
    input:
        timings="results/queens/timings.parquet",
        code=QUEENS_CODE,
    output:
        parquet="results/queens/speedup.parquet",
        csv="results/queens/speedup.csv",
        plot="results/queens/speedup.png",
    log:
        "results/queens/logs/speedup.log",
    script:
        "../scripts/queens_speedup.py"


rule queens_sets:
    """Every dominating set and placement of the configured boards, with counts vs published."""
    input:
        code=QUEENS_CODE,
    output:
        dominate="results/queens/dominating_sets.parquet",
        dominate_csv="results/queens/dominating_sets.csv",
        place="results/queens/placements.parquet",
        place_csv="results/queens/placements.csv",
        counts="results/queens/counts.parquet",
        counts_csv="results/queens/counts.csv",
    params:
        dominate=QUEENS["sets"]["dominate"],
        place=QUEENS["sets"]["place"],
        tasks=QUEENS["tasks"],
    log:
        "results/queens/logs/sets.log",
    script:
        "../scripts/queens_sets.py"
