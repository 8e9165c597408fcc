import os
from pathlib import Path

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``--dist loadgroup``): keep each slow module's tests in one
    process, so a module's workflow run is made once; every Slurm test in one process
    (they share the one local node); the fault tests together (one clean run per session).
    Fast tests spread freely."""
    tests = Path(__file__).parent
    for item in items:
        path = Path(str(item.path)).relative_to(tests)
        if path.parts[0] in ("cluster", "faults"):
            group = path.parts[0]
        elif item.get_closest_marker("slow"):
            group = path.stem
        else:
            continue
        item.add_marker(pytest.mark.xdist_group(group))
