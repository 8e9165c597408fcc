# exact stage: backtracking tour search from every start (seeds 001, 003) and
# divide-and-conquer closed tours (seed 004). Config: the `exact:` section
# (knight/pipeline/schemas/exact.schema.yaml, checked in knight/pipeline/config.py). Outputs under results/exact/.


rule exact_backtrack_board:
    """Every start of one board, under each pruning level and move ordering."""
    output:
        "results/exact/backtrack/{board}-{tour}.parquet",
    log:
        "results/logs/exact/backtrack_{board}-{tour}.log",
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
        runs=[f"results/exact/backtrack/{key}.parquet" for key in PLAN.exact.runs],
        starts=PLAN.exact_starts_tables(),
    output:
        runs="results/exact/backtrack_runs.parquet",
        runs_csv="results/exact/backtrack_runs.csv",
        summary="results/exact/backtrack_summary.parquet",
        summary_csv="results/exact/backtrack_summary.csv",
        starts="results/exact/backtrack_starts.parquet",
        starts_csv="results/exact/backtrack_starts.csv",
    log:
        "results/logs/exact/backtrack_tables.log",
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
        parquet="results/exact/construct.parquet",
        csv="results/exact/construct.csv",
    log:
        "results/logs/exact/construct.log",
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
        "results/exact/tours/{board}.parquet",
    log:
        "results/logs/exact/tour_{board}.log",
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
