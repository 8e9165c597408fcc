# The census's findings (snakemake census): per-board parts from each board's whole runs
# dataset (knight.sweep.census), then the census tables and the report page over every
# configured board. Definitions: docs/census.md. With config/census.yaml this is every
# N x N board from 3 to 64; the runs come from the sweep stage's jobs.


rule census_board:
    """One board's census parts, from a lazy scan of its verified runs dataset."""
    input:
        manifest=PATTERNS["sweep_manifest"],
    output:
        **{name: path("census_board", name=name) for name in CENSUS_PARTS},
    log:
        path("census_board.log"),
    benchmark:
        path("census_board.benchmark")
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=lambda wc: PLAN.board_mem_mb(wc.board),
        runtime=30,
    params:
        **PLAN.params("census_board"),
    script:
        "../scripts/census_board.py"


rule census_tables:
    """The census tables over every configured board, and the report page written from them."""
    input:
        **{name: expand(path("census_board", name=name), board=PLAN.boards) for name in CENSUS_PARTS},
    output:
        **{name: path("census_tables", name=name, ext="parquet") for name in CENSUS_TABLES},
        **{f"{name}_csv": path("census_tables", name=name, ext="csv") for name in CENSUS_TABLES},
        page=path("census_tables", name="census", ext="md"),
    log:
        path("census_tables.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        **PLAN.params("census_tables"),
    script:
        "../scripts/census_tables.py"


rule census_check:
    """Sampled rows of the boards 5x5 .. census.check_largest recomputed by brute force, and
    the totals of 5x5 and 6x6 against the published ones when every start and order is
    swept; fails naming any difference."""
    input:
        [PLAN.sweep_manifest(b) for b in PLAN.census_checked],
    output:
        path("census_check"),
    log:
        path("census_check.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        **PLAN.params("census_check"),
    script:
        "../scripts/census_check.py"


rule census:
    """The census's tables, report page and checks (snakemake census), the sweep included."""
    input:
        PLAN.targets("census"),


rule publish_census:
    """The census's pages as the documentation site's results page (docs/results/census.md):
    snakemake publish_census --configfile=config/census.yaml."""
    input:
        path("census_tables", name="census", ext="md"),
        path("census_check"),
    output:
        path("publish_census"),
    log:
        path("publish_census.log"),
    localrule: True
    conda:
        "../envs/knight.yaml"
    params:
        **PLAN.params("publish_census"),
        header=(
            "Written by the workflow (knight.sweep.census_report, knight.sweep.census_check) from the census "
            "tables of config/census.yaml; regenerate with "
            "`snakemake --cores all publish_census --configfile=config/census.yaml`."
        ),
    script:
        "../scripts/publish_page.py"
