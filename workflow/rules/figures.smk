# figures stage: pictures of the sweep's findings (thesis chapters 7-8), the thesis's
# tables 58/59 per board and the inputs of the HTML report
# (snakemake --report results/report.html). Config: the `figures:` section
# (knight/pipeline/schemas/figures.schema.yaml, checked in knight/pipeline/config.py). Every
# figure is a PNG (in the report) and an SVG beside it; figures rerun only when their input
# tables, params or code change.
report: "../report/workflow.rst"


rule figures:
    """Every figure, the thesis tables and the report inputs (snakemake figures)."""
    input:
        PLAN.targets("figures"),


rule figure_tour:
    """A drawn Warnsdorff run: chequered board, path through square centres, start/end marked."""
    output:
        png=report(
            path("figure_tour", ext="png"),
            caption="../report/tour.rst",
            category="1. Drawn tours",
            labels={"board": "{tboard}", "start (row, col)": "({row}, {col})", "tie order": "{order}"},
        ),
        svg=path("figure_tour", ext="svg"),
    log:
        path("figure_tour.log"),
    wildcard_constraints:
        tboard=r"\d+x\d+",
        row=r"\d+",
        col=r"\d+",
        order=r"[1-8]{8}",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("figure_tour"),
    script:
        "../scripts/fig_tour.py"


rule figure_board:
    """Per-board heatmaps from the board's ends and starts tables."""
    input:
        ends=path("board_tables", name="ends"),
        starts=path("board_tables", name="starts"),
    output:
        **{
            f"{name}_png": report(
                path("figure_board", name=name, ext="png"),
                caption=f"../report/{name}.rst",
                category="2. Per board",
                subcategory="{board}",
                labels={"board": "{board}", "figure": name.replace("_", " ")},
            )
            for name in BOARD_FIGURES
        },
        **{f"{name}_svg": path("figure_board", name=name, ext="svg") for name in BOARD_FIGURES},
    log:
        path("figure_board.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("figure_board"),
    script:
        "../scripts/fig_board.py"


rule figure_rates:
    """Completion rate and closed rate against N over every configured board."""
    input:
        table=path("combine_table", name="completion", ext="parquet"),
    output:
        png=report(
            path("figure_rates", ext="png"),
            caption="../report/rates.rst",
            category="3. Across boards",
            labels={"figure": "completion and closed rate"},
        ),
        svg=path("figure_rates", ext="svg"),
    log:
        path("figure_rates.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("figure_rates"),
    script:
        "../scripts/fig_rates.py"


rule figure_runtime:
    """Sweep wall time per board (sum of its jobs' benchmark seconds) against N."""
    input:
        completion=path("combine_table", name="completion", ext="parquet"),
        benchmarks=[f for b in PLAN.boards for f in PLAN.sweep_benchmarks(b)],
    output:
        png=report(
            path("figure_runtime", ext="png"),
            caption="../report/runtime.rst",
            category="3. Across boards",
            labels={"figure": "run time"},
        ),
        svg=path("figure_runtime", ext="svg"),
    log:
        path("figure_runtime.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("figure_runtime"),
    script:
        "../scripts/fig_runtime.py"


rule figure_order_images:
    """Per-start outcomes of one order and of its symmetric images g·o, side by side."""
    output:
        png=report(
            path("figure_order_images", ext="png"),
            caption="../report/order_images.rst",
            category="4. Symmetry",
            labels={"board": "{iboard}", "tie order": "{order}"},
        ),
        svg=path("figure_order_images", ext="svg"),
    log:
        path("figure_order_images.log"),
    wildcard_constraints:
        iboard=r"\d+x\d+",
        order=r"[1-8]{8}",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("figure_order_images"),
    script:
        "../scripts/fig_order_images.py"


rule thesis_tables:
    """Tables 58 (orders complete from every start) and 59 (failing orders per start) of one board."""
    input:
        orders=path("board_tables", name="orders"),
        starts=path("board_tables", name="starts"),
    output:
        t58_md=path("thesis_tables", table="table58", ext="md"),
        t58_csv=path("thesis_tables", table="table58", ext="csv"),
        t58_html=report(
            path("thesis_tables", table="table58", ext="html"),
            caption="../report/table58.rst",
            category="5. Thesis tables",
            subcategory="{board}",
            labels={"board": "{board}", "table": "58: orders complete from every start"},
        ),
        t59_md=path("thesis_tables", table="table59", ext="md"),
        t59_csv=path("thesis_tables", table="table59", ext="csv"),
        t59_html=report(
            path("thesis_tables", table="table59", ext="html"),
            caption="../report/table59.rst",
            category="5. Thesis tables",
            subcategory="{board}",
            labels={"board": "{board}", "table": "59: failing orders per start"},
        ),
    log:
        path("thesis_tables.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("thesis_tables"),
    script:
        "../scripts/fig_thesis_tables.py"


rule report_completion:
    """The completion table over all boards as an HTML page for the report."""
    input:
        table=path("combine_table", name="completion", ext="parquet"),
    output:
        report(
            path("report_completion"),
            caption="../report/completion.rst",
            category="3. Across boards",
            labels={"figure": "completion table"},
        ),
    log:
        path("report_completion.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("report_completion"),
    script:
        "../scripts/fig_table_html.py"


rule report_queens:
    """The queens stage's speed-up and efficiency plot, copied into the report."""
    input:
        path("queens_speedup", ext="png"),
    output:
        report(
            path("report_queens"),
            caption="../report/queens.rst",
            category="6. Queens",
            labels={"figure": "speed-up and efficiency"},
        ),
    log:
        path("report_queens.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=500,
        runtime=5,
    params:
        **PLAN.params("report_queens"),
    script:
        "../scripts/report_copy.py"
