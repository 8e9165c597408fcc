# Aggregates: per-board tables from a board's whole runs dataset, then one table over all boards.


rule board_tables:
    input:
        manifest=PATTERNS["sweep_manifest"],
    output:
        **{name: f"results/tables/boards/{{board}}/{name}.parquet" for name in TABLES},
    log:
        "results/logs/tables/{board}.log",
    benchmark:
        "results/benchmarks/tables/{board}.tsv"
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
        expand("results/tables/boards/{board}/{{name}}.parquet", board=PLAN.boards),
    output:
        parquet="results/tables/{name}.parquet",
        csv="results/tables/{name}.csv",
    log:
        "results/logs/tables/{name}.log",
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
