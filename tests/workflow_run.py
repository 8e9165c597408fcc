"""Run the project's Snakemake workflow from a test, in a folder of its own."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def snakemake(work, *args, configfile=None, cores=2, timeout=900, repo=REPO):
    """``snakemake -s REPO/Snakefile --cores CORES --directory WORK ARGS [--configfile CONFIGFILE]``
    as a subprocess, output captured. ``args``: targets and flags. The config file goes
    last because ``--configfile`` takes several values."""
    snakefile = os.path.join(repo, "Snakefile")
    cmd = [sys.executable, "-m", "snakemake", "-s", snakefile, "--cores", str(cores), "--directory", str(work), *args]
    if configfile is not None:
        cmd += ["--configfile", str(configfile)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
