# rules stage: the tie-break rules of docs/conventions.md run as studies (rules x boards x
# starts); one job per chunk of bounded work, a manifest per (study, rule) dataset, then
# aggregates and figures. Config: the `rules:` section (knight/pipeline/schemas/rules.schema.yaml).


rule rules_stage:
    """Just the rules stage (snakemake rules_stage)."""
    input:
        PLAN.targets("rules"),


rule rules_chunk:
    """One chunk of a study's runs of one rule: bounded work, one Parquet part (and its times)."""
    output:
        runs=PATTERNS["rules_runs_part"],
        times=PATTERNS["rules_times_part"],
    log:
        path("rules_chunk.log"),
    conda:
        "../envs/knight.yaml"
    threads: PLAN.threads()
    resources:
        mem_mb=lambda wc, attempt: PLAN.rules_resources(wc.study, wc.rule, wc.chunk, attempt)["mem_mb"],
        runtime=lambda wc, attempt: PLAN.rules_resources(wc.study, wc.rule, wc.chunk, attempt)["runtime"],
    params:
        **PLAN.params("rules_chunk"),
    script:
        "../scripts/rules_chunk.py"


rule rules_manifest:
    """Check every part of a (study, rule) dataset against the plan; write its manifest last."""
    input:
        lambda wc: PLAN.rules_parts(wc.study, wc.rule),
    output:
        PATTERNS["rules_manifest"],
    log:
        path("rules_manifest.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=500,
        runtime=10,
    params:
        **PLAN.params("rules_manifest"),
    script:
        "../scripts/rules_manifest.py"


rule rules_tables:
    """Aggregates over every study: completion (with intervals), failures from (1, 1),
    table 57, random-order retries, ends, times, Squirrel-Cull, and the order tables of
    studies over every residual tie order."""
    input:
        manifests=[f"{PLAN.rules_folder(s, r)}/_manifest.json" for s, r in PLAN.rules_datasets],
        times=[f for s, r in PLAN.rules_datasets for f in PLAN.rules_parts(s, r, "times")],
    output:
        **{name: path("rules_tables", name=name, ext="parquet") for name in RULE_TABLES},
        **{f"{name}_csv": path("rules_tables", name=name, ext="csv") for name in RULE_TABLES},
        table57_md=path("rules_tables", name="table57", ext="md"),
        squirrel_cull_md=path("rules_tables", name="squirrel_cull", ext="md"),
        table57_html=report(
            path("rules_tables", name="table57", ext="html"),
            caption="../report/rules_table57.rst",
            category="7. Tie-break rules",
            labels={"table": "57: tours from every start"},
        ),
        squirrel_cull_html=report(
            path("rules_tables", name="squirrel_cull", ext="html"),
            caption="../report/rules_squirrel_cull.rst",
            category="7. Tie-break rules",
            labels={"table": "Squirrel and Cull"},
        ),
    log:
        path("rules_tables.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        **PLAN.params("rules_tables"),
    script:
        "../scripts/rules_tables.py"


rule rules_figures:
    """Completion and time against N per rule, random-order retries, end squares and closed
    starts over N (thesis figures 18-20, 27-28)."""
    input:
        **{name: path("rules_tables", name=name, ext="parquet") for name in ("completion", "times", "retries", "ends")},
    output:
        **{
            f"{name}_png": report(
                path("rules_figures", name=name, ext="png"),
                caption=f"../report/rules_{name}.rst",
                category="7. Tie-break rules",
                labels={"figure": name.replace("_", " ")},
            )
            for name in RULES_FIGURES
        },
        **{f"{name}_svg": path("rules_figures", name=name, ext="svg") for name in RULES_FIGURES},
    log:
        path("rules_figures.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("rules_figures"),
    script:
        "../scripts/rules_figures.py"
