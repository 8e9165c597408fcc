"""Ctrl-C on a workflow run (issue 16, point 4): every job stops with one line, no
traceback; the same command run again just works and ends with a clean run's results."""

import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
import yaml
from conftest import CONFIG, TARGETS, assert_same_results, run

pytestmark = pytest.mark.slow  # whole workflow runs and subprocess sweeps

#: When to press Ctrl-C: a few seconds after a job of this Snakemake rule starts (job starting,
#: computing, a tables job, a figures job).
MOMENTS = (("sweep_chunk", 0.0), ("runs_manifest", 3.0), ("board_tables", 1.5), ("rules_figures", 2.0))


def interrupted_run(work, rule, delay, repo):
    """Start the workflow in its own process group; send SIGINT to the whole group (as a
    terminal's Ctrl-C does) ``delay`` s after the first job of Snakemake rule ``rule`` starts."""
    cmd = [sys.executable, "-m", "snakemake", "-s", os.path.join(repo, "Snakefile"), "--cores", "2"]
    cmd += ["--directory", str(work), *TARGETS, "--configfile", str(work / "cfg.yaml")]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, start_new_session=True)
    lines, started = [], threading.Event()
    job = re.compile(rf"^(local)?rule {rule}:")

    def read():
        for line in proc.stderr:
            lines.append(line)
            if job.match(line):
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.time() + 600
    while not started.is_set() and proc.poll() is None and time.time() < deadline:
        started.wait(0.1)
    fired = started.is_set() and proc.poll() is None
    if fired:
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=600)
    reader.join(timeout=60)
    return fired, proc.returncode, "".join(lines)


def test_ctrl_c_then_the_same_command_again(repo, clean, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
    stopped = one_line = 0
    for rule, delay in MOMENTS:
        fired, code, err = interrupted_run(work, rule, delay, repo)
        assert "Traceback" not in err and "IncompleteFilesException" not in err, err[-3000:]
        if fired and code != 0:
            stopped += 1
            assert "Terminating processes on user request" in err, err[-3000:]
            one_line += "interrupted (Ctrl-C)" in err  # each job running then: one line
    assert stopped >= 3 and one_line >= 1, "too few runs were interrupted to prove anything"
    res = run(work)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "Traceback" not in res.stderr
    assert_same_results(work, clean)
    for log in (work / "results" / "logs").rglob("*.log"):
        assert "Traceback" not in log.read_text(errors="replace"), log
