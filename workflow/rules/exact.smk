# exact stage: backtracking tour search from every start (seeds 001, 003) and
# divide-and-conquer closed tours (seed 004). Config: the `exact:` section
# (knight/pipeline/schemas/exact.schema.yaml, checked in knight/pipeline/config.py). Outputs under results/exact/.


rule exact_backtrack_board:
    """Every start of one board, under each pruning level and move ordering."""
    output:
        path("exact_backtrack_board"),
    log:
        path("exact_backtrack_board.log"),
    wildcard_constraints:
        board=r"\d+x\d+",
        tour="open|closed",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=1000,
        runtime=60,
    params:
        **PLAN.params("exact_backtrack_board"),
    script:
        "../scripts/exact_backtrack.py"


rule exact_backtrack_tables:
    """Runs of all boards; totals per board, ordering and pruning; per-start answers
    beside the Warnsdorff sweep (starts where the heuristic never succeeds)."""
    input:
        runs=[
            path("exact_backtrack_board", board=b.name, tour="closed" if closed else "open")
            for b, closed in PLAN.exact.runs.values()
        ],
        starts=PLAN.exact_starts_tables(),
    output:
        **{
            key: path("exact_backtrack_tables", name=name, ext=ext)
            for name in ("runs", "summary", "starts")
            for key, ext in ((name, "parquet"), (f"{name}_csv", "csv"))
        },
    log:
        path("exact_backtrack_tables.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        **PLAN.params("exact_backtrack_tables"),
    script:
        "../scripts/exact_backtrack_tables.py"


rule exact_construct:
    """Build, check and time a closed tour of every configured board by each method."""
    output:
        parquet=path("exact_construct", ext="parquet"),
        csv=path("exact_construct", ext="csv"),
    log:
        path("exact_construct.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        **PLAN.params("exact_construct"),
    script:
        "../scripts/exact_construct.py"


rule exact_tour:
    """One constructed closed tour: step, row, col (1-based)."""
    output:
        path("exact_tour"),
    log:
        path("exact_tour.log"),
    wildcard_constraints:
        board=r"\d+x\d+",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        **PLAN.params("exact_tour"),
    script:
        "../scripts/exact_tour.py"


rule exact_stage:
    """Just the exact stage (snakemake exact_stage)."""
    input:
        PLAN.targets("exact"),
