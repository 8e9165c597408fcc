"""The census's report page: Markdown written from the census tables alone.

Every number on the page is read from the tables of :mod:`knight.sweep.census`
(``boards``, ``orders``, ``ends``); nothing is computed from the runs here. Squares and
classes are 1-based (docs/census.md).
"""

from __future__ import annotations

import polars as pl

#: Start classes whose tours' ends are followed as N grows: a corner, its edge neighbour
#: and the square diagonally inside it (they exist on every board of side 4 or more).
END_CLASSES = ((1, 1), (1, 2), (2, 2))
#: Orders listed by the number of boards they complete everywhere on.
TOP_ORDERS = 10


def _pct(x: float) -> str:
    return f"{100 * x:.2f} %"


def _classes(n: int) -> str:
    return f"{n:,} class" if n == 1 else f"{n:,} classes"


def _summary_section(boards: pl.DataFrame, orders: pl.DataFrame) -> list[str]:
    """A few findings, each read off the tables."""
    square = boards.filter((pl.col("rows") == pl.col("cols")) & (pl.col("tour_starts") > 0))
    if square.height == 0:
        return []
    lines = ["## In short", ""]
    for parity, name in ((0, "even"), (1, "odd")):
        part = square.filter(pl.col("rows") % 2 == parity)
        if part.height == 0:
            continue
        lo, hi = part.sort("completion_rate").row(0, named=True), part.sort("completion_rate").row(-1, named=True)
        some = part.filter(pl.col("orders_everywhere") > 0)
        last = some.row(-1, named=True) if some.height else None
        lines.append(
            f"- {name.capitalize()} boards ({part['rows'].min()}..{part['rows'].max()}): completion "
            f"{_pct(lo['completion_rate'])} ({lo['rows']}x{lo['cols']}) to {_pct(hi['completion_rate'])} "
            f"({hi['rows']}x{hi['cols']}); "
            + (
                f"the largest on which some order completes everywhere is {last['rows']}x{last['cols']} "
                f"({last['orders_everywhere']:,} orders, {_classes(last['classes_everywhere'])})."
                if last
                else "no order completes everywhere on any of them."
            )
        )
    big = square.filter(pl.col("rows") % 2 == 0)
    if big.height:
        r = big.row(-1, named=True)
        lines.append(
            f"- Closed tours on {r['rows']}x{r['cols']}: {_pct(r['closed_rate'])} of the runs; "
            f"{r['orders_closing']:,} orders ({_classes(r['classes_closing'])}) close a tour from some start."
        )
    if orders.height:
        most = int(orders["everywhere"].max())
        longest = int(orders["run_length"].max())
        lines.append(
            f"- No order completes everywhere on more than {most} of the {int(orders['boards'].max())} boards "
            f"with tour starts; the longest run of consecutive boards is {longest}."
        )
    return [*lines, ""]


