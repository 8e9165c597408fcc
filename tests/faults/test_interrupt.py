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

#: When to press Ctrl-C: this many seconds after a job of this Snakemake rule starts (job
#: starting, computing, a tables job, a figures job), each well before the run's last job
#: ends (a job here takes about a second). Not at 0 s: a Ctrl-C while the job's interpreter
#: itself starts makes Python print its own fatal-error lines (docs/integrity.md).
MOMENTS = (("sweep_chunk", 0.5), ("runs_manifest", 1.5), ("board_tables", 0.5), ("rules_figures", 1.0))


#: Python's own lines for a Ctrl-C while a job's interpreter starts, before any code of the
#: job (or its sitecustomize) runs: the one window docs/integrity.md states. Jobs start at
#: any moment of a run, so a Ctrl-C meant for one job can land in another's start-up.
#: Its first words, "Fatal Python error: ", can come apart from the rest when another
#: process writes to the same stderr in between (seen in CI: ".\ninit_import_site: ...").
STARTUP = re.compile(r"^(?:Fatal Python error: )?init_\w+: .*?^KeyboardInterrupt$\n?", re.M | re.S)


def without_startup_lines(err: str) -> str:
    """``err`` less the interpreter's start-up failures (:data:`STARTUP`)."""
    return STARTUP.sub("", err)


def test_startup_lines_are_cut_and_nothing_else():
    block = (
        "Fatal Python error: init_import_site: Failed to import the site module\n"
        "Python runtime state: initialized\nTraceback (most recent call last):\n"
        '  File "<frozen site>", line 75, in <module>\nKeyboardInterrupt\n'
    )
    ours = 'Traceback (most recent call last):\n  File "x.py", line 1\nKeyboardInterrupt\n'
    assert without_startup_lines("a\n" + block + "b\n") == "a\nb\n"
    assert without_startup_lines(ours) == ours
    assert "Traceback" in without_startup_lines(block + ours)
    apart = "Fatal Python error: .\n" + block.split("Fatal Python error: ", 1)[1]  # seen in CI
    assert without_startup_lines("a\n" + apart + "b\n") == "a\nFatal Python error: .\nb\n"


def interrupted_run(work, rule, delay, repo, sig=signal.SIGINT):
    """Start the workflow in its own process group; send ``sig`` to the whole group (SIGINT:
    as a terminal's Ctrl-C does; SIGTERM: as ``timeout`` does) ``delay`` s after the first
    job of Snakemake rule ``rule`` starts. A run still going 120 s later is killed (a hang)."""
    cmd = [sys.executable, "-m", "snakemake", "-s", os.path.join(repo, "Snakefile"), "--cores", "2"]
    # Each job's listing shown (the default profile leaves listings out): its first line
    # tells when a job of ``rule`` starts.
    cmd += ["--directory", str(work), *TARGETS, "--quiet", "host", "--configfile", str(work / "cfg.yaml")]
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
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=120 if fired else 600)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise AssertionError(f"still running 120 s after {sig.name}: a hang") from None
    reader.join(timeout=60)
    return fired, proc.returncode, "".join(lines)


