# Warnsdorff sweep: one job per chunk of start orbits, one Parquet part per job, and each
# board's manifest once all its parts are written (knight.core.dataset). The parts are targets
# too: a deleted part is remade (Snakemake does not remake a missing file no job needs).


rule sweep_chunk:
    output:
        PATTERNS["sweep_part"],
    log:
        path("sweep_chunk.log"),
    benchmark:
        path("sweep_chunk.benchmark")
    conda:
        "../envs/knight.yaml"
    threads: PLAN.threads()
    resources:
        mem_mb=lambda wc, attempt: PLAN.sweep_resources(wc.board, wc.chunk, attempt)["mem_mb"],
        runtime=lambda wc, attempt: PLAN.sweep_resources(wc.board, wc.chunk, attempt)["runtime"],
    params:
        **PLAN.params("sweep_chunk"),
    script:
        "../scripts/sweep_chunk.py"


rule runs_manifest:
    """Check every runs file of a board (readable, rows of its chunk, columns) and write
    the board's manifest last: from then on the board's dataset is whole."""
    input:
        lambda wc: PLAN.sweep_parts(wc.board),
    output:
        PATTERNS["sweep_manifest"],
    log:
        path("runs_manifest.log"),
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=500,
        runtime=10,
    params:
        **PLAN.params("runs_manifest"),
    script:
        "../scripts/runs_manifest.py"
