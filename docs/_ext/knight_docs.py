"""Reference pages generated from the code at build time.

- ``config-keys SECTION``: a table of every key of one section of the configuration,
  read from the JSON schemas in ``knight/pipeline/schemas/`` (the one source of the keys,
  their types, defaults and meanings). ``$ref`` to another schema file or to ``$defs``
  is followed.
- ``knight-cli [COMMAND ...]``: the usage line and a table of the arguments of one
  ``knight`` command, read from its argparse parser (``knight.cli.build_parser``).

At the end of reading, a warning names every config section and every command that no
page documents, so a new section or command cannot be left out of the reference.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

SCHEMAS = Path(__file__).resolve().parents[2] / "knight" / "pipeline" / "schemas"
ROOT_SCHEMA = "config.schema.yaml"


# --- config keys -------------------------------------------------------------------


def load_schema(name: str) -> dict:
    """A schema file as the config check reads it (the rules' names and settings filled in
    from the rule registry)."""
    from knight.pipeline.config import load_schema as package_schema

    return package_schema(SCHEMAS / name)


def resolve(node: dict, doc: dict) -> tuple[dict, dict]:
    """``node`` with its ``$ref`` followed (its own keys kept over the target's), and the
    schema document the result belongs to."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        rest = {k: v for k, v in node.items() if k != "$ref"}
        file, _, pointer = ref.partition("#")
        target_doc = load_schema(file) if file else doc
        target = target_doc
        for part in filter(None, pointer.split("/")):
            target = target[part]
        node, doc = {**target, **rest}, target_doc
    return node, doc


def kind(node: dict, doc: dict) -> str:
    """A short type of a schema node: ``integer``, ``one of: a, b``, ``list of string``..."""
    node, doc = resolve(node, doc)
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return "one of: " + ", ".join(str(v) for v in node["enum"])
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(kind(alt, doc) for alt in node[key])
    t = node.get("type")
    if t == "array" or (t is None and "items" in node):
        items = node.get("items")
        return "list" if items is None else f"list of ({kind(items, doc)})"
    if t == "object" or (t is None and "properties" in node):
        props = node.get("properties")
        return "{" + ", ".join(props) + "}" if props else "mapping"
    if isinstance(t, list):
        return " or ".join(t)
    if t == "string" and "pattern" in node:
        return f"string matching {node['pattern']}"
    return t or "any"


def fmt_default(node: dict) -> str:
    if "default" not in node:
        return ""
    value = node["default"]
    return json.dumps(value) if not isinstance(value, str) else value


def rows(node: dict, doc: dict, path: str):
    """(key, type, default, meaning) for ``path`` and every key below it."""
    node, doc = resolve(node, doc)
    yield path, kind(node, doc), fmt_default(node), " ".join(str(node.get("description", "")).split())
    yield from children(node, doc, path)


def children(node: dict, doc: dict, path: str):
    node, doc = resolve(node, doc)
    for name, sub in (node.get("properties") or {}).items():
        yield from rows(sub, doc, f"{path}.{name}" if path else name)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        names = resolve(node.get("propertyNames", {}), doc)[0]
        label = "<" + ("rule" if "enum" in names else "name") + ">"
        yield from rows(extra, doc, f"{path}.{label}")
    items = node.get("items")
    if isinstance(items, dict):
        yield from children(items, doc, f"{path}[]")
    for alt in node.get("oneOf", []):  # a list of objects among the alternatives
        alt, alt_doc = resolve(alt, doc)
        if alt.get("type") == "array" and isinstance(alt.get("items"), dict):
            yield from children(alt["items"], alt_doc, f"{path}[]")


def sections() -> list[str]:
    return list(load_schema(ROOT_SCHEMA)["properties"])


def table(header: list[str], body: list[list[nodes.Node]], widths: list[int]) -> nodes.table:
    tbl = nodes.table(classes=["knight-reference"])
    group = nodes.tgroup(cols=len(header))
    tbl += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for h in header:
        row += nodes.entry("", nodes.paragraph(text=h))
    head += row
    tbody = nodes.tbody()
    group += tbody
    for cells in body:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph("", "", cell) if not isinstance(cell, nodes.paragraph) else cell
            row += entry
        tbody += row
    return tbl


def code(text: str) -> nodes.Node:
    return nodes.literal(text=text) if text else nodes.Text("")


class ConfigKeys(SphinxDirective):
    """Every key of one config section, from its schema."""

    required_arguments = 1

    def run(self):
        section = self.arguments[0]
        root = load_schema(ROOT_SCHEMA)
        if section not in root["properties"]:
            raise self.error(f"config-keys: no section {section!r} in {ROOT_SCHEMA} (has {', '.join(sections())})")
        self.env.note_dependency(str(SCHEMAS / ROOT_SCHEMA))
        for path in SCHEMAS.glob("*.yaml"):
            self.env.note_dependency(str(path))
        note(self.env, "knight_config_sections", section)
        node, doc = resolve(root["properties"][section], root)
        out = []
        if node.get("description"):
            out.append(nodes.paragraph(text=" ".join(node["description"].split())))
        body = [
            [code(key), nodes.Text(t), code(default), nodes.Text(meaning)]
            for key, t, default, meaning in children(node, doc, section)
        ]
        out.append(table(["key", "type", "default", "meaning"], body, [22, 22, 16, 40]))
        return out


# --- the command line ----------------------------------------------------------------


def parser_for(words: list[str]) -> argparse.ArgumentParser:
    from knight.cli import build_parser

    parser = build_parser(words[0] if words else None)
    for word in words:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def all_commands() -> set[str]:
    """Every command path with no subcommands of its own: ``sweep``, ``queens place``..."""
    from knight.cli import COMMANDS

    found = set()

    def walk(words):
        subs = subcommands(parser_for(words))
        if not subs:
            found.add(" ".join(words))
        for name in subs:
            walk([*words, name])

    for name in COMMANDS:
        walk([name])
    return found


class KnightCli(SphinxDirective):
    """The usage and arguments of ``knight WORDS...``, from its parser."""

    optional_arguments = 3
    option_spec = {"summary": directives.flag}

    def run(self):
        words = list(self.arguments)
        parser = parser_for(words)
        if "summary" in self.options:  # one row per command: name and help line
            return [self.summary()]
        note(self.env, "knight_cli_commands", " ".join(words))
        out = []
        if parser.description:
            out.append(nodes.paragraph(text=" ".join(parser.description.split())))
        usage = parser.format_usage().strip().removeprefix("usage: ")
        out.append(nodes.literal_block(usage, usage, language="text"))
        formatter = parser._get_formatter()
        body = []
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
                continue
            if isinstance(action, argparse._SubParsersAction):
                continue
            if action.option_strings:
                name = ", ".join(action.option_strings)
                if action.nargs != 0:
                    name += " " + formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
            else:
                name = formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
            text = " ".join((formatter._expand_help(action) if action.help else "").split())
            default = action.default
            hidden = default is None or default is False or default == argparse.SUPPRESS or action.nargs == 0
            shown = "" if hidden else repr(default)
            body.append([code(name), nodes.Text(text), code(shown)])
        if body:
            out.append(table(["argument", "meaning", "default"], body, [28, 56, 16]))
        return out

    def summary(self) -> nodes.table:
        from knight.cli import COMMANDS, build_parser

        top = build_parser()
        sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
        help_of = {a.dest: a.help for a in sub._choices_actions}
        body = [[code(f"knight {name}"), nodes.Text(help_of.get(name) or "")] for name in COMMANDS]
        return table(["command", "what it does"], body, [30, 70])


def note(env, name: str, item: str) -> None:
    """Record that the page being read documents ``item`` (a config section or command)."""
    if not hasattr(env, name):
        setattr(env, name, {})
    getattr(env, name).setdefault(env.docname, set()).add(item)


def documented(env, name: str) -> set[str]:
    return set().union(*getattr(env, name, {}).values())


def check_coverage(app, env):
    """Warn about config sections and commands that no page documents."""
    for section in sorted(set(sections()) - documented(env, "knight_config_sections")):
        logger.warning(f"config section {section!r} has no config-keys table on any page", type="knight")
    for command in sorted(all_commands() - documented(env, "knight_cli_commands")):
        logger.warning(f"command 'knight {command}' has no knight-cli entry on any page", type="knight")


NAMES = ("knight_config_sections", "knight_cli_commands")


def merge(app, env, docnames, other):
    for name in NAMES:
        mine = getattr(env, name, {})
        mine.update({d: s for d, s in getattr(other, name, {}).items() if d in docnames})
        setattr(env, name, mine)


def purge(app, env, docname):
    for name in NAMES:
        getattr(env, name, {}).pop(docname, None)


def setup(app):
    app.add_directive("config-keys", ConfigKeys)
    app.add_directive("knight-cli", KnightCli)
    app.connect("env-check-consistency", check_coverage)
    app.connect("env-merge-info", merge)
    app.connect("env-purge-doc", purge)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