def test_ctrl_c_then_the_same_command_again(repo, clean, tmp_path):
    # Each moment in a folder of its own: in one shared folder a later moment's rule may have
    # nothing left to run, its jobs done by an earlier run before the Ctrl-C (seen in CI).
    stopped = one_line = 0
    seen = []
    for rule, delay in MOMENTS:
        work = tmp_path / rule
        work.mkdir()
        (work / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
        fired, code, err = interrupted_run(work, rule, delay, repo)
        err = without_startup_lines(err)
        seen.append((rule, fired, code, err[-300:]))
        assert fired, f"no job of {rule} started: {err[-3000:]}"
        assert "Traceback" not in err and "IncompleteFilesException" not in err, err[-3000:]
        if code != 0:
            stopped += 1
            assert "Terminating processes on user request" in err, err[-3000:]
            one_line += "interrupted (Ctrl-C)" in err  # each job running then: one line
        res = run(work)
        assert res.returncode == 0, res.stderr[-3000:]
        assert "Traceback" not in res.stderr
        assert_same_results(work, clean)
        for log in (work / "results" / "logs").rglob("*.log"):
            assert "Traceback" not in log.read_text(errors="replace"), log
    assert stopped >= 3 and one_line >= 1, f"too few runs were interrupted to prove anything: {seen}"


def test_sigterm_stops_a_run_as_ctrl_c_does(repo, clean, tmp_path):
    # Snakemake's own SIGTERM handler takes its scheduler's lock in the main thread, which
    # may hold it already: the run then hangs (about one time in five). The workflow takes
    # SIGTERM as a Ctrl-C instead, whose path says "Terminating processes on user request".
    for rule, delay in MOMENTS[:2]:
        work = tmp_path / rule
        work.mkdir()
        (work / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
        fired, code, err = interrupted_run(work, rule, delay, repo, signal.SIGTERM)
        assert fired, f"no job of {rule} started: {err[-3000:]}"
        if code != 0:
            assert "Terminating processes on user request" in err, err[-3000:]
        res = run(work)
        assert res.returncode == 0, res.stderr[-3000:]
        assert_same_results(work, clean)


#: A Ctrl-C inside a class body's ``__set_name__`` (seen in CI while a job imported
#: ``dask.distributed``): Python re-raises it as a RuntimeError caused by the interrupt.
WRAPPED = """
class Named:
    def __set_name__(self, owner, name):
        raise KeyboardInterrupt

class Owner:
    field = Named()
"""


def test_a_ctrl_c_wrapped_by_an_import_is_still_one_line(repo, tmp_path):
    from knight.runtime.logs import interrupted

    try:
        exec(WRAPPED, {})
    except RuntimeError as exc:
        wrapped = exc
    assert isinstance(wrapped.__cause__, KeyboardInterrupt) and interrupted(wrapped)
    assert not interrupted(RuntimeError("no")) and not interrupted(None)
    script = tmp_path / "tmpabc123.sweep_chunk.py"  # named as Snakemake names a job's copy
    script.write_text(WRAPPED)
    env = {**os.environ, "PYTHONPATH": os.path.join(repo, "workflow", "site")}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert done.returncode != 0
    assert done.stderr == "sweep_chunk.py: interrupted (Ctrl-C)\n", done.stderr


#: A Ctrl-C while the interpreter waits for a thread at exit (seen in this test's run: it
#: reached Snakemake as it finished, and Python printed "Exception ignored in: <module
#: 'threading'> ... KeyboardInterrupt").
AT_EXIT = """
import os, signal, threading, time

def late():
    time.sleep(0.3)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.5)

threading.Thread(target=late).start()
"""


def test_a_ctrl_c_while_exiting_is_one_line(repo, tmp_path):
    job = tmp_path / "tmpabc123.board_tables.py"  # a job, through workflow/site/sitecustomize.py
    job.write_text(AT_EXIT)
    env = {**os.environ, "PYTHONPATH": os.path.join(repo, "workflow", "site")}
    done = subprocess.run([sys.executable, str(job)], capture_output=True, text=True, env=env)
    assert done.stderr == "board_tables.py: interrupted (Ctrl-C)\n", done.stderr
    main = "from knight.runtime.logs import one_line_interrupts\none_line_interrupts('snakemake')\n" + AT_EXIT
    env = {**os.environ, "PYTHONPATH": repo}
    done = subprocess.run([sys.executable, "-c", main], capture_output=True, text=True, env=env)
    assert done.stderr == "snakemake: interrupted (Ctrl-C)\n", done.stderr


def test_a_job_exits_with_the_collector_frozen(repo, tmp_path):
    job = tmp_path / "tmpabc123.sweep_chunk.py"
    # The job's exit handlers run here, as at exit: sitecustomize's, registered first, last.
    job.write_text("import atexit, gc\natexit._run_exitfuncs()\nprint(gc.get_freeze_count() > 0)\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(repo, "workflow", "site")}
    done = subprocess.run([sys.executable, str(job)], capture_output=True, text=True, env=env)
    assert done.stdout == "True\n", done.stderr
    done = subprocess.run([sys.executable, str(job)], capture_output=True, text=True)  # without it
    assert done.stdout == "False\n", done.stderr
