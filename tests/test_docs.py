"""The documentation site builds strictly, with its notebooks executed (docs/development.md,
"This documentation").

One build, as the README's development section prints it: ``sphinx-build -W --keep-going
-n`` (a warning, an unresolved cross-reference or internal link, a config section or a
command missing from the reference, a notebook cell that raises: each fails it), into a
fresh output folder. No external URL is fetched.
"""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

NOTEBOOKS = ["01-first-tour", "02-sweep-analysis", "03-rules-results", "04-queens-speedup"]


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory):
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html"]
    cmd += ["-d", str(out / "doctrees"), "docs", str(out / "html")]
    t0 = time.monotonic()
    res = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=1200)
    seconds = time.monotonic() - t0
    assert res.returncode == 0, f"strict docs build failed:\n{res.stdout[-4000:]}\n{res.stderr[-8000:]}"
    print(f"docs built in {seconds:.0f} s")
    return out / "html", res.stdout + res.stderr


def test_the_strict_build_passes_and_has_every_part(site):
    html, _ = site
    for page in [
        "index",
        "get-started",
        "workflow",
        "sweep",
        "tables",
        "rules",
        "queens",
        "exact",
        "figures",
        "census",
        "claims",
        "integrity",
        "cluster",
        "slurm-admin",
        "results/census",
        "results/claims",
        "reference/api",
        "reference/config",
        "reference/cli",
        "conventions",
        "performance",
        "development",
    ]:
        assert (html / f"{page}.html").exists(), page


def test_every_notebook_is_executed_with_its_plots(site, repo):
    html, log = site
    on_disk = sorted(p.stem for p in Path(repo, "examples").glob("*.ipynb"))
    assert on_disk == NOTEBOOKS
    for name in NOTEBOOKS:
        assert f"{name}.ipynb: Executed notebook" in log, name
        page = (html / "examples" / f"{name}.html").read_text()
        assert re.search(r'<img[^>]+src="[^"]+\.png"', page), f"{name}: no plot rendered"
        assert "Traceback" not in page, name


def test_notebooks_are_committed_without_outputs(repo):
    for path in sorted(Path(repo, "examples").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        assert code and all(not c.get("outputs") and c.get("execution_count") is None for c in code), path.name


def test_the_reference_is_generated_from_the_code(site):
    html, _ = site
    config = (html / "reference" / "config.html").read_text()
    for key in ["sweep.chunk_runs", "dask.scheduler_file", "rules.studies[].orders", "claims.entries[].finding"]:
        assert key in config, key
    cli = (html / "reference" / "cli.html").read_text()
    for option in ["--engine", "--store", "--closed", "--method"]:
        assert option in cli, option
    api = (html / "reference" / "api.html").read_text()
    for name in ["knight.tour", "knight.sweep.run", "knight.rules.tables.completion", "knight.queens.SearchResult"]:
        assert f'id="{name}"' in api, name
