"""Upgrades keep what is valid (issue 45, case 5).

A results folder made by the previous release, run again by today's code with the same
command: it must finish with no manual step, rerun only the jobs whose results version
changed (and what is made from their outputs), and end with a clean run's results.
The issue's case: a folder made by an older release reran all 66 jobs (its jobs' params
held a digest of the code, which today's params no longer hold), and every queens_unit
job failed with ForeignStoreError until the store was removed by hand.

The previous release is :data:`PREVIOUS` (a git ref; the environment variable
``KNIGHT_UPGRADE_FROM`` sets it): by default the merge-base of ``HEAD`` with ``main``, or
``HEAD``'s first parent when ``HEAD`` is ``main`` itself (a merge just landed). Its code
is taken with ``git archive`` into a folder of its own (the repository is left as it
was) and runs its own Snakefile and library.
"""

import ast
import os
import re
import subprocess

import pytest
import yaml
from conftest import CONFIG, assert_same_results
from workflow_run import REPO
from workflow_run import snakemake as run_snakemake

pytestmark = pytest.mark.slow  # three workflow runs

#: The release the results folder is made with (None: found from git history, see the docstring).
PREVIOUS = os.environ.get("KNIGHT_UPGRADE_FROM") or None
#: The fault suite's sweep and queens frontier search (every kind of store): a few minutes.
TARGETS = ("sweep_stage", "results/queens/frontier/dominate-8-5.parquet")
SETTINGS = {"sweep": CONFIG["sweep"], "queens": CONFIG["queens"]}


def _git(*args) -> str | None:
    res = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return res.stdout.strip() if res.returncode == 0 else None


def previous_release() -> str:
    """The commit of the previous release, or skip the test saying why there is none."""
    if _git("rev-parse", "--git-dir") is None:
        pytest.skip("no git history here (not a git checkout, or git missing): no previous release to upgrade from")
    if PREVIOUS is not None:
        commit = _git("rev-parse", "--verify", f"{PREVIOUS}^{{commit}}")
        if commit is None:
            pytest.skip(f"KNIGHT_UPGRADE_FROM={PREVIOUS}: not a commit of this repository")
        return commit
    if _git("rev-parse", "--is-shallow-repository") == "true":
        pytest.skip("a shallow clone: the previous release's commit is not here (git fetch --unshallow)")
    head = _git("rev-parse", "HEAD")
    for main in ("main", "origin/main"):
        if _git("rev-parse", "--verify", f"{main}^{{commit}}") is None:
            continue
        base = _git("merge-base", "HEAD", main)
        if base == head:  # HEAD is main itself: the release before it is its first parent
            base = _git("rev-parse", "--verify", "HEAD^1^{commit}")
        if base is not None:
            return base
    pytest.skip("no branch main or origin/main to find the previous release from (set KNIGHT_UPGRADE_FROM)")


def versions_at(tree) -> dict[str, int] | None:
    """The results versions (knight/pipeline/versions.py's VERSIONS) of a source tree,
    read without importing it; None for a release from before results versions."""
    path = os.path.join(tree, "knight", "pipeline", "versions.py")
    if not os.path.exists(path):
        return None
    for node in ast.parse(open(path, encoding="utf-8").read()).body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(getattr(t, "id", None) == "VERSIONS" for t in targets):
                return ast.literal_eval(node.value)
    return None


def jobs_run(text: str) -> list[tuple[str, str]]:
    """(rule, reason) of every job a Snakemake run's output shows."""
    return re.findall(r"^(?:local)?rule (\w+):\n(?:    .*\n)*?    reason: (.*)$", text, flags=re.M)


def test_an_upgrade_reruns_only_what_changed_and_ends_with_a_clean_runs_results(tmp_path):
    commit = previous_release()
    old = tmp_path / "previous"
    old.mkdir()
    archive = subprocess.run(["git", "-C", REPO, "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
    upgraded, clean = tmp_path / "upgraded", tmp_path / "clean"
    for work in (upgraded, clean):
        work.mkdir()
        (work / "cfg.yaml").write_text(yaml.safe_dump(SETTINGS))

    made = run_snakemake(upgraded, *TARGETS, configfile=upgraded / "cfg.yaml", repo=str(old))
    assert made.returncode == 0, f"the previous release ({commit[:12]}) failed:\n{made.stderr[-3000:]}"
    # Today's code, the same command with each job's listing and reason shown (the default
    # profile leaves listings out).
    res = run_snakemake(upgraded, *TARGETS, "--quiet", "host", configfile=upgraded / "cfg.yaml")
    assert res.returncode == 0, res.stderr[-3000:]
    assert "Traceback" not in res.stdout + res.stderr

    before, now = versions_at(old), versions_at(REPO)
    if before is not None:  # a release with results versions: only what changed reruns
        changed = {kind.split(":")[0] for kind in {*before, *now} if before.get(kind) != now.get(kind)}
        unjustified = [
            (rule, reason)
            for rule, reason in jobs_run(res.stdout + res.stderr)
            if rule not in changed and "Input files updated by another job" not in reason
        ]
        assert not unjustified, f"reran though neither its results version nor its inputs changed: {unjustified}"

    fresh = run_snakemake(clean, *TARGETS, configfile=clean / "cfg.yaml")
    assert fresh.returncode == 0, fresh.stderr[-3000:]
    assert_same_results(upgraded, clean)
    again = run_snakemake(upgraded, *TARGETS, "-n", configfile=upgraded / "cfg.yaml")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
