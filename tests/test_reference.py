"""The reference (docs/reference/api.md, one generated page per public name) describes every
public name completely: a summary, every parameter of the signature in Parameters with a
description and nothing else there, Returns (or Yields) when the call gives a value, docs
pages as links, and Examples that run.

The public names come from the code: ``__all__`` and the lazy exports (``_EXPORTS``) of
each public package, the functions and classes a public module without ``__all__``
defines, and the public methods and properties of every public class. Docstrings are read
as numpydoc reads them (:class:`numpydoc.docscrape.NumpyDocString`)."""

import ast
import doctest
import importlib
import inspect
import re
import textwrap

import pytest
from numpydoc.docscrape import NumpyDocString

#: The packages and modules whose public names make the reference.
PACKAGES = [
    "knight",
    "knight.sweep",
    "knight.sweep.tables",
    "knight.rules",
    "knight.rules.tables",
    "knight.queens",
    "knight.queens.tables",
    "knight.exact",
    "knight.claims",
]

#: A docs page named as plain text (a link is :doc:`/page`).
PLAIN_PAGE = re.compile(r"(?<!\w)docs/[\w/.-]+\.md\b")


def module_names(module) -> list[str]:
    """The public names of ``module``: its ``__all__`` and lazy exports, or (without
    ``__all__``) the functions and classes it defines."""
    if hasattr(module, "__all__"):
        return list(dict.fromkeys([*module.__all__, *getattr(module, "_EXPORTS", {})]))
    return [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and obj.__module__ == module.__name__
    ]


def members(cls) -> list[tuple[str, object]]:
    """``(name, function)`` of the public methods, class methods and properties of ``cls``
    (the getter for a property)."""
    found = []
    for name, attr in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(attr, property):
            found.append((name, attr.fget))
        elif isinstance(attr, classmethod | staticmethod):
            found.append((name, attr.__func__))
        elif inspect.isfunction(attr):
            found.append((name, attr))
    return found


def public() -> dict[str, object]:
    """Every public name of the reference, dotted as a reader types it, with its object."""
    names = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module_names(module):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            names[f"{package}.{name}"] = obj
            if inspect.isclass(obj):
                for method, function in members(obj):
                    names[f"{package}.{name}.{method}"] = function
    return names


PUBLIC = public()


def docstring(dotted: str, obj) -> str:
    """The docstring of ``obj``; for a constant, its ``#:`` comment in the source."""
    if inspect.isroutine(obj) or inspect.isclass(obj) or inspect.ismodule(obj):
        return inspect.getdoc(obj) or ""
    from sphinx.pycode import ModuleAnalyzer

    package, name = dotted.rsplit(".", 1)
    docs = ModuleAnalyzer.for_module(origin(package, name)).find_attr_docs()
    return "\n".join(docs.get(("", name), [])).strip()


def origin(package: str, name: str) -> str:
    """The module that defines ``package.name``: its lazy export's module, the module
    the package imports it from, or the package itself."""
    module = importlib.import_module(package)
    if name in getattr(module, "_EXPORTS", {}):
        return module._EXPORTS[name]
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.ImportFrom) and any(alias.name == name for alias in node.names):
            return node.module
    return package


def gives_a_value(function) -> bool:
    """True when ``function``'s own body returns a value or yields (nested functions
    aside)."""
    source = textwrap.dedent(inspect.getsource(inspect.unwrap(function)))
    tree = ast.parse(source).body[0]
    pending = list(ast.iter_child_nodes(tree))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def problems(dotted: str, obj, kind: str = "") -> list[str]:
    """What the reference would lack for ``obj`` (named ``dotted``); ``kind`` is
    ``"property"`` for a property's getter (a summary is all it needs)."""
    doc = docstring(dotted, obj)
    found = []
    if not doc.strip():
        return [f"{dotted}: no docstring"]
    parsed = NumpyDocString(doc)
    if not " ".join(parsed["Summary"]).strip():
        found.append(f"{dotted}: no one-line summary")
    for match in PLAIN_PAGE.finditer(doc):
        found.append(f"{dotted}: names {match.group(0)} as plain text (a link is :doc:`/page`)")
    if kind == "property" or not callable(obj) or (inspect.isclass(obj) and issubclass(obj, BaseException)):
        return found
    described = {}
    for param in parsed["Parameters"]:
        for name in param.name.split(","):
            described[name.strip().lstrip("*")] = " ".join(param.desc).strip()
    signature = [
        name
        for name, p in inspect.signature(obj).parameters.items()
        if name not in ("self", "cls") and not (inspect.isclass(obj) and p.kind == p.VAR_KEYWORD)
    ]
    for name in signature:
        if name not in described:
            found.append(f"{dotted}: parameter {name} missing from Parameters")
        elif not described[name]:
            found.append(f"{dotted}: parameter {name} has an empty description")
    for name in described:
        if name not in signature:
            found.append(f"{dotted}: Parameters lists {name}, which the signature lacks")
    if not inspect.isclass(obj) and gives_a_value(obj) and not (parsed["Returns"] or parsed["Yields"]):
        found.append(f"{dotted}: returns a value but has no Returns")
    return found


