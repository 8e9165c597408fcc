"""Tables as people read them: GitHub Markdown, and a standalone HTML page."""

from __future__ import annotations

import html

import polars as pl


def markdown(frame: pl.DataFrame, *, empty: str = "(none)") -> str:
    """GitHub Markdown table; nulls print as blanks; a frame with no rows prints ``empty``."""
    if frame.height == 0:
        return empty + "\n"
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---:" for _ in frame.columns) + "|"
    body = ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in frame.iter_rows()]
    return "\n".join([head, rule, *body]) + "\n"


def html_table(frame: pl.DataFrame, *, title: str, note: str = "", empty: str = "(none)", max_rows: int = 2000) -> str:
    """A self-contained HTML page with ``frame`` as a table (for the Snakemake report)."""
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{esc(title)}</title>",
        "<style>body{font-family:sans-serif;font-size:13px;margin:1em}"
        "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;text-align:right}"
        "th{background:#eee}</style></head><body>",
        f"<h3>{esc(title)}</h3>",
    ]
    if note:
        parts.append(f"<p>{esc(note)}</p>")
    if frame.height == 0:
        parts.append(f"<p>{esc(empty)}</p>")
    else:
        shown = frame.head(max_rows)
        parts.append(
            "<table><thead><tr>" + "".join(f"<th>{esc(c)}</th>" for c in shown.columns) + "</tr></thead><tbody>"
        )
        for row in shown.iter_rows():
            parts.append("<tr>" + "".join(f"<td>{'' if v is None else esc(str(v))}</td>" for v in row) + "</tr>")
        parts.append("</tbody></table>")
        if frame.height > max_rows:
            parts.append(f"<p>First {max_rows:,} of {frame.height:,} rows; the CSV has all of them.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
