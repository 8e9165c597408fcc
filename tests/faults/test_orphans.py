"""An orphaned job notices its parent died and stops: a job (``script_logging``) whose
parent, Snakemake, is killed with SIGKILL stops within seconds, with one line in its
log, a non-zero exit and its outputs not sealed; also when a shell stands between
Snakemake and the job."""

import json
import subprocess
import sys
import textwrap

from knight.core import seal

#: The job: script_logging, an output written, then work that would go on for minutes.
JOB = textwrap.dedent(
    """
    import sys, time, types
    from knight.runtime.logs import script_logging

    sm = types.SimpleNamespace(log=[sys.argv[1]], input=[], output=[sys.argv[2]], rule="sweep_chunk")
    log = script_logging(sm)
    open(sys.argv[2], "w").write("half done")
    log.info("working")
    time.sleep(120)
    """
)

#: Snakemake's stand-in: named "snakemake" as the real one is, it starts the job (through
#: a shell that waits for it when argv[2] says so), prints the job's pid, then waits.
PARENT = textwrap.dedent(
    """
    import ctypes, subprocess, sys, time
    ctypes.CDLL(None).prctl(15, b"snakemake", 0, 0, 0)  # PR_SET_NAME
    job = [sys.executable, *sys.argv[3:]]
    if sys.argv[1] == "shell":  # not the last command of the shell: bash cannot exec it
        job = ["bash", "-c", " ".join(job) + "; exit $?"]
    proc = subprocess.Popen(job)
    print(proc.pid, flush=True)
    time.sleep(600)
    """
)

#: The test's side, in a process of its own that adopts orphans (PR_SET_CHILD_SUBREAPER):
#: the job (or its shell) becomes its child when the parent dies, so its exit status can
#: be read. Kills the parent once the job logs "working".
HARNESS = textwrap.dedent(
    """
    import ctypes, json, os, signal, subprocess, sys, time
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    parent_py, job_py, log, out, mode = sys.argv[1:]
    parent = subprocess.Popen(
        [sys.executable, parent_py, mode, "-", job_py, log, out], stdout=subprocess.PIPE, text=True
    )
    child = int(parent.stdout.readline())
    deadline = time.monotonic() + 120
    while not (os.path.exists(log) and "working" in open(log).read()):
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.05)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    t0 = time.monotonic()
    pid, status = os.waitpid(child, 0)  # adopted: the job, or the shell that waits for it
    print(json.dumps({"parent": parent.pid, "code": os.waitstatus_to_exitcode(status),
                      "seconds": time.monotonic() - t0}))
    """
)


def orphaned(tmp_path, mode):
    for name, text in (("job.py", JOB), ("parent.py", PARENT), ("harness.py", HARNESS)):
        (tmp_path / name).write_text(text)
    log, out = tmp_path / "job.log", tmp_path / "part-0000.parquet"
    done = subprocess.run(
        [sys.executable, str(tmp_path / "harness.py"), str(tmp_path / "parent.py"), str(tmp_path / "job.py")]
        + [str(log), str(out), mode],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), log, out


def test_a_job_whose_parent_is_killed_stops_in_one_line(tmp_path):
    got, log, out = orphaned(tmp_path, "direct")
    assert got["code"] == 1 and got["seconds"] < 10, got
    last = log.read_text().strip().splitlines()[-1]
    assert last.endswith(f"ERROR knight: parent snakemake (pid {got['parent']}) is gone: job stopped"), last
    assert out.read_text() == "half done" and not seal.seal_path(out).exists()


def test_a_job_started_through_a_shell_stops_too(tmp_path):
    got, log, out = orphaned(tmp_path, "shell")
    assert got["code"] == 1 and got["seconds"] < 10, got
    last = log.read_text().strip().splitlines()[-1]
    assert last.endswith(f"parent snakemake (pid {got['parent']}) is gone: job stopped"), last
    assert not seal.seal_path(out).exists()
