# Warnsdorff sweep: one job per chunk of start orbits, one Parquet file per job.


rule sweep_chunk:
    input:
        code=library_code("board", "orders", "symmetry", "warnsdorff", "tree", "sweep"),
    output:
        "results/runs/board={board}/part-{chunk}.parquet",
    params:
        starts=SWEEP["starts"],
        orders=SWEEP["orders"],
        chunk_runs=SWEEP["chunk_runs"],
        engine=SWEEP["engine"],
        workers=DASK["workers"],
        scheduler=DASK["scheduler"],
    threads: job_threads()
    log:
        "results/logs/sweep/{board}/part-{chunk}.log",
    benchmark:
        "results/benchmarks/sweep/{board}/part-{chunk}.tsv"
    script:
        "../scripts/sweep_chunk.py"


ALL_TARGETS += [f for b in BOARDS for f in chunk_files(b)]
