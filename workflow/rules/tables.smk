# Aggregates: per-board tables from the runs files, then one table over all boards.


rule board_tables:
    input:
        runs=lambda w: chunk_files(w.board),
        code=library_code("tables", "symmetry"),
    output:
        **{name: f"results/tables/boards/{{board}}/{name}.parquet" for name in TABLES},
    params:
        starts=SWEEP["starts"],
    log:
        "results/logs/tables/{board}.log",
    script:
        "../scripts/board_tables.py"


rule combine_table:
    input:
        expand("results/tables/boards/{board}/{{name}}.parquet", board=BOARDS),
    output:
        parquet="results/tables/{name}.parquet",
        csv="results/tables/{name}.csv",
    wildcard_constraints:
        name="|".join(TABLES),
    log:
        "results/logs/tables/{name}.log",
    script:
        "../scripts/combine_table.py"


ALL_TARGETS += expand("results/tables/{name}.{ext}", name=TABLES, ext=["parquet", "csv"])


rule sweep_study:
    """Just the Warnsdorff sweep and its tables (snakemake sweep_study)."""
    input:
        [f for b in BOARDS for f in chunk_files(b)],
        expand("results/tables/{name}.{ext}", name=TABLES, ext=["parquet", "csv"]),
