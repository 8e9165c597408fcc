"""The reference describes every parameter of the public calls: each one is named in its
docstring (as ``name``), so the generated reference page (docs/reference/api.md) leaves
none out."""

import importlib
import inspect
import re

import pytest

#: The calls of the reference page, by the names a reader types.
PUBLIC = [
    "knight.tour",
    "knight.scan",
    "knight.parse_board",
    "knight.Tour",
    "knight.Tour.save",
    "knight.Tour.figure",
    "knight.sweep.run",
    "knight.rules.run",
    "knight.queens.dominate",
    "knight.queens.place",
    "knight.queens.domination_number",
    "knight.queens.measure_speedup",
    "knight.exact.backtrack",
    "knight.exact.construct",
    "knight.claims.Claim",
    "knight.claims.evaluate",
    "knight.claims.first_failures",
]


def resolve(dotted: str):
    """The object a reader reaches by typing ``dotted`` (a package's public name before a
    module of the same name, as ``knight.exact.backtrack``)."""
    first, *rest = dotted.split(".")
    obj = importlib.import_module(first)
    for name in rest:
        obj = getattr(obj, name)
    return obj


@pytest.mark.parametrize("dotted", PUBLIC)
def test_every_parameter_is_described(dotted):
    obj = resolve(dotted)
    doc = inspect.getdoc(obj) or ""
    params = [p for p in inspect.signature(obj).parameters if p not in ("self", "cls")]
    missing = [p for p in params if not re.search(rf"``{p}``|`{p}`", doc)]
    assert doc and not missing, f"{dotted}: no description of {', '.join(missing) or 'anything'}"


def test_the_reference_page_names_every_public_call(repo):
    page = open(f"{repo}/docs/reference/api.md", encoding="utf-8").read()
    for dotted in PUBLIC + ["knight.claims.Finding"]:
        owner = dotted.rsplit(".", 1)[0]
        assert f":: {dotted}\n" in page or (f":: {owner}\n" in page and owner in PUBLIC), dotted
