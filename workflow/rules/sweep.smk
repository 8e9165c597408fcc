# Warnsdorff sweep: one job per chunk of start orbits, one Parquet part per job, and each
# board's manifest once all its parts are written (knight.core.dataset). The parts are targets
# too: a deleted part is remade (Snakemake does not remake a missing file no job needs).


rule sweep_chunk:
    output:
        "results/runs/board={board}/part-{chunk}.parquet",
    log:
        "results/logs/sweep/{board}/part-{chunk}.log",
    benchmark:
        "results/benchmarks/sweep/{board}/part-{chunk}.tsv"
    conda:
        "../envs/knight.yaml"
    threads: job_threads()
    resources:
        mem_mb=lambda wc, attempt: sweep_resources(wc, attempt)["mem_mb"],
        runtime=lambda wc, attempt: sweep_resources(wc, attempt)["runtime"],
    params:
        starts=SWEEP["starts"],
        orders=SWEEP["orders"],
        chunk_runs=SWEEP["chunk_runs"],
        engine=SWEEP["engine"],
        code=code("sweep_chunk"),
    script:
        "../scripts/sweep_chunk.py"


rule runs_manifest:
    """Check every runs file of a board (readable, rows of its chunk, columns) and write
    the board's manifest last: from then on the board's dataset is whole."""
    input:
        lambda wc: chunk_files(wc.board),
    output:
        "results/runs/board={board}/_manifest.json",
    log:
        "results/logs/sweep/{board}/manifest.log",
    conda:
        "../envs/knight.yaml"
    resources:
        mem_mb=500,
        runtime=10,
    params:
        starts=SWEEP["starts"],
        orders=SWEEP["orders"],
        chunk_runs=SWEEP["chunk_runs"],
        code=code("runs_manifest"),
    script:
        "../scripts/runs_manifest.py"


SWEEP_TARGETS = [f for b in BOARDS for f in chunk_files(b)] + [f"results/runs/board={b}/_manifest.json" for b in BOARDS]
ALL_TARGETS += [f for b in SWEPT_BOARDS for f in chunk_files(b)] + [
    f"results/runs/board={b}/_manifest.json" for b in SWEPT_BOARDS
]
