"""The files the sweep stage's workflow jobs write (the sweep, its tables, the census), by
name: Snakemake wildcards in braces, and ``{name}``, ``{ext}`` or ``{table}`` where one
job writes several. The workflow combines every stage's
(:data:`knight.pipeline.paths.PATHS`); the ``.smk`` files take their paths from it."""

PATHS = {
    "sweep_part": "results/runs/board={board}/part-{chunk}.parquet",
    "sweep_manifest": "results/runs/board={board}/_manifest.json",
    "sweep_folder": "results/runs/board={board}",
    "sweep_chunk.log": "results/logs/sweep/{board}/part-{chunk}.log",
    "sweep_chunk.benchmark": "results/benchmarks/sweep/{board}/part-{chunk}.tsv",
    "runs_manifest.log": "results/logs/sweep/{board}/manifest.log",
    "board_tables": "results/tables/boards/{board}/{name}.parquet",
    "board_tables.log": "results/logs/tables/{board}.log",
    "board_tables.benchmark": "results/benchmarks/tables/{board}.tsv",
    "combine_table": "results/tables/{name}.{ext}",
    "combine_table.log": "results/logs/tables/{name}.log",
    "census_board": "results/census/boards/{board}/{name}.parquet",
    "census_board.log": "results/logs/census/{board}.log",
    "census_board.benchmark": "results/benchmarks/census/{board}.tsv",
    "census_tables": "results/census/{name}.{ext}",
    "census_tables.log": "results/logs/census/tables.log",
    "census_check": "results/census/check.md",
    "census_check.log": "results/logs/census/check.log",
    "publish_census": "docs/results/census.md",
    "publish_census.log": "results/logs/census/publish.log",
}
