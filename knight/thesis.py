"""The thesis's tables 58 and 59, and tables as Markdown and HTML pages.

Table 58: the tie orders that give a complete tour from every start run on a board.
Table 59: for each start square, how many of the orders run fail (no complete tour),
laid out as the board (rows 1..R top to bottom, columns 1..C left to right).
Inputs are the per-board tables of :mod:`knight.tables` (``orders``, ``starts``,
``ends``); rows and columns people read are 1-based.
"""

from __future__ import annotations

import html

import numpy as np
import polars as pl

from knight.board import Board


def table58(orders: pl.DataFrame) -> pl.DataFrame:
    """Orders completing from every start run (``complete_all``), by rank.

    Columns: ``order`` (string), ``rank``, ``class_id``, ``starts`` (starts run, all
    complete) and ``closed`` (starts whose tour closes).
    """
    return (
        orders.filter(pl.col("complete_all"))
        .sort("order")
        .select(
            pl.col("order_string").alias("order"),
            pl.col("order").cast(pl.UInt32).alias("rank"),
            pl.col("class_id").cast(pl.UInt32),
            pl.col("starts").cast(pl.UInt32),
            pl.col("closed").cast(pl.UInt32),
        )
    )


def table59(starts: pl.DataFrame, board: Board) -> pl.DataFrame:
    """Failing orders per start square as a board: column ``row`` (1-based), then one
    column per board column ``"1"`` .. ``"C"``; null where the start was not run."""
    grid = np.full((board.rows, board.cols), None, dtype=object)
    for s, f in zip(starts["start"].to_list(), starts["failing"].to_list()):
        r, c = board.coords(int(s))
        grid[r, c] = int(f)
    data = {"row": list(range(1, board.rows + 1))}
    for c in range(board.cols):
        data[str(c + 1)] = grid[:, c].tolist()
    return pl.DataFrame(data, schema={"row": pl.UInt16, **{str(c + 1): pl.UInt32 for c in range(board.cols)}})


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
