# Aggregates: per-board tables from a board's whole runs dataset, then one table over all boards.


rule board_tables:
    input:
        manifest=PATTERNS["sweep_manifest"],
    output:
        **{name: path("board_tables", name=name) for name in TABLES},
    log:
        path("board_tables.log"),
    benchmark:
        path("board_tables.benchmark")
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=lambda wc: PLAN.board_mem_mb(wc.board),
        runtime=30,
    params:
        **PLAN.params("board_tables"),
    script:
        "../scripts/board_tables.py"


rule combine_table:
    input:
        expand(path("board_tables"), board=PLAN.boards, allow_missing=True),
    output:
        parquet=path("combine_table", ext="parquet"),
        csv=path("combine_table", ext="csv"),
    log:
        path("combine_table.log"),
    wildcard_constraints:
        name="|".join(TABLES),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        **PLAN.params("combine_table"),
    script:
        "../scripts/combine_table.py"


rule sweep_stage:
    """Just the Warnsdorff sweep and its tables (snakemake sweep_stage)."""
    input:
        PLAN.targets("sweep"),
        PLAN.targets("tables"),
