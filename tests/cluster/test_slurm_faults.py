"""A Slurm job cancelled mid-chunk: reported failed, nothing partial kept, a rerun equals an
uninterrupted run."""

import os
import subprocess
import time
from pathlib import Path

from slurmkit import env, run, slurm_jobs, slurm_run_id, snakemake_cmd, submitted_in_log, tail, wait_for, write_config

# One chunk of brute-force runs long enough (about 5 s of compute) to be cancelled inside.
SWEEP = {"boards": [40], "starts": [[1, 1], [1, 2], [2, 1], [2, 2]], "engine": "brute", "chunk_runs": 10_000_000}
RUNS = "results/runs/board=40x40/part-0000.parquet"


def chunk_script_running(workdir: Path) -> bool:
    """Whether a process of ``workdir``'s run is executing the sweep_chunk script."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if b"sweep_chunk.py" in cmdline and cwd == str(workdir):
            return True
    return False


def test_cancelled_job_fails_and_a_rerun_gives_identical_results(slurm, tmp_path_factory):
    work, local = tmp_path_factory.mktemp("cancel"), tmp_path_factory.mktemp("local")
    for d in (work, local):
        write_config(d / "cfg.yaml", {"sweep": SWEEP, "dask": {"workers": 1}})
    ref = subprocess.Popen(
        snakemake_cmd(local, local / "cfg.yaml", [RUNS], slurm=False),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )

    log = work / "snakemake.log"
    cmd = snakemake_cmd(work, work / "cfg.yaml", [RUNS], "--retries", "0")
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env())
        try:
            wait_for(lambda: chunk_script_running(work), 120, "the sweep_chunk script to start in its Slurm job")
            time.sleep(2)  # inside the chunk's computation
            assert chunk_script_running(work)
            (jid,) = submitted_in_log(log).values()
            subprocess.run(["scancel", jid], check=True)
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.send_signal(2)
                proc.wait(timeout=60)
    assert proc.returncode != 0, tail(log)
    assert slurm_jobs(slurm_run_id(log))[jid]["JobState"] == "CANCELLED"
    text = log.read_text()
    assert f"SLURM-job '{jid}' failed, SLURM status is: 'CANCELLED'" in text, tail(log)
    folder = (work / RUNS).parent
    assert not (folder.exists() and list(folder.glob("*part-0000*")))  # no output, not even a temporary file

    res = run(cmd, work / "rerun.log", timeout=300)
    assert res.returncode == 0, tail(work / "rerun.log")
    assert len(submitted_in_log(work / "rerun.log")) == 1  # the cancelled chunk was not trusted: redone
    assert ref.wait(timeout=300) == 0
    assert (work / RUNS).read_bytes() == (local / RUNS).read_bytes()
