"""Resource faults in one line: a workflow job (through ``script_logging``) and the
``knight`` command that meet a full disk, a limit on file size, memory that ran out or a
Dask scheduler that went away end with one line naming the job (or command) and the
cause; a job's traceback goes to its log file only, and its outputs are not sealed."""

import os
import subprocess
import sys
import textwrap

import pytest
from conftest import file_size_limit, memory_limit

from knight.core import seal

#: A workflow job as the workflow's scripts are: script_logging first, then the work
#: named by argv[3] (the job's log is argv[1], its one output argv[2]).
JOB = textwrap.dedent(
    """
    import sys, types
    from knight.runtime.logs import script_logging

    sm = types.SimpleNamespace(log=[sys.argv[1]], input=[], output=[sys.argv[2]], rule="sweep_chunk")
    log = script_logging(sm)
    log.info("working")
    work = sys.argv[3]
    if work == "write":
        import numpy as np, pyarrow as pa
        from knight.core.io import write_parquet

        write_parquet(pa.table({"x": np.arange(200_000)}), sys.argv[2], compression="none")
    elif work == "plain":
        open(sys.argv[2], "w").write("{}")
        log.info("done")
    elif work == "numpy":
        import numpy as np

        np.ones(2**34, np.uint8)
    elif work == "numba":
        import numba as nb, numpy as np

        @nb.njit
        def grow(n):
            return np.ones(n, np.uint8)

        grow(2**34)
    elif work == "scheduler":
        import threading, time
        from knight.runtime.cluster import dask_client
        from knight.runtime.tasks import run_tasks

        with dask_client(1) as client:
            threading.Timer(1.0, client.cluster.close).start()
            run_tasks(time.sleep, [(0.5,)] * 20, client=client)
    """
)


def job(tmp_path, work, log, output, preexec_fn=None):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    return subprocess.run(
        [sys.executable, str(script), str(log), str(output), work],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=preexec_fn,
    )


def one_line(done, log) -> str:
    assert done.returncode != 0
    assert done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"sweep_chunk ({log}): "), line
    return line.split(": ", 1)[1]


def test_disk_full_writing_an_output_is_one_line(tmp_path, small_disk):
    if small_disk is None:
        pytest.skip("no tmpfs can be mounted here: test_a_limit_on_file_size_is_one_line covers the fault")
    log, out = tmp_path / "job.log", small_disk / "runs" / "part-0000.parquet"
    done = job(tmp_path, "write", log, out)
    cause = one_line(done, log)
    assert cause.startswith(f"disk full writing {out}: [Errno 28] "), cause
    assert cause.endswith("No space left on device")
    text = log.read_text()
    assert "Traceback" in text and f"job failed: disk full writing {out}" in text
    assert not out.exists() and not seal.seal_path(out).exists()
    assert [p.name for p in out.parent.iterdir()] == []  # no temporary file left


def test_a_limit_on_file_size_is_one_line(tmp_path):
    """``ulimit -f``: SIGXFSZ would kill the job with no word; ignored, the write fails."""
    log, out = tmp_path / "job.log", tmp_path / "runs" / "part-0000.parquet"
    done = job(tmp_path, "write", log, out, preexec_fn=file_size_limit(512 * 1024))
    cause = one_line(done, log)
    assert cause.startswith(f"file too large (over the limit on file size, ulimit -f) writing {out}: [Errno 27] ")
    assert "Traceback" in log.read_text()
    assert not out.exists()


