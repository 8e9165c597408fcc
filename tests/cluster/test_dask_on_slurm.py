"""The sweep against a Dask cluster that runs as a Slurm job (the profile's launcher).

The cluster is started with `sbatch dask-cluster.sbatch SCHEDULER_FILE`; the workflow
finds it through `dask.scheduler_file`, and its sweep jobs, themselves Slurm jobs, take
one core each. The runs equal a local run's byte for byte. A worker that dies on every
task makes the job fail with Dask's KilledWorker, not hang.
"""

import subprocess
import time
from pathlib import Path

import pytest
from slurmkit import (
    ORDERS,
    DaskOnSlurm,
    files,
    rule_of,
    run,
    slurm_jobs,
    slurm_run_id,
    snakemake_cmd,
    tail,
    write_config,
)

SWEEP = {"boards": [5, "3x4"], "orders": ORDERS, "chunk_runs": 120}
RUNS = [
    "results/runs/board=5x5/part-0000.parquet",
    "results/runs/board=5x5/part-0001.parquet",
    "results/runs/board=3x4/part-0000.parquet",
]


@pytest.fixture
def dask_cluster(slurm, tmp_path):
    """A Dask cluster of one worker as a Slurm job; cancelled after the test."""
    cluster = DaskOnSlurm(tmp_path)
    yield cluster
    cluster.stop()


def test_sweep_on_a_dask_cluster_on_slurm(dask_cluster, tmp_path_factory):
    on_slurm, local = tmp_path_factory.mktemp("dask"), tmp_path_factory.mktemp("local")
    write_config(on_slurm / "cfg.yaml", {"sweep": SWEEP, "dask": {"scheduler_file": str(dask_cluster.file)}})
    write_config(local / "cfg.yaml", {"sweep": SWEEP, "dask": {"workers": 1}})
    with open(local / "snakemake.log", "w") as out:
        ref = subprocess.Popen(
            snakemake_cmd(local, local / "cfg.yaml", RUNS, slurm=False), stdout=out, stderr=subprocess.STDOUT
        )
        dask_cluster.wait_for_workers(1)
        log = on_slurm / "snakemake.log"
        res = run(snakemake_cmd(on_slurm, on_slurm / "cfg.yaml", RUNS), log, timeout=300)
        assert ref.wait(timeout=300) == 0, tail(local / "snakemake.log")
    assert res.returncode == 0, tail(log)
    assert dask_cluster.state() == "RUNNING"

    jobs = slurm_jobs(slurm_run_id(log))
    assert sorted(rule_of(j) for j in jobs.values()) == ["sweep_chunk"] * len(RUNS)
    assert {j["NumCPUs"] for j in jobs.values()} == {"1"}  # the Dask workers do the work
    for path in RUNS:
        sweep_log = (
            on_slurm / "results/logs/sweep" / Path(path).parent.name.removeprefix("board=") / (Path(path).stem + ".log")
        )
        assert f"compute on {dask_cluster.file}" in sweep_log.read_text()
        assert (on_slurm / path).read_bytes() == (local / path).read_bytes(), path
    assert files(on_slurm / "results/runs").keys() == files(local / "results/runs").keys()


def test_a_dying_worker_fails_the_job_clearly(slurm, tmp_path):
    """A worker SIGKILLed on every task: the job ends with KilledWorker, and no output."""
    preload = Path(__file__).with_name("dying_worker.py")
    cluster = DaskOnSlurm(tmp_path, worker_args=["--preload", str(preload)])
    try:
        cluster.wait_for_workers(1)
        write_config(tmp_path / "cfg.yaml", {"sweep": SWEEP, "dask": {"scheduler_file": str(cluster.file)}})
        log = tmp_path / "snakemake.log"
        t0 = time.monotonic()
        res = run(snakemake_cmd(tmp_path, tmp_path / "cfg.yaml", RUNS[2:], "--retries", "0"), log, timeout=240)
        seconds = time.monotonic() - t0
    finally:
        cluster.stop()
    assert res.returncode != 0, tail(log)
    (job,) = slurm_jobs(slurm_run_id(log)).values()
    assert job["JobState"] == "FAILED"
    job_logs = list((tmp_path / "results/logs/slurm/rule_sweep_chunk").rglob("*.log"))
    text = "\n".join(p.read_text() for p in job_logs)
    assert "KilledWorker" in text and "workers died while running it" in text, text[-3000:]
    assert not (tmp_path / RUNS[2]).exists()
    assert seconds < 200
