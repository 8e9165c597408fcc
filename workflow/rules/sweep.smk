# Warnsdorff sweep: one job per chunk of start orbits, one Parquet file per job, and
# each board's manifest once all its files are written (knight.dataset).


def sweep_resources(wildcards, attempt):
    """Memory (MB) and run time (minutes) of one sweep job, from its runs and board size:
    about 250 MB plus 60 MB per million runs; at most 50 M knight steps per second per
    thread (brute force; the tree engine is faster). Doubled memory on a retry."""
    spec = sweep_spec(wildcards.board)
    runs = spec.chunk_rows()[int(wildcards.chunk)]
    minutes = 5 + runs * spec.board.size / 50e6 / 60 / job_threads()
    return {"mem_mb": int((300 + 60 * runs / 1e6) * attempt), "runtime": int(minutes * attempt)}


rule sweep_chunk:
    output:
        "results/runs/board={board}/part-{chunk}.parquet",
    params:
        starts=SWEEP["starts"],
        orders=SWEEP["orders"],
        chunk_runs=SWEEP["chunk_runs"],
        engine=SWEEP["engine"],
        code=code("sweep_chunk"),
    threads: job_threads()
    resources:
        mem_mb=lambda wc, attempt: sweep_resources(wc, attempt)["mem_mb"],
        runtime=lambda wc, attempt: sweep_resources(wc, attempt)["runtime"],
    log:
        "results/logs/sweep/{board}/part-{chunk}.log",
    benchmark:
        "results/benchmarks/sweep/{board}/part-{chunk}.tsv"
    script:
        "../scripts/sweep_chunk.py"


rule runs_manifest:
    """Check every runs file of a board (readable, rows of its chunk, columns) and write
    the board's manifest last: from then on the board's dataset is whole."""
    input:
        lambda wc: chunk_files(wc.board),
    output:
        "results/runs/board={board}/_manifest.json",
    params:
        starts=SWEEP["starts"],
        orders=SWEEP["orders"],
        chunk_runs=SWEEP["chunk_runs"],
        code=code("runs_manifest"),
    resources:
        mem_mb=500,
        runtime=10,
    log:
        "results/logs/sweep/{board}/manifest.log",
    script:
        "../scripts/runs_manifest.py"


# The parts are targets too: a deleted part is remade (Snakemake does not remake a missing
# file that no job needs), then its manifest and tables follow.
SWEEP_TARGETS = [f for b in BOARDS for f in chunk_files(b)] + [f"results/runs/board={b}/_manifest.json" for b in BOARDS]
ALL_TARGETS += SWEEP_TARGETS
for _b in BOARDS:
    DATASETS[f"results/runs/board={_b}"] = (chunk_files(_b), sweep_spec(_b).chunk_rows(), RUNS_SCHEMA)
