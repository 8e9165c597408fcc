"""SIGTERM during a workflow run is taken as a Ctrl-C (knight.runtime.logs.sigterm_as_interrupt):
Snakemake's own SIGTERM handler can wait for a lock its main thread holds."""

import subprocess
import sys

CHILD = """
import os, signal, time
from knight.runtime.logs import sigterm_as_interrupt
sigterm_as_interrupt()
try:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)
except KeyboardInterrupt:
    print("taken as a Ctrl-C")
"""


def test_sigterm_is_taken_as_a_ctrl_c(repo):
    res = subprocess.run([sys.executable, "-c", CHILD], cwd=repo, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == "taken as a Ctrl-C", (res.returncode, res.stderr[-2000:])
