# The census's findings (snakemake census): per-board parts from each board's whole runs
# dataset (knight.sweep.census), then the census tables and the report page over every
# configured board. Definitions: docs/census.md. With config/census.yaml this is every
# N x N board from 3 to 64; the runs come from the sweep stage's jobs.


rule census_board:
    """One board's census parts, from a lazy scan of its verified runs dataset."""
    input:
        manifest="results/runs/board={board}/_manifest.json",
    output:
        **{name: f"results/census/boards/{{board}}/{name}.parquet" for name in CENSUS_PARTS},
    log:
        "results/logs/census/{board}.log",
    benchmark:
        "results/benchmarks/census/{board}.tsv"
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=lambda wc: 1000 + sweep_spec(wc.board).runs // 40000,
        runtime=30,
    params:
        code=code("census_board"),
    script:
        "../scripts/census_board.py"


rule census_tables:
    """The census tables over every configured board, and the report page written from them."""
    input:
        **{
            name: expand("results/census/boards/{board}/{name}.parquet", board=BOARDS, name=name)
            for name in CENSUS_PARTS
        },
    output:
        **{name: f"results/census/{name}.parquet" for name in CENSUS_TABLES},
        **{f"{name}_csv": f"results/census/{name}.csv" for name in CENSUS_TABLES},
        page="results/census/census.md",
    log:
        "results/logs/census/tables.log",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        code=code("census_tables"),
    script:
        "../scripts/census_tables.py"


rule census_check:
    """Sampled rows of the boards 5x5 .. census.check_largest recomputed by brute force, and
    the totals of 5x5 and 6x6 against the published ones when every start and order is
    swept; fails naming any difference."""
    input:
        expand("results/runs/board={board}/_manifest.json", board=CENSUS_CHECKED),
    output:
        "results/census/check.md",
    log:
        "results/logs/census/check.log",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        boards=CENSUS_CHECKED,
        samples=CENSUS["check_samples"],
        seed=CENSUS["check_seed"],
        whole=SWEEP["starts"] == "all" and SWEEP["orders"] == "all",
        code=code("census_check"),
    script:
        "../scripts/census_check.py"


rule census:
    """The census's tables, report page and checks (snakemake census), the sweep included."""
    input:
        expand("results/census/{name}.{ext}", name=CENSUS_TABLES, ext=["parquet", "csv"]),
        "results/census/census.md",
        "results/census/check.md",