def _boards_section(boards: pl.DataFrame) -> list[str]:
    lines = [
        "## Per board",
        "",
        "Rates over every start x every order. *Tour starts*: starts from which some order "
        "completes. *Everywhere*: orders that complete from every tour start (symmetry "
        "classes in brackets); *from every start*: the thesis's table 58 (every start, "
        "so none on odd boards); *closing*: orders that close a tour from some start.",
        "",
        "| board | runs | complete | closed | tour starts | starts where every order completes "
        "| everywhere (classes) | from every start | closing (classes) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in boards.iter_rows(named=True):
        lines.append(
            f"| {r['rows']}x{r['cols']} | {r['runs']:,} | {_pct(r['completion_rate'])} | {_pct(r['closed_rate'])} "
            f"| {r['tour_starts']:,} of {r['starts']:,} | {r['starts_every_order']:,} "
            f"| {r['orders_everywhere']:,} ({r['classes_everywhere']:,}) | {r['orders_complete_all']:,} "
            f"| {r['orders_closing']:,} ({r['classes_closing']:,}) |"
        )
    total = boards.select(pl.col("runs", "complete", "closed").sum()).row(0, named=True)
    lines += [
        "",
        f"In all: {total['runs']:,} runs, {total['complete']:,} complete tours "
        f"({_pct(total['complete'] / total['runs'])}), {total['closed']:,} closed "
        f"({_pct(total['closed'] / total['runs'])}).",
        "",
    ]
    return lines


def _histogram(orders: pl.DataFrame, column: str) -> str:
    counts = orders.group_by(column).len().sort(column, nulls_last=True)
    parts = [f"{'never' if v is None else v}: {n:,}" for v, n in counts.iter_rows()]
    return "; ".join(parts)


def _orders_section(orders: pl.DataFrame) -> list[str]:
    if orders.height == 0:
        return ["## Per order", "", "No square board with tour starts was swept.", ""]
    boards = int(orders["boards"].max())
    some = orders.filter(pl.col("everywhere") > 0)
    longest = int(orders["run_length"].max())
    best_run = orders.filter(pl.col("run_length") == longest).sort("order")
    examples = best_run.head(4).iter_rows(named=True)
    top = orders.sort(["everywhere", "order"], descending=[True, False]).head(TOP_ORDERS)
    lines = [
        "## Per order",
        "",
        f"Over the {boards} square boards with tour starts. {some.height:,} orders "
        f"({_classes(some['class_id'].n_unique())}) complete everywhere on at least one of them; "
        f"{orders.filter(pl.col('everywhere') == boards).height:,} on all of them.",
        "",
        f"- First failure (smallest N it fails on): {_histogram(orders, 'first_failure')}.",
        f"- First success (smallest N it completes everywhere on): {_histogram(orders, 'first_success')}.",
        f"- Next failure (the first N above its first success that it fails on): {_histogram(orders, 'next_failure')}.",
        f"- Longest run of consecutive N on which one order never fails: {longest} boards, by "
        f"{best_run.height:,} orders ({_classes(best_run['class_id'].n_unique())}), e.g. "
        + ", ".join(f"`{r['order_string']}` (N = {r['run_from']}..{r['run_to']})" for r in examples)
        + ".",
        "",
        f"The {TOP_ORDERS} orders that complete everywhere on the most boards (ties by rank):",
        "",
        "| order | rank | class | boards everywhere | first success | next failure | longest run | closing on |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in top.iter_rows(named=True):
        run = f"{r['run_length']} (N = {r['run_from']}..{r['run_to']})" if r["run_length"] else "0"
        lines.append(
            f"| `{r['order_string']}` | {r['order']:,} | {r['class_id']:,} | {r['everywhere']} of {r['boards']} "
            f"| {r['first_success'] or '-'} | {r['next_failure'] or '-'} | {run} | {r['closing']} boards |"
        )
    return [*lines, ""]


def _ends_section(ends: pl.DataFrame) -> list[str]:
    lines = [
        "## Where tours end, per start class",
        "",
        "Complete tours from the starts of a class and the classes of their end squares "
        "(class (a, b): rows and columns from the nearest edges, a <= b); *on the border*: "
        "the share ending on the outer ring (a = 1).",
        "",
    ]
    for a, b in END_CLASSES:
        part = ends.filter((pl.col("start_a") == a) & (pl.col("start_b") == b))
        if part.height == 0:
            continue
        lines += [
            f"Start class ({a}, {b}):",
            "",
            "| board | tours | most frequent end classes (share) | on the border |",
            "|---|---|---|---|",
        ]
        for (rows, cols), g in part.group_by(["rows", "cols"], maintain_order=True):
            g = g.sort(["complete", "end_a", "end_b"], descending=[True, False, False])
            tours = int(g["complete"].sum())
            top = ", ".join(f"({r['end_a']}, {r['end_b']}) {_pct(r['share'])}" for r in g.head(3).iter_rows(named=True))
            border = float(g.filter(pl.col("end_a") == 1)["complete"].sum()) / tours
            lines.append(f"| {rows}x{cols} | {tours:,} | {top} | {_pct(border)} |")
        lines.append("")
    return lines


def census_page(tables: dict[str, pl.DataFrame]) -> str:
    """The report page (Markdown) of the census tables ``boards``, ``orders``, ``ends``."""
    boards = tables["boards"]
    names = boards.select(pl.format("{}x{}", "rows", "cols")).to_series().to_list()
    head = [
        "# The census: every start x every tie order",
        "",
        f"Boards: {', '.join(names)}. Generated by the workflow's `census` target from the "
        "census tables (results/census/{boards,orders,ends}.parquet); definitions in docs/census.md.",
        "",
    ]
    body = (
        _summary_section(boards, tables["orders"])
        + _boards_section(boards)
        + _orders_section(tables["orders"])
        + _ends_section(tables["ends"])
    )
    return "\n".join(head + body).rstrip() + "\n"


__all__ = ["census_page", "END_CLASSES", "TOP_ORDERS"]
