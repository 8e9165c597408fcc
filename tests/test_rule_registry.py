"""The tie-break rules are declared once, in knight.engine.rule_registry: the plain
reference keeps its own list and is held equal to it; nothing else in the product lists
rule names."""

import json
import re
from pathlib import Path

import naive_rules
import pytest

from knight.engine import tiebreak
from knight.engine.rule_registry import REGISTRY, Rule, names, rule

ROOT = Path(__file__).resolve().parent.parent
#: Where the product's code lives (the schema and the docs are checked elsewhere).
SCANNED = ("knight", "benchmarks", "workflow", "examples")
#: The one file allowed to list rule names.
REGISTRY_FILE = Path("knight", "engine", "rule_registry.py")


def test_the_codes_are_the_kernels():
    """The ints the numba kernels and the stored rows' digests were built on."""
    assert {r.name: r.code for r in REGISTRY} == {
        "fixed": 0,
        "pohl": 1,
        "roth": 2,
        "corner": 3,
        "random": 4,
        "random-order": 5,
        "squirrel-cull": 6,
        "pohl-random": 7,
        "roth-random": 8,
    }
    assert [r.code for r in REGISTRY] == list(range(len(REGISTRY)))  # code order
    consts = "FIXED POHL ROTH CORNER RANDOM RANDOM_ORDER SQUIRREL_CULL POHL_RANDOM ROTH_RANDOM".split()
    assert [getattr(tiebreak, c) for c in consts] == [rule(n).code for n in naive_rules.RULES]


def test_the_reference_states_the_registrys_names_and_properties():
    """tests/naive_rules.py declares its rules from docs/conventions.md alone."""
    assert names() == naive_rules.RULES
    assert names(takes_orders=True) == naive_rules.ORDER_RULES
    assert names(random=True) == naive_rules.RANDOM_RULES
    assert (tiebreak.RULES, tiebreak.ORDER_RULES, tiebreak.RANDOM_RULES) == (
        naive_rules.RULES,
        naive_rules.ORDER_RULES,
        naive_rules.RANDOM_RULES,
    )


def test_a_rules_settings_follow_its_properties():
    """A tie order for the rules that take one; seed and trials for the random ones;
    retries for random-order alone (docs/conventions.md, "Tie-break rules")."""
    for r in REGISTRY:
        keys = [k for k, _ in r.settings]
        expected = (["order"] if r.takes_orders else []) + (["seed", "trials"] if r.random else [])
        expected += ["retries"] if r.attempts else []
        assert keys == expected, r.name
        assert r.defaults == {k: v for k, v in r.settings}


def test_what_the_kernels_dispatch_on_is_consistent():
    """A random rule draws at a tie or draws its orders, and nothing else draws; a key is
    a rule's own key; a rule that switches orders has neither key nor draw; each is what
    docs/conventions.md says of the rule ("Tie-break rules")."""
    for r in REGISTRY:
        assert r.random == (r.draw or r.attempts), r.name
        assert not (r.takes_orders and r.random), r.name
        assert not r.key or rule(r.key).key == r.key, r.name
        assert not (r.switches_orders and (r.key or r.random)), r.name
    assert {r.name: r.key for r in REGISTRY if r.key} == {
        "pohl": "pohl",
        "roth": "roth",
        "corner": "corner",
        "pohl-random": "pohl",
        "roth-random": "roth",
    }
    assert names() == tuple(r.name for r in REGISTRY)
    assert [r.name for r in REGISTRY if r.switches_orders] == ["squirrel-cull"]
    assert rule("random-order").defaults == {"seed": 1, "trials": 100, "retries": 10}
    assert rule("pohl").defaults == {"order": "12345678"}
    assert rule("squirrel-cull").defaults == {}


def test_lookups_name_a_bad_value():
    assert rule("roth") is REGISTRY[2] and isinstance(rule("roth"), Rule)
    with pytest.raises(ValueError, match=r"rule 'sideways' is not one of fixed, pohl, .*roth-random$"):
        rule("sideways")
    with pytest.raises(ValueError, match="'sideways' is not a property of a rule"):
        names(sideways=True)
    with pytest.raises(ValueError, match="rule 'sideways'"):
        tiebreak.rule_code("sideways")


def _sources(root: Path):
    """(path relative to ``root``, code) of every Python, Snakemake and notebook code
    source under :data:`SCANNED`."""
    for top in SCANNED:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root)
            if rel == REGISTRY_FILE or not path.is_file() or ".ipynb_checkpoints" in path.parts:
                continue
            if path.suffix == ".ipynb":
                cells = json.loads(path.read_text())["cells"]
                yield rel, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
            elif path.suffix in (".py", ".smk") or path.name == "Snakefile":
                yield rel, path.read_text()


def listed_rule_names(root: Path) -> list[str]:
    """``path: text`` of each run of two or more quoted rule names with commas between
    (a tuple, list or set literal, or arguments) under ``root``, the whole run at once."""
    name = "|".join(re.escape(n) for n in sorted(naive_rules.RULES, key=len, reverse=True))
    quoted = rf"""(?:"(?:{name})"|'(?:{name})')"""
    run = re.compile(rf"{quoted}(?:\s*,\s*{quoted})+")
    return [f"{rel}: {m.group(0)}" for rel, text in _sources(root) for m in run.finditer(text)]


#: Lists that choose rules rather than declare them: the example notebook's own studies
#: (which rules a reader computes without the workflow's tables), not a property.
CHOSEN = {
    'examples/03-rules-results.ipynb: "fixed", "pohl", "roth", "corner", "random", "random-order", "squirrel-cull"',
    'examples/03-rules-results.ipynb: "fixed", "roth", "random"',
}


def test_no_list_of_rule_names_outside_the_registry():
    """Every other list is derived from the registry (its names and properties)."""
    assert [f for f in listed_rule_names(ROOT) if f not in CHOSEN] == []


def test_the_scan_finds_a_list_of_rule_names(tmp_path):
    """The scan above can fail: a planted tuple, a list over lines and a notebook's list."""
    (tmp_path / "knight").mkdir()
    (tmp_path / "knight" / "a.py").write_text("X = ('fixed', \"pohl\")\nY = [\n    'random',\n    'roth-random',\n]\n")
    (tmp_path / "examples").mkdir()
    cell = {"cell_type": "code", "source": ['RANDOM = ["random", "random-order"]\n']}
    (tmp_path / "examples" / "n.ipynb").write_text(json.dumps({"cells": [cell]}))
    for top in ("benchmarks", "workflow"):
        (tmp_path / top).mkdir()
    assert listed_rule_names(tmp_path) == [
        "knight/a.py: 'fixed', \"pohl\"",
        "knight/a.py: 'random',\n    'roth-random'",
        'examples/n.ipynb: "random", "random-order"',
    ]
