# Aggregates: per-board tables from a board's whole runs dataset, then one table over all boards.


rule board_tables:
    input:
        manifest="results/runs/board={board}/_manifest.json",
    output:
        **{name: f"results/tables/boards/{{board}}/{name}.parquet" for name in TABLES},
    log:
        "results/logs/tables/{board}.log",
    benchmark:
        "results/benchmarks/tables/{board}.tsv"
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=lambda wc: 1000 + sweep_spec(wc.board).runs // 40000,
        runtime=30,
    params:
        starts=SWEEP["starts"],
        code=code("board_tables"),
    script:
        "../scripts/board_tables.py"


rule combine_table:
    input:
        expand("results/tables/boards/{board}/{{name}}.parquet", board=BOARDS),
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
        code=code("combine_table"),
    script:
        "../scripts/combine_table.py"


ALL_TARGETS += expand("results/tables/{name}.{ext}", name=TABLES, ext=["parquet", "csv"])


rule sweep_stage:
    """Just the Warnsdorff sweep and its tables (snakemake sweep_stage)."""
    input:
        SWEEP_TARGETS,
        expand("results/tables/{name}.{ext}", name=TABLES, ext=["parquet", "csv"]),
