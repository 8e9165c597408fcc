"""Sphinx configuration of the knight documentation site.

Build (from the project folder, after ``pip install -e ".[docs]"``):

    sphinx-build -W --keep-going -n -b html docs docs/_build/html

Markdown pages are read by MyST-Parser, notebooks (``examples/``, linked into the site
as ``docs/examples``, a copy made at each build) are executed by MyST-NB during the build, and the reference pages
are generated from the code: the API from the docstrings (autodoc, autosummary), every
config key from the JSON schemas in ``knight/pipeline/schemas/`` and the command line
from its argparse parser (the small extension ``docs/_ext/knight_docs.py``).
"""

import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))


def copy_examples() -> None:
    """The notebooks of ``examples/`` as pages of the site: copied to ``docs/examples/``
    (not committed), so that they are read, executed and cross-linked like any page. A
    notebook removed from ``examples/`` is removed here too."""
    source, target = HERE.parent / "examples", HERE / "examples"
    target.mkdir(exist_ok=True)
    wanted = {p.name for p in source.glob("*.ipynb")}
    for stale in target.glob("*.ipynb"):
        if stale.name not in wanted:
            stale.unlink()
    for name in wanted:
        src, dst = source / name, target / name
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)


copy_examples()

project = "knight"
author = "the knight developers"
copyright = "the knight developers"
release = version = "0.1.0"

extensions = [
    "myst_nb",  # Markdown pages (MyST-Parser) and notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",  # a page per public name (docs/reference/generated/)
    "sphinx.ext.napoleon",  # the docstrings' numpydoc sections
    "sphinx.ext.viewcode",  # each page links to its highlighted source
    "knight_docs",  # config keys from the schemas, the CLI from its parser
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
smartquotes = False  # "--configfile" stays two hyphens in generated tables and prose
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "examples/README.md"]

# MyST: headings get anchors down to level 3, so [text](page.md#a-heading) is checked.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Notebooks: executed at every build, an error in a cell fails the build; no outputs are
# committed. Each runs in its own folder (examples/), with a time limit per cell.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300
nb_merge_streams = True

# The API reference: the public names only, one generated page each (not committed),
# from numpydoc-style docstrings. Types are the docstrings' (the signature keeps its
# annotations); defaults are shown as written in the source (``TREE_BYTES``, not 2**44).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autosummary_generate = True
autosummary_imported_members = False
templates_path = ["_templates"]  # the generated pages as MyST (autosummary/)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_preprocess_types = True
napoleon_use_rtype = False
LONG_TUPLE = re.compile(r"\((\d+), (\d+), (?:\d+, ){8,}(\d+)\)")


def shorten_long_defaults(app, what, name, obj, options, signature, return_annotation):
    """A signature with a long tuple of ints as a default (a dataclass's ``__init__``,
    whose source autodoc cannot read) shows it as ``(0, 1, ..., 40319)``: Sphinx parses
    a signature in time quadratic in its length, and a reader wants the range."""
    if signature and LONG_TUPLE.search(signature):
        return LONG_TUPLE.sub(r"(\1, \2, ..., \3)", signature), return_annotation
    return None


def constant_comment(app, what, name, obj, options, lines):
    """A constant a package re-exports (``knight.exact.PRUNE_LEVELS``) is described by its
    ``#:`` comment in the module that defines it, not by its type's docstring."""
    if what != "data":
        return
    from sphinx.pycode import ModuleAnalyzer

    package, attr = name.rsplit(".", 1)
    for module in sorted(m for m in sys.modules if m.startswith(package + ".")):
        if getattr(sys.modules[module], attr, None) is obj:
            comment = ModuleAnalyzer.for_module(module).find_attr_docs().get(("", attr))
            if comment:
                lines[:] = list(comment)
                return


def setup(app):
    app.connect("autodoc-process-signature", shorten_long_defaults)
    app.connect("autodoc-process-docstring", constant_comment)


# Strict build (-n): every cross-reference must resolve, except references to other
# libraries (no inventories are fetched: the build needs no network) and to internal
# modules of knight that the reference does not document (it documents public names).
nitpicky = True
OTHER_LIBRARIES = (
    "polars|pl|numpy|np|numpy\\.typing|npt|pyarrow|pa|dask|distributed"
    "|pathlib|os|io|collections|typing|argparse|datetime|dataclasses"
)
INTERNAL_MODULES = (
    "knight\\.(core|engine|runtime|pipeline|report|commands|claims|cli|warnsdorff|_lazy)"
    "|knight\\.(sweep|rules|queens|exact)\\.(?!tables\\b)\\w+"
)
nitpick_ignore_regex = [
    (r"py:.*", rf"({OTHER_LIBRARIES})(\..*)?"),
    (r"py:.*", rf"({INTERNAL_MODULES})(\..*)?"),
    # internal constants that public docstrings name (the runs table's schema is on the
    # sweep page; the solvers' names on the Tour's own entry)
    (r"py:data", r"(SOLVERS|RUNS_SCHEMA)"),
    (r"py:.*", r"(Path|ArrayLike|NDArray|DataFrame|LazyFrame|Board|Tour|Iterable|Sequence|Callable|Mapping)"),
]

# The site: six top sections (the root toctree: Get started, User guide, Examples,
# Reference, Development, Changelog), each page's left sidebar the navigation of its
# section; the landing page and the one-page sections have none (an empty sidebar
# would show). knight.css lets wide code and tables scroll.
extensions += ["knight_gallery"]  # the examples page's cards, thumbnails from the notebooks
html_theme = "pydata_sphinx_theme"
html_title = "knight"
html_static_path = ["_static"]
html_css_files = ["knight.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": [], "get-started": [], "changelog": []}
html_show_sourcelink = False
