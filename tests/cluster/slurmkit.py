"""Helpers of the cluster tests: the Slurm profile, Slurm's job records, runs to compare."""

from __future__ import annotations

import collections
import contextlib
import fcntl
import importlib.util
import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "workflow" / "profiles" / "slurm"
LAUNCHER = PROFILE / "dask-cluster.sbatch"
BIN = Path(sys.executable).parent  # the venv's snakemake and dask, also inside Slurm jobs

#: 8 tie orders spread over the 40,320 (every 5,040th in lexicographic order).
ORDERS = ["".join(p) for p in itertools.islice(itertools.permutations("12345678"), 0, 40320, 5040)]

#: Fast status polling for short test jobs (the profile's value suits real clusters).
FAST_POLL = ["--slurm-init-seconds-before-status-checks", "5"]


#: Held by the test that uses the local Slurm node (test files run in parallel).
NODE_LOCK = Path(os.environ.get("TMPDIR", "/tmp")) / "knight-tests-slurm-node.lock"


@contextlib.contextmanager
def slurm_node():
    """The local Slurm node to this test alone, until the block ends (a file lock, so the
    test processes of pytest-xdist take turns; released if the process dies)."""
    with open(NODE_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


#: Node states that pass on their own (sinfo -o %T).
TRANSIENT = ("completing", "powering_up", "rebooting", "resuming")


def slurm_problem() -> str | None:
    """Why the cluster tests cannot run here, or None."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return 'the Slurm executor plugin is not installed (pip install -e ".[slurm]")'
    for tool in ("sbatch", "squeue", "scontrol", "scancel", "sinfo"):
        if shutil.which(tool) is None:
            return f"no Slurm here ({tool} not found; tests/cluster/start-slurm.sh starts one)"
    # A node still cleaning up after the previous test's job reads "completing" for a few
    # seconds: wait for it (up to 2 minutes) rather than call the cluster unusable.
    deadline = time.monotonic() + 120
    while True:
        try:
            out = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=15)
        except subprocess.TimeoutExpired:
            return "Slurm does not answer (sinfo timed out)"
        states = [s.rstrip("*~#$@^-+") for s in out.stdout.split()]
        if out.returncode == 0 and any(s in ("idle", "mixed", "allocated") for s in states):
            return None
        if out.returncode != 0 or not any(s in TRANSIENT for s in states) or time.monotonic() > deadline:
            return f"no usable Slurm node (sinfo: {(out.stdout + out.stderr).strip()[:200]!r})"
        time.sleep(2)


def node_cpus() -> int:
    """CPUs of the smallest node of the default partition: the most a job may ask for."""
    out = subprocess.run(["sinfo", "-h", "-o", "%c"], capture_output=True, text=True, check=True)
    return min(int(c.rstrip("+")) for c in out.stdout.split())


def env() -> dict:
    """The environment of snakemake and sbatch: this venv first on PATH (Slurm jobs inherit it)."""
    e = dict(os.environ)
    e["PATH"] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    return e


def write_config(path: Path, cfg: dict) -> Path:
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


def snakemake_cmd(workdir: Path, configfile: Path, targets, *extra, slurm=True) -> list[str]:
    """A snakemake command line: through the Slurm profile as the README prints it (no
    --max-threads: the workflow learns the node's CPUs), or local with --cores 2."""
    cmd = [str(BIN / "snakemake"), *targets, "-s", str(REPO / "Snakefile"), "--directory", str(workdir)]
    if slurm:
        cmd += ["--workflow-profile", str(PROFILE), *FAST_POLL]
    else:
        cmd += ["--cores", "2"]
    return cmd + [*extra, "--configfile", str(configfile)]  # last: it takes several values


def run(cmd, log: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run a command with stdout and stderr in ``log``; SIGINT on timeout (Snakemake then cancels its jobs)."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True, env=env())
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.send_signal(2)
            proc.wait(timeout=120)
            raise AssertionError(f"{cmd[0]} still running after {timeout} s; log {log}:\n{tail(log)}") from None
    return subprocess.CompletedProcess(cmd, proc.returncode)


def tail(path: Path, n: int = 60) -> str:
    return "\n".join(Path(path).read_text(errors="replace").splitlines()[-n:])


def slurm_run_id(log: Path) -> str:
    """The plugin's run id: every Slurm job of that snakemake run carries it as job name."""
    m = re.search(r"SLURM run ID: (\S+)", Path(log).read_text())
    assert m, f"no 'SLURM run ID' in {log}: not run through the Slurm executor"
    return m.group(1)


def slurm_jobs(name: str) -> dict[str, dict]:
    """Slurm's own record (scontrol) of every job named ``name``, finished ones included
    (kept for MinJobAge seconds): job id -> fields such as JobState, Comment, NumCPUs."""
    out = subprocess.run(
        ["squeue", "-h", "--states=all", "--name", name, "-o", "%i"], capture_output=True, text=True, check=True
    )
    jobs = {}
    for jid in out.stdout.split():
        text = subprocess.run(["scontrol", "show", "job", jid, "-o"], capture_output=True, text=True, check=True).stdout
        jobs[jid] = dict(re.findall(r"(\w+)=(\S*)", text))
    return jobs


def submitted_in_log(log: Path) -> dict[str, str]:
    """Snakemake job id -> Slurm job id, as the snakemake log reports each submission."""
    return dict(re.findall(r"Job (\d+) has been submitted with SLURM jobid (\d+)", Path(log).read_text()))


def job_stats(log: Path) -> collections.Counter:
    """Snakemake rule -> job count from the 'Job stats' table a snakemake run prints first."""
    text = Path(log).read_text()
    block = text.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    counts = collections.Counter()
    for line in block.splitlines()[3:]:
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


def rule_of(job: dict) -> str:
    """The Snakemake rule of a Slurm job submitted by the plugin, from its comment rule_R[_wildcards_W]."""
    return re.sub(r"_wildcards_.*$", "", job["Comment"]).removeprefix("rule_")


def files(root: Path, pattern: str = "**/*") -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.glob(pattern)) if p.is_file()}


def wait_for(predicate, timeout: float, what: str, interval: float = 0.2):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class DaskOnSlurm:
    """A Dask cluster started as a Slurm job by the profile's launcher (dask-cluster.sbatch)."""

    def __init__(self, folder: Path, workers: int = 1, worker_args=()):
        self.file = folder / "dask-scheduler.json"
        self.log = folder / "dask-cluster.log"
        cmd = [
            "sbatch",
            "--parsable",
            f"--ntasks={workers}",
            "--cpus-per-task=1",
            "--mem-per-cpu=1000",
            "--time=15",
            "-o",
            str(self.log),
            str(LAUNCHER),
            str(self.file),
            *worker_args,
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env(), check=True)
        self.job = out.stdout.strip().split(";")[0]

    def wait_for_workers(self, n: int = 1, timeout: float = 90):
        from dask.distributed import Client

        wait_for(self.file.exists, timeout, f"the scheduler file of Slurm job {self.job} ({self.log})")
        with Client(scheduler_file=str(self.file), timeout=30, set_as_default=False) as client:
            client.wait_for_workers(n, timeout=timeout)
            return {w["host"] for w in client.scheduler_info()["workers"].values()}

    def state(self) -> str:
        out = subprocess.run(
            ["squeue", "-h", "--states=all", "-j", self.job, "-o", "%T"], capture_output=True, text=True
        )
        return out.stdout.strip()

    def stop(self):
        subprocess.run(["scancel", self.job], check=False)
        wait_for(lambda: self.state() not in ("RUNNING", "PENDING", "COMPLETING"), 60, f"Slurm job {self.job} to end")