def kind_of(dotted: str) -> str:
    owner, name = dotted.rsplit(".", 1)
    cls = PUBLIC.get(owner)
    return "property" if inspect.isclass(cls) and isinstance(vars(cls).get(name), property) else ""


def test_the_public_names_come_from_the_code():
    assert {"knight.tour", "knight.claims.to_table", "knight.claims.Scan.run_slice"} <= set(PUBLIC)
    assert {"knight.queens.tables.solutions_frame", "knight.Tour.closed", "knight.exact.PRUNE_LEVELS"} <= set(PUBLIC)
    assert not any(name.rsplit(".", 1)[1].startswith("_") for name in PUBLIC)


@pytest.mark.parametrize("dotted", sorted(PUBLIC))
def test_every_public_name_is_described(dotted):
    assert not problems(dotted, PUBLIC[dotted], kind_of(dotted))


@pytest.mark.parametrize("package", PACKAGES)
def test_package_docstrings_link_their_pages(package):
    doc = importlib.import_module(package).__doc__ or ""
    assert not PLAIN_PAGE.findall(doc), f"{package}: docs pages named as plain text, not :doc: links"


def toy(board, start=(1, 1), *, seed=1, extra=None):
    """Walk the toy. See docs/conventions.md and ``docs/api.md``.

    Parameters
    ----------
    board : int
        The board.
    start : tuple
    stale : int
        A parameter the signature lost.
    """
    return board


def test_the_checker_catches_an_incomplete_docstring():
    found = problems("toy", toy)
    assert found == [
        "toy: names docs/conventions.md as plain text (a link is :doc:`/page`)",
        "toy: names docs/api.md as plain text (a link is :doc:`/page`)",
        "toy: parameter start has an empty description",
        "toy: parameter seed missing from Parameters",
        "toy: parameter extra missing from Parameters",
        "toy: Parameters lists stale, which the signature lacks",
        "toy: returns a value but has no Returns",
    ]
    assert problems("undocumented", lambda: None) == ["undocumented: no docstring"]


def test_the_checker_passes_a_complete_docstring():
    def complete(board, *names, seed=1):
        """Walk the toy (:doc:`/conventions`).

        Parameters
        ----------
        board : int
            The board's side, in squares.
        *names : str
            Names of the toy.
        seed : int
            The seed of the generator.

        Returns
        -------
        int
            The board.
        """
        return board

    assert problems("complete", complete) == []


@pytest.mark.parametrize("dotted", sorted(PUBLIC))
def test_the_examples_run(dotted, tmp_path, monkeypatch):
    obj = PUBLIC[dotted]
    if not (inspect.isroutine(obj) or inspect.isclass(obj)):
        return
    monkeypatch.chdir(tmp_path)
    globs = dict(vars(importlib.import_module(inspect.unwrap(obj).__module__)))
    tests = doctest.DocTestFinder(recurse=False).find(obj, dotted, globs=globs)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, dotted


def test_the_reference_page_names_every_public_call(repo):
    """Each public name (its methods aside: they are on their class's page) is an entry of
    an autosummary list of the reference page, under its module."""
    page = open(f"{repo}/docs/reference/api.md", encoding="utf-8").read()
    listed = set()
    module = None
    for line in page.splitlines():
        if line.startswith(".. currentmodule:: "):
            module = line.split(":: ", 1)[1].strip()
        elif re.fullmatch(r"   [A-Za-z_][\w.]*", line) and module:
            listed.add(f"{module}.{line.strip()}")
    wanted = {name for name in PUBLIC if name.rsplit(".", 1)[0] not in PUBLIC}
    assert wanted - listed == set()
    assert listed - wanted == set()
