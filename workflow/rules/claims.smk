# claims stage (snakemake claims; docs/claims.md): published claims checked by the run's own
# result tables. Each claim's finding is one job (it reruns only when the tables it reads or
# the claims code change); first-failure scans run one job per slice of the tie orders.
# Config: the `claims:` section (knight/pipeline/schemas/claims.schema.yaml); config/claims.yaml
# holds the claims of the literature and the studies that test them.


rule claims:
    """The claims table and page (snakemake claims), with everything they read."""
    input:
        PLAN.targets("claims"),


rule claims_scan:
    """One slice of a scan: for each of its tie orders, the first board on which the rule
    fails from (1, 1) (tie tree over the orders still completing), or every such board."""
    input:
        unpack(lambda wc: PLAN.scan_inputs(wc.scan)),
    output:
        part=PATTERNS["scan_part"],
        times=PATTERNS["scan_times"],
    log:
        path("claims_scan.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=2000,
        runtime=600,
    params:
        **PLAN.params("claims_scan"),
    script:
        "../scripts/claims_scan.py"


rule claim_finding:
    """One claim's finding from the stored tables that test it (or not run), and its evidence."""
    input:
        unpack(lambda wc: PLAN.claim_inputs(wc.claim)),
    output:
        finding=path("claim_finding", ext="json"),
        evidence=path("claim_finding", ext="parquet"),
    log:
        path("claim_finding.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        **PLAN.params("claim_finding"),
    script:
        "../scripts/claim_finding.py"


rule claims_table:
    """Every claim beside its finding: results/claims/claims.{parquet,csv,md,html}."""
    input:
        expand(path("claim_finding", ext="json"), claim=list(PLAN.claims)),
    output:
        parquet=path("claims_table", ext="parquet"),
        csv=path("claims_table", ext="csv"),
        md=path("claims_table", ext="md"),
        html=report(
            path("claims_table", ext="html"),
            caption="../report/claims.rst",
            category="8. Claims",
            labels={"table": "claims of the literature"},
        ),
    log:
        path("claims_table.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        **PLAN.params("claims_table"),
    script:
        "../scripts/claims_table.py"


rule publish_claims:
    """The claims' page as the documentation site's results page (docs/results/claims.md):
    snakemake publish_claims --configfile=config/claims.yaml."""
    input:
        path("claims_table", ext="md"),
    output:
        path("publish_claims"),
    log:
        path("publish_claims.log"),
    localrule: True
    conda:
        "../envs/knight.yaml"
    params:
        **PLAN.params("publish_claims"),
        header=(
            "Written by the workflow (knight.claims.table) from the claims' result tables of "
            "config/claims.yaml; regenerate with `snakemake --cores all publish_claims --configfile=config/claims.yaml`."
        ),
    script:
        "../scripts/publish_page.py"
