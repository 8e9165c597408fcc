"""docs/development.md, "Adding a tie-break rule", followed on a copy of the package.

A toy rule, ``centre`` (least degree, then nearest the board's centre, then the tie
order), is added to a copy of ``knight/`` and the workflow as the page says: its registry
entry and its key in the kernel hook, nothing else of the package. The copy then runs it through the
Python API (both engines: the rule kernel from every start, the tie tree over orders),
the command line and the workflow's rules stage, and each agrees with a plain reference
written here. The product's own registry never holds the toy rule.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "development.md"

#: What the page tells a contributor to write, verbatim (the test checks the page shows it).
REGISTRY_ENTRY = """    Rule(
        "centre",
        9,
        takes_orders=True,
        settings=_ORDER,
        key="centre",
        summary="least degree, then nearest the centre, then the order",
    ),
"""
KERNEL_CODE = 'CENTRE = rule("centre").code\n'
KERNEL_KEY = """    if rule == CENTRE:  # squared distance from the centre, doubled as roth's
        dr = 2 * r - rows + 1
        dc = 2 * c - cols + 1
        return dr * dr + dc * dc
"""
#: The moves 1..8 as (d_row, d_col), docs/conventions.md.
MOVES = [(2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2)]

pytestmark = pytest.mark.slow


def naive_centre(rows: int, cols: int, start: int, order: str = "12345678") -> tuple[int, int, bool, bool]:
    """(visited, end, complete, closed) of the toy rule from square ``start``, from the
    rule's words alone: move to an unvisited candidate of least degree; among those tied,
    to one nearest the centre; among those, by the first move in ``order``."""

    def step(s, m):
        r, c = divmod(s, cols)
        r, c = r + MOVES[m][0], c + MOVES[m][1]
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else None

    def centre(s):
        r, c = divmod(s, cols)
        return (2 * r - rows + 1) ** 2 + (2 * c - cols + 1) ** 2

    seen, cur = {start}, start
    while True:
        free = {m: s for m in range(8) if (s := step(cur, m)) is not None and s not in seen}
        if not free:
            break
        degree = {
            m: sum(t is not None and t not in seen for t in (step(s, k) for k in range(8))) for m, s in free.items()
        }
        tied = [m for m in free if degree[m] == min(degree.values())]
        near = [m for m in tied if centre(free[m]) == min(centre(free[k]) for k in tied)]
        cur = free[next(int(d) - 1 for d in order if int(d) - 1 in near)]
        seen.add(cur)
    complete = len(seen) == rows * cols
    closed = complete and any(step(cur, m) == start for m in range(8))
    return len(seen), cur, complete, closed


def _insert(path: Path, anchor: str, text: str, *, before: bool) -> None:
    source = path.read_text()
    assert source.count(anchor) == 1, f"{path.name}: the anchor {anchor!r} must be found once"
    path.write_text(source.replace(anchor, text + anchor if before else anchor + text))


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The repository's package, workflow and config with the toy rule added as the page
    says; its own numba cache."""
    root = tmp_path_factory.mktemp("toy-rule")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("knight", "workflow", "config", "profiles"):
        shutil.copytree(REPO / name, root / name, ignore=ignore)
    shutil.copy2(REPO / "Snakefile", root / "Snakefile")
    engine = root / "knight" / "engine"
    _insert(engine / "rule_registry.py", ")\n\n_BY_NAME", REGISTRY_ENTRY, before=True)
    _insert(engine / "tiebreak.py", 'ROTH_RANDOM = rule("roth-random").code\n', KERNEL_CODE, before=False)
    _insert(engine / "tiebreak.py", "        return dr * dr + dc * dc\n    return 0\n", KERNEL_KEY, before=True)
    return root


def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root), "KNIGHT_CACHE_DIR": str(root / ".numba")}


def _python(root: Path, code: str) -> str:
    res = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=_env(root), capture_output=True, text=True, timeout=900
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


def test_the_page_shows_what_the_test_writes():
    page = PAGE.read_text()
    section = page[page.index("## Adding a tie-break rule") :]
    section = section[: section.index("\n## ", 3)]
    for text in (REGISTRY_ENTRY, KERNEL_CODE, KERNEL_KEY):
        assert text.strip() in section, text


def test_the_product_does_not_hold_the_toy_rule():
    from knight.engine.rule_registry import names

    assert "centre" not in names()


def test_the_copy_imports_its_own_package(copy):
    out = _python(copy, "import knight; print(knight.__file__)")
    assert out.strip() == str(copy / "knight" / "__init__.py")


def test_the_api_runs_the_toy_rule_on_both_engines(copy):
    code = (
        "import json, knight\n"
        "walk = knight.rules.run(6, 'centre', 'all', order='31245678', progress=False)\n"
        "tree = knight.rules.run('5x6', 'centre', 'all', orders=['12345678', '87654321'], progress=False)\n"
        "cols = ['start', 'visited', 'end', 'complete', 'closed']\n"
        "print(json.dumps({'walk': walk.select(cols).rows(), 'tree': tree.select(['order', *cols]).rows()}))\n"
    )
    out = json.loads(_python(copy, code))
    assert out["walk"] == [[s, *naive_centre(6, 6, s, "31245678")] for s in range(36)]
    for rank, order in ((0, "12345678"), (40319, "87654321")):
        got = [row[1:] for row in out["tree"] if row[0] == rank]
        assert got == [[s, *naive_centre(5, 6, s, order)] for s in range(30)], order


def test_the_command_line_runs_the_toy_rule(copy):
    res = subprocess.run(
        [sys.executable, "-m", "knight.cli", "rules", "6", "--rule", "centre", "--starts", "all", "--json"],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    row = json.loads(res.stdout)
    naive = [naive_centre(6, 6, s) for s in range(36)]
    assert (row["rule"], row["runs"], row["complete"], row["closed"]) == (
        "centre",
        36,
        sum(r[2] for r in naive),
        sum(r[3] for r in naive),
    )


def test_the_workflow_runs_the_toy_rule(copy):
    import polars as pl

    work = copy / "work"
    work.mkdir()
    config = {
        "sweep": {"boards": [5]},
        "rules": {
            "settings": {"centre": {"order": "87654321"}},
            "studies": [{"name": "toy", "rules": ["centre", "fixed"], "boards": [5, 6], "starts": "all"}],
        },
    }
    (work / "toy.yaml").write_text(yaml.safe_dump(config))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(copy / "Snakefile"), "--cores", "2"]
    cmd += ["--directory", str(work), "rules_stage", "--configfile", str(work / "toy.yaml")]
    res = subprocess.run(cmd, cwd=copy, env=_env(copy), capture_output=True, text=True, timeout=1200)
    assert res.returncode == 0, res.stderr[-3000:]
    runs = pl.read_parquet(work / "results" / "rules" / "runs" / "study=toy" / "rule=centre" / "*.parquet")
    rows = runs.sort("rows", "start").select("rows", "start", "visited", "end", "complete", "closed").rows()
    want = [(n, s, *naive_centre(n, n, s, "87654321")) for n in (5, 6) for s in range(n * n)]
    assert rows == want
