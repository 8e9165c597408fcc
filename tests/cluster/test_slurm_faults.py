"""A Slurm job cancelled mid-chunk: reported failed, nothing partial kept, a rerun equals an
uninterrupted run."""

import os
import subprocess
from pathlib import Path

from slurmkit import env, run, slurm_jobs, slurm_run_id, snakemake_cmd, submitted_in_log, tail, wait_for, write_config

# One chunk of brute-force runs, 9 starts x 40,320 orders on 80x80: about 12 s of one core,
# so a cancel sent 2 CPU-seconds into the script lands inside the computation.
STARTS = [[r, c] for r in (1, 2, 3) for c in (1, 2, 3)]  # every board of the default config has them
SWEEP = {"boards": [80], "starts": STARTS, "engine": "brute", "chunk_runs": 10_000_000}
RUNS = "results/runs/board=80x80/part-0000.parquet"
INSIDE_CPU_S = 2.0  # the script's imports take about 1 CPU-second


def chunk_script_cpu(workdir: Path) -> float | None:
    """CPU seconds used so far by the process of ``workdir``'s run executing the sweep_chunk
    script, or None when no such process runs."""
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if b"sweep_chunk.py" in cmdline and cwd == str(workdir):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            return (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return None


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
            wait_for(
                lambda: (chunk_script_cpu(work) or 0) >= INSIDE_CPU_S,
                120,
                f"the sweep_chunk script of the Slurm job to use {INSIDE_CPU_S} CPU-seconds",
                interval=0.05,
            )
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
