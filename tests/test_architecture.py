"""The library's layers, read from its import statements (at module level and inside
functions alike): stages depend on the core, the engine, the runtime and the report,
and on another stage only where :data:`ALLOWED` says so; nothing imports by name behind the analysis's back."""

import ast
from pathlib import Path

import pytest

KNIGHT = Path(__file__).resolve().parents[1] / "knight"
#: The stages: each a package that answers one kind of question.
STAGES = ("sweep", "rules", "queens", "exact", "claims")
#: What each layer may import (besides itself).
ALLOWED = {
    "core": {"_lazy"},  # knight.core reaches its submodules as knight does (PEP 562)
    "engine": {"core", "runtime"},
    "runtime": {"core"},
    "report": {"core"},
    **{stage: {"core", "engine", "runtime", "report", "_lazy"} for stage in STAGES},
}
#: The rules stage sweeps the rules that take a tie order with the sweep stage's plan and chunks.
ALLOWED["rules"] = ALLOWED["rules"] | {"sweep"}
#: The one import up the layers: a Tour draws itself (in a notebook) with the report's figure.
EXCEPTIONS = {("core/tour.py", "report")}


def imports(path: Path) -> list[str]:
    """Every ``knight`` module named by an import statement of ``path``, anywhere in it."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return [name for name in out if name.split(".")[0] == "knight"]


def layer_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_it_may(layer):
    wrong = []
    for path in sorted((KNIGHT / layer).rglob("*.py")) if (KNIGHT / layer).is_dir() else []:
        rel = path.relative_to(KNIGHT).as_posix()
        for name in imports(path):
            other = layer_of(name)
            if other != layer and other not in ALLOWED[layer] and (rel, other) not in EXCEPTIONS:
                wrong.append(f"{rel} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_nothing_imports_by_name_outside_the_lazy_loader_and_the_command_table():
    """``importlib`` hides an import from this analysis; only the lazy public names
    (knight/_lazy.py) and the command line's table of subcommands (knight/cli.py) use it."""
    users = []
    for path in sorted(KNIGHT.rglob("*.py")):
        rel = path.relative_to(KNIGHT).as_posix()
        text = path.read_text()
        if ("importlib" in text or "__import__(" in text) and rel not in ("_lazy.py", "cli.py"):
            users.append(rel)
    assert not users, users


def test_the_workflow_calls_stages_never_the_engine():
    """The workflow's scripts and rules reach the walk engine through a stage's functions."""
    workflow = KNIGHT.parent / "workflow"
    files = [KNIGHT.parent / "Snakefile", *sorted(workflow.rglob("*.py")), *sorted(workflow.rglob("*.smk"))]
    wrong = [
        f"{p.relative_to(KNIGHT.parent)}: {line.strip()}"
        for p in files
        for line in p.read_text().splitlines()
        if "knight.engine" in line and ("import" in line)
    ]
    assert files[1:] and not wrong, "\n".join(wrong)
