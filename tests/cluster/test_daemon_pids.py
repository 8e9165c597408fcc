"""start-slurm.sh and stop-slurm.sh tell a daemon from a stale pid file (no Slurm needed).

The fault this keeps: a CI machine came up with /run/slurmctld.pid left over, naming a pid
that another program then had. start-slurm.sh took the controller for running, never
started it, and waited on a node that could not appear; stop-slurm.sh would have sent that
other program SIGTERM.
"""

import subprocess
import sys
from pathlib import Path

import pytest

DAEMONS = Path(__file__).with_name("slurm-daemons.sh")


def running(pid_text: str, name: str, tmp_path: Path) -> bool:
    """What the scripts' `running PIDFILE NAME` answers for a pid file holding `pid_text`."""
    pidfile = tmp_path / "daemon.pid"
    pidfile.write_text(pid_text)
    return asks(pidfile, name)


def asks(pidfile: Path, name: str) -> bool:
    """What `running PIDFILE NAME` answers (its exit status must be 0 or 1)."""
    done = subprocess.run(
        ["bash", "-c", 'source "$1"; running "$2" "$3"', "bash", DAEMONS, pidfile, name],
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 0


@pytest.fixture
def sleeper():
    """A live process that is not a Slurm daemon: `sleep`."""
    proc = subprocess.Popen(["sleep", "60"])
    yield proc.pid
    proc.kill()
    proc.wait()


def test_a_live_pid_of_another_program_is_not_the_daemon(sleeper, tmp_path):
    assert not running(f"{sleeper}\n", "slurmctld", tmp_path)
    assert running(f"{sleeper}\n", "sleep", tmp_path)


def test_a_dead_pid_a_garbled_file_or_no_file_is_not_running(tmp_path):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert not running(finished.stdout, "python3", tmp_path)
    assert not running("12ab\n", "slurmctld", tmp_path)
    assert not running("", "slurmctld", tmp_path)
    assert not asks(tmp_path / "none.pid", "slurmctld")


def test_both_scripts_use_the_check():
    """Neither script keeps a pid check of its own (the old one believed any live pid)."""
    for script in ("start-slurm.sh", "stop-slurm.sh"):
        text = Path(__file__).with_name(script).read_text()
        assert 'source "$(dirname "$0")/slurm-daemons.sh"' in text
        assert "running() {" not in text