def test_a_full_disk_under_the_log_is_one_line_not_exit_120(tmp_path, small_disk):
    """rules_manifest on a full disk ended with only "exit status 120" and an empty log:
    the job's work was done, but its log lines could not be written, nor flushed at exit."""
    out = tmp_path / "manifest.json"
    if small_disk is not None:
        log = small_disk / "logs" / "manifest.log"
        (small_disk / "fill").write_bytes(b"")
        with open(small_disk / "fill", "wb") as fill:
            try:
                fill.write(b"\0" * (512 * 1024))
            except OSError:
                pass
        done, cause = job(tmp_path, "plain", log, out), "disk full"
        errno = 28
    else:  # a log already at the limit on file size: its next line cannot be written
        log = tmp_path / "logs" / "manifest.log"
        log.parent.mkdir()
        log.write_bytes(b"x" * 4096)
        done = job(tmp_path, "plain", log, out, preexec_fn=file_size_limit(4096))
        cause, errno = "file too large (over the limit on file size, ulimit -f)", 27
    assert done.returncode == 1, done
    got = one_line(done, log)
    assert got.startswith(f"{cause} writing {log}: [Errno {errno}] "), got
    assert not seal.seal_path(out).exists()  # a failed job's output is not vouched for


def test_out_of_memory_is_one_line(tmp_path):
    log = tmp_path / "job.log"
    done = job(tmp_path, "numpy", log, tmp_path / "out", preexec_fn=memory_limit(3 * 2**30))
    cause = one_line(done, log)
    assert (
        cause == "out of memory: Unable to allocate 16.0 GiB for an array with shape (17179869184,) and data type uint8"
    )
    assert "Traceback" in log.read_text() and "_ArrayMemoryError" in log.read_text()


@pytest.mark.slow  # compiles a numba function
def test_out_of_memory_in_a_numba_kernel_is_one_line(tmp_path):
    log = tmp_path / "job.log"
    done = job(tmp_path, "numba", log, tmp_path / "out", preexec_fn=memory_limit(3 * 2**30))
    cause = one_line(done, log)
    assert cause.startswith("out of memory: ") and "llocation" in cause, cause


def test_a_lost_scheduler_is_one_line(tmp_path):
    log = tmp_path / "job.log"
    done = job(tmp_path, "scheduler", log, tmp_path / "out")
    cause = one_line(done, log)
    assert cause.startswith("lost the Dask scheduler ("), cause
    assert "Traceback" in log.read_text()


KNIGHT = [sys.executable, "-m", "knight.cli"]


def test_the_command_says_a_full_disk_in_one_line(tmp_path, small_disk):
    if small_disk is None:
        out, limit = tmp_path / "out", file_size_limit(64 * 1024)
        cause = "file too large (over the limit on file size, ulimit -f)"
    else:
        out, limit, cause = small_disk / "out", None, "disk full"
    done = subprocess.run(
        [*KNIGHT, "sweep", "6", "--out", str(out), "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
    )
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    part = out / "board=6x6" / "part-0000.parquet"
    assert line.startswith(f"knight sweep: error: {cause} writing {part}: "), line


def test_the_command_says_out_of_memory_in_one_line(capsys, monkeypatch):
    """Memory that runs out past the estimate (:mod:`knight.runtime.memory`) is one line too."""
    import numpy as np

    import knight.warnsdorff
    from knight.cli import main

    def grow(*args, **kwargs):
        return np.ones(2**62, np.uint8)  # numpy's _ArrayMemoryError at once, nothing allocated

    monkeypatch.setattr(knight.warnsdorff, "tour", grow)
    assert main(["tour", "8"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (
        "knight tour: error: out of memory: Unable to allocate 4.00 EiB for an array with shape "
        "(4611686018427387904,) and data type uint8"
    )


def test_the_command_says_a_full_standard_output_in_one_line(tmp_path):
    """Standard output sent to a file past ``ulimit -f``: one line, not exit status 120."""
    with open(tmp_path / "out.txt", "w") as stdout:
        done = subprocess.run(
            [*KNIGHT, "tour", "60"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            preexec_fn=file_size_limit(1024),
        )
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    fault = "file too large (over the limit on file size, ulimit -f)"
    # Told by the command when a print fails, or at exit when the last flush does.
    assert line.startswith(
        (f"knight tour: error: {fault}: [Errno 27]", f"knight: error: {fault} writing standard output")
    )
    assert os.path.getsize(tmp_path / "out.txt") <= 1024
