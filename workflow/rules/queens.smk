# queens stage: dominating sets of k queens and N-queens placements, with the
# speed-up S(p) = T(1)/T(p) and efficiency E(p) = S(p)/p of the Dask-split search.
# Config: the `queens:` section (knight/pipeline/schemas/queens.schema.yaml), checked in
# knight/pipeline/config.py with every other section.


rule queens_stage:
    """Just the queens stage (snakemake queens_stage)."""
    input:
        PLAN.targets("queens"),


rule queens_timings:
    """Time every instance with 1, 2, 4 ... Dask workers (and the serial code), `repeats` times."""
    output:
        parquet=path("queens_timings", ext="parquet"),
        csv=path("queens_timings", ext="csv"),
    log:
        path("queens_timings.log"),
    conda:
        "../envs/knight.yaml"
    threads: config["queens"]["max_threads"]
    resources:
        mem_mb=2000,
        runtime=PLAN.queens_minutes(),
    params:
        **PLAN.params("queens_timings"),
    script:
        "../scripts/queens_timings.py"


rule queens_speedup:
    """Medians and spread, S(p), E(p) beside the serial baseline; plot against p with the ideal line."""
    input:
        timings=path("queens_timings", ext="parquet"),
    output:
        parquet=path("queens_speedup", ext="parquet"),
        csv=path("queens_speedup", ext="csv"),
        plot=path("queens_speedup", ext="png"),
    log:
        path("queens_speedup.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        **PLAN.params("queens_speedup"),
    script:
        "../scripts/queens_speedup.py"


rule queens_sets:
    """Every dominating set and placement of the configured boards, with counts vs published."""
    output:
        dominate=path("queens_sets", name="dominating_sets", ext="parquet"),
        dominate_csv=path("queens_sets", name="dominating_sets", ext="csv"),
        place=path("queens_sets", name="placements", ext="parquet"),
        place_csv=path("queens_sets", name="placements", ext="csv"),
        counts=path("queens_sets", name="counts", ext="parquet"),
        counts_csv=path("queens_sets", name="counts", ext="csv"),
    log:
        path("queens_sets.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        **PLAN.params("queens_sets"),
    script:
        "../scripts/queens_sets.py"


rule queens_unit:
    """One work unit of a frontier domination search (its result on disk: a rerun resumes);
    its committed record, when the search has `records` and the unit one, is copied instead."""
    input:
        lambda wc: PLAN.frontier_record(wc.search, wc.unit),
    output:
        PATTERNS["frontier_unit"],
    log:
        path("queens_unit.log"),
    wildcard_constraints:
        search=r"dominate-\d+-\d+",
        unit=r"\d{5}",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=1000,
        runtime=120,
    params:
        **PLAN.params("queens_unit"),
    script:
        "../scripts/queens_unit.py"


rule queens_frontier:
    """Merge a frontier search's units: count, classes and their representatives, against OEIS."""
    input:
        lambda wc: PLAN.frontier_units(wc.search),
    output:
        classes=path("queens_frontier", ext="parquet"),
        classes_csv=path("queens_frontier", ext="csv"),
        summary=path("queens_frontier", ext="json"),
    log:
        path("queens_frontier.log"),
    wildcard_constraints:
        search=r"dominate-\d+-\d+",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        **PLAN.params("queens_frontier"),
    script:
        "../scripts/queens_frontier.py"
