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
        "results/logs/rules/{study}/{rule}/part-{chunk}.log",
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
        "results/logs/rules/{study}/{rule}/manifest.log",
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
        **{name: f"results/rules/tables/{name}.parquet" for name in RULE_TABLES},
        **{f"{name}_csv": f"results/rules/tables/{name}.csv" for name in RULE_TABLES},
        table57_md="results/rules/tables/table57.md",
        squirrel_cull_md="results/rules/tables/squirrel_cull.md",
        table57_html=report(
            "results/rules/tables/table57.html",
            caption="../report/rules_table57.rst",
            category="7. Tie-break rules",
            labels={"table": "57: tours from every start"},
        ),
        squirrel_cull_html=report(
            "results/rules/tables/squirrel_cull.html",
            caption="../report/rules_squirrel_cull.rst",
            category="7. Tie-break rules",
            labels={"table": "Squirrel and Cull"},
        ),
    log:
        "results/logs/rules/tables.log",
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
        completion="results/rules/tables/completion.parquet",
        times="results/rules/tables/times.parquet",
        retries="results/rules/tables/retries.parquet",
        ends="results/rules/tables/ends.parquet",
    output:
        **{
            f"{name}_png": report(
                f"results/rules/figures/{name}.png",
                caption=f"../report/rules_{name}.rst",
                category="7. Tie-break rules",
                labels={"figure": name.replace("_", " ")},
            )
            for name in RULES_FIGURES
        },
        **{f"{name}_svg": f"results/rules/figures/{name}.svg" for name in RULES_FIGURES},
    log:
        "results/logs/rules/figures.log",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        **PLAN.params("rules_figures"),
    script:
        "../scripts/rules_figures.py"
