"""Linters and formatters pass on the whole repository, and Snakemake's own linter on the workflow."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # the linters over the whole tree: the default run only


def run(repo, *cmd):
    return subprocess.run([sys.executable, "-m", *cmd], cwd=repo, capture_output=True, text=True, timeout=600)


def test_ruff(repo):
    res = run(repo, "ruff", "check", ".")
    assert res.returncode == 0, res.stdout[-3000:]


def test_ruff_format(repo):
    res = run(repo, "ruff", "format", "--check", ".")
    assert res.returncode == 0, res.stdout[-3000:]


def test_snakefmt(repo):
    res = run(repo, "snakefmt", "--check", "Snakefile", "workflow/rules")
    assert res.returncode == 0, res.stderr[-3000:]


@pytest.mark.parametrize("config", ["config.yaml", "tiny.yaml", "thesis-large.yaml", "census.yaml", "claims.yaml"])
def test_snakemake_lint(repo, tmp_path, config):
    res = run(
        repo,
        "snakemake",
        "-s",
        os.path.join(repo, "Snakefile"),
        "--lint",
        "--directory",
        str(tmp_path),
        "--configfile",
        os.path.join(repo, "config", config),
    )
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    assert "Congratulations" in res.stdout + res.stderr
