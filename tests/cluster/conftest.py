"""The `slurm` fixture of the cluster tests (helpers: slurmkit.py).

The tests need a Slurm that answers (tests/cluster/start-slurm.sh starts one on a Debian
machine) and the Slurm executor plugin (pip install -e ".[slurm]"). Without them they
are skipped with the reason, unless KNIGHT_REQUIRE_SLURM=1 (CI), which turns the skip
into a failure.
"""

import os

import pytest
from slurmkit import node_cpus, slurm_problem


@pytest.fixture(scope="session")
def slurm():
    """Skip (or fail, with KNIGHT_REQUIRE_SLURM=1) unless Slurm and the plugin are here."""
    problem = slurm_problem()
    if problem:
        if os.environ.get("KNIGHT_REQUIRE_SLURM") == "1":
            pytest.fail(f"KNIGHT_REQUIRE_SLURM=1 but {problem}")
        pytest.skip(problem)
    return node_cpus()


def pytest_collection_modifyitems(items):
    """Every test that submits to Slurm is slow (the fast tier, pytest -m 'not slow', leaves it out)."""
    for item in items:
        if "slurm" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
