"""The examples gallery: one card per notebook, its thumbnail taken from the notebook's
own executed outputs.

``notebook-gallery`` (no arguments) places a grid of cards, one per page under
``examples/`` (the notebooks of the project's ``examples/`` folder, which ``conf.py``
copies there), in name order. Each card shows the notebook's title, the first sentence
of its first paragraph and the first image among its cell outputs (a figure the
notebook draws when the build executes it), and links to the notebook's page.

The cards are filled in when pages are written, after every notebook has been read
and executed. A notebook with no image output warns (and so fails the strict build):
a card without a figure would not show what the notebook does.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

FOLDER = "examples/"  # docnames of the notebooks' pages start with this


class gallery(nodes.General, nodes.Element):
    """Where the cards go; replaced by them when the page is written."""


class NotebookGallery(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        hosts = self.env.__dict__.setdefault("knight_gallery_hosts", set())
        hosts.add(self.env.docname)
        return [gallery()]


def _in_output(node: nodes.Node) -> bool:
    """Whether ``node`` sits in a cell's output (MyST-NB's ``cell_output`` container)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.Element) and "cell_output" in parent.get("classes", []):
            return True
        parent = parent.parent
    return False


def first_sentence(text: str) -> str:
    """The text up to and including its first full stop followed by a space (or all)."""
    text = " ".join(text.split())
    match = re.search(r"[.?!](\s|$)", text)
    return text[: match.end()].strip() if match else text


def read_card(app, doctree: nodes.document) -> None:
    """Record a notebook page's title, summary and first output image."""
    docname = app.env.docname
    if not docname.startswith(FOLDER):
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    title = section[0].astext() if section is not None else docname
    paragraph = next((p for p in doctree.findall(nodes.paragraph) if not _in_output(p)), None)
    image = next((i for i in doctree.findall(nodes.image) if _in_output(i)), None)
    if image is None:
        logger.warning(f"{docname}: no image among its cell outputs for the gallery's thumbnail", location=docname)
        return
    cards = app.env.__dict__.setdefault("knight_gallery_cards", {})
    cards[docname] = {
        "title": title,
        "summary": first_sentence(paragraph.astext()) if paragraph is not None else "",
        "uri": image["uri"],
        "candidates": dict(image.get("candidates", {})),
    }


def purge(app, env, docname: str) -> None:
    env.__dict__.get("knight_gallery_cards", {}).pop(docname, None)
    env.__dict__.get("knight_gallery_hosts", set()).discard(docname)


def merge(app, env, docnames, other) -> None:
    env.__dict__.setdefault("knight_gallery_cards", {}).update(
        {d: c for d, c in other.__dict__.get("knight_gallery_cards", {}).items() if d in docnames}
    )
    env.__dict__.setdefault("knight_gallery_hosts", set()).update(
        d for d in other.__dict__.get("knight_gallery_hosts", set()) if d in docnames
    )


def outdated(app, env, added, changed, removed) -> list[str]:
    """Rewrite the gallery's page whenever a notebook is added, changed or removed."""
    if any(d.startswith(FOLDER) for d in (*added, *changed, *removed)):
        return sorted(env.__dict__.get("knight_gallery_hosts", set()))
    return []


def fill(app, doctree: nodes.document, docname: str) -> None:
    """Replace each ``gallery`` node with the cards of every notebook page."""
    cards = app.env.__dict__.get("knight_gallery_cards", {})
    notebooks = sorted(d for d in app.env.found_docs if d.startswith(FOLDER))
    for node in list(doctree.findall(gallery)):
        grid = nodes.container(classes=["knight-gallery"])
        for name in notebooks:
            card = cards.get(name)
            if card is None:  # warned when it was read
                continue
            uri = app.builder.get_relative_uri(docname, name)
            image = nodes.image(uri=card["uri"], candidates=card["candidates"], alt=card["title"])
            box = nodes.container(classes=["knight-card"])
            thumbnail = nodes.reference("", "", image, refuri=uri, internal=True)
            box += nodes.paragraph("", "", thumbnail, classes=["knight-card-image"])
            title = nodes.reference("", card["title"], refuri=uri, internal=True, classes=["knight-card-link"])
            box += nodes.paragraph("", "", title, classes=["knight-card-title"])
            box += nodes.paragraph("", card["summary"], classes=["knight-card-summary"])
            grid += box
        node.replace_self(grid)


def setup(app):
    app.add_node(gallery)
    app.add_directive("notebook-gallery", NotebookGallery)
    # after Sphinx's image collector (priority 500), which makes image URIs source-relative
    app.connect("doctree-read", read_card, priority=600)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-get-outdated", outdated)
    app.connect("doctree-resolved", fill)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
