"""Findings: what the pipeline's own result tables say about one claim.

Each finding function takes a :class:`~knight.claims.spec.Claim` and the tables of what
tests it (polars frames or lazy frames; nothing is typed in) and returns a
:class:`Finding`: the verdict, the finding in one sentence, the first counter-example,
the range tested, and an evidence table a reader can hold against the source.

Verdicts: ``holds`` (no counter-example, every board the claim speaks of tested),
``holds up to ...`` (no counter-example on the boards tested, which are fewer),
``fails`` (with the first counter-example), ``not run`` (what tests it is not in the run).
Rates are compared with 95 % Wilson intervals (:func:`knight.core.frames.wilson`): a
claimed rate outside the interval of a board is a counter-example.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from knight.claims.spec import Claim, describe_range
from knight.core import published as pub
from knight.core.frames import wilson

HOLDS, FAILS, NOT_RUN = "holds", "fails", "not run"
#: The verdict of a finding that is a list to hold against the source's, not a yes or no.
LISTED = "listed"
#: Published values of A002563 that :mod:`knight.core.published` leaves out because the
#: computed classes contradict them: 43 classes for n = 16 cannot hold A002564's 2,968
#: sets (a class has at most 8 sets); the class search finds 371.
DISPUTED_CLASSES = {16: 43}


@dataclass
class Finding:
    """What the pipeline's tables say about a claim.

    Parameters
    ----------
    verdict : str
        ``"holds"``, ``"holds on ..."`` (no counter-example on the boards tested, fewer
        than the claim's), ``"fails"``, ``"listed"`` (a list to hold against the
        source's) or ``"not run"`` (what tests it is not in the run).
    finding : str
        The finding in one sentence.
    tested : str
        The sides or values tested (e.g. ``"5..8, 10"``), or ``"none"``.
    counterexample : str or None
        The first counter-example; None when there is none.
    evidence : polars.DataFrame
        A table a reader can hold against the source: one row per board or value.
    """

    verdict: str
    finding: str
    tested: str
    counterexample: str | None = None
    evidence: pl.DataFrame = field(default_factory=pl.DataFrame)


def not_run(claim: Claim) -> Finding:
    """The finding of a claim tested by nothing in the run: nothing is claimed to hold."""
    return Finding(NOT_RUN, f"{claim.tested_by!r} is not in this run's configuration", "none")


def _holds(claim: Claim, tested: list[int]) -> str:
    """``holds`` when every board of the claim was tested, else ``holds up to ...``."""
    missing = sorted(set(claim.tested_sides) - set(tested))
    return HOLDS if not missing else f"holds on {describe_range(tested)} (not run: {describe_range(missing)})"


def _corner_runs(runs, claim: Claim) -> pl.DataFrame:
    """Runs from (1, 1) of the claim's rule on its square boards: m, visited, squares, complete."""
    lf = runs.lazy()
    if claim.rule is not None:
        lf = lf.filter(pl.col("rule") == claim.rule)
    return (
        lf.filter((pl.col("start") == 0) & (pl.col("rows") == pl.col("cols")))
        .filter(pl.col("rows").is_in(list(claim.tested_sides)))
        .select(
            pl.col("rows").cast(pl.Int64).alias("m"),
            pl.col("visited").cast(pl.Int64),
            (pl.col("rows").cast(pl.Int64) ** 2).alias("squares"),
            "complete",
        )
        .unique(maintain_order=False)
        .sort("m")
        .collect()
    )


def _reached(row: dict) -> str:
    return f"m = {row['m']:,}: {row['visited']:,} of {row['squares']:,} squares"


def _more(total: int, limit: int) -> str:
    """How many items past the first ``limit`` of ``total`` only the evidence table holds."""
    return f", ... ({total - limit:,} more in the evidence table)" if total > limit else ""


def _listed(frame: pl.DataFrame, limit: int = 12) -> str:
    shown = [f"{r['m']:,} ({r['visited']:,}/{r['squares']:,})" for r in frame.head(limit).iter_rows(named=True)]
    return ", ".join(shown) + _more(frame.height, limit)


def _sides(sides: list[int], limit: int = 12) -> str:
    """The first ``limit`` sides as ranges, and how many more the evidence table holds."""
    return describe_range(sides[:limit]) + _more(len(sides), limit)


def tours_from_corner(claim: Claim, runs) -> Finding:
    """The rule completes a tour from (1, 1) on every m x m board of ``claim.boards``.

    >>> import knight
    >>> runs = knight.rules.run(5, "squirrel-cull")
    >>> c = Claim("sc", "S&C", "Tours.", "s", "tours_from_corner", boards=(5,))
    >>> tours_from_corner(c, runs).verdict
    'holds'
    """
    rows = _corner_runs(runs, claim)
    tested = rows["m"].to_list()
    failing = rows.filter(~pl.col("complete"))
    if failing.height:
        first = failing.row(0, named=True)
        text = f"no full tour on {failing.height:,} of {rows.height:,} boards: m = {_listed(failing)}"
        return Finding(FAILS, text, describe_range(tested), _reached(first), rows)
    text = f"a full tour from (1, 1) on every one of the {rows.height:,} boards tested"
    return Finding(_holds(claim, tested), text, describe_range(tested), None, rows)


def failures_from_corner(claim: Claim, runs) -> Finding:
    """Every m x m board of ``claim.boards`` on which the order fails from (1, 1), with
    the squares reached. With ``last_failure`` the claim holds when none of them is above
    it; without, the finding is the list itself (verdict ``listed``), rows to hold against
    the source's own list."""
    rows = _corner_runs(runs, claim)
    tested = rows["m"].to_list()
    failing = rows.filter(~pl.col("complete"))
    text = (
        f"fails on {failing.height:,} of {rows.height:,} boards: m = {_listed(failing)}"
        if failing.height
        else f"a full tour from (1, 1) on all {rows.height:,} boards tested"
    )
    if claim.last_failure is None:
        return Finding(LISTED, text, describe_range(tested), None, failing)
    beyond = failing.filter(pl.col("m") > claim.last_failure)
    if beyond.height:
        return Finding(FAILS, text, describe_range(tested), _reached(beyond.row(0, named=True)), failing)
    return Finding(_holds(claim, tested), text, describe_range(tested), None, failing)


def rate(claim: Claim, runs) -> Finding:
    """The claimed completion rate from (1, 1) against the pipeline's on every board,
    by the 95 % Wilson interval of the pipeline's rate; the claim holds when it is inside
    (``about``), below the upper end (``at_least``) or above the lower end (``at_most``)
    on at least ``claim.most`` of the boards.

    >>> import knight
    >>> runs = knight.rules.run(7, "random", trials=200, seed=3)
    >>> c = Claim("g7", "Ganzfried", "75 % at m = 7.", "s", "rate", boards=(7,), rate=("about", 0.75))
    >>> f = rate(c, runs)
    >>> f.verdict, f.evidence["runs"].to_list()
    ('holds', [200])
    """
    how, p = claim.rate
    lf = runs.lazy()
    if claim.rule is not None:
        lf = lf.filter(pl.col("rule") == claim.rule)
    low, high = wilson(pl.col("complete"), pl.col("runs"))
    inside = {
        "at_least": pl.col("ci_high") >= p,
        "at_most": pl.col("ci_low") <= p,
        "about": (pl.col("ci_low") <= p) & (pl.col("ci_high") >= p),
    }
    rows = (
        lf.filter((pl.col("start") == 0) & (pl.col("rows") == pl.col("cols")))
        .filter(pl.col("rows").is_in(list(claim.tested_sides)))
        .group_by(pl.col("rows").cast(pl.Int64).alias("m"))
        .agg(pl.len().alias("runs"), pl.col("complete").sum().cast(pl.Int64).alias("complete"))
        .with_columns((pl.col("complete") / pl.col("runs")).alias("rate"), low.alias("ci_low"), high.alias("ci_high"))
        .with_columns(inside[how].alias("consistent"))
        .sort("m")
        .collect()
    )
    tested = rows["m"].to_list()
    bad = rows.filter(~pl.col("consistent"))
    word = {"at_least": "at least", "at_most": "at most", "about": "about"}[how]
    share = 1 - bad.height / rows.height if rows.height else 0.0

    def one(r: dict) -> str:
        return f"m = {r['m']:,}: {100 * r['rate']:.1f} % ({100 * r['ci_low']:.1f}-{100 * r['ci_high']:.1f} %)"

    if rows.height == 1:
        text = f"{one(rows.row(0, named=True))}, {rows['runs'][0]:,} runs; claimed {word} {100 * p:g} %"
    else:
        text = (
            f"claimed {word} {100 * p:g} %: within the interval on {rows.height - bad.height:,} of "
            f"{rows.height:,} boards"
            + (f"; not on {_sides(bad['m'].to_list())}" if bad.height else "")
            + f" (rates {100 * rows['rate'].min():.1f}-{100 * rows['rate'].max():.1f} %)"
        )
    if rows.height == 0:
        return Finding(NOT_RUN, "the study has no runs on the claim's boards", "none", None, rows)
    if share < claim.most:
        return Finding(FAILS, text, describe_range(tested), one(bad.row(0, named=True)), rows)
    return Finding(_holds(claim, tested), text, describe_range(tested), None, rows)


def queens_sequence(claim: Claim, counts: pl.DataFrame) -> Finding:
    """The pipeline's counts (the queens stage's ``counts`` table and frontier searches:
    columns problem, n, k, solutions, classes) against an OEIS sequence, one evidence
    row per n computed. A075458 (the domination number) is established at n only when
    k queens dominate and k - 1 were searched and do not."""
    seq = claim.sequence
    dom = counts.filter(pl.col("problem") == "dominate")
    rows = []
    if seq == "A000170":
        for r in counts.filter(pl.col("problem") == "place").sort("n").iter_rows(named=True):
            rows.append((r["n"], pub.PLACEMENTS.get(r["n"]), r["solutions"], None))
    elif seq in ("A002564", "A002563"):
        table = pub.DOMINATING_SETS if seq == "A002564" else {**pub.DOMINATING_CLASSES, **DISPUTED_CLASSES}
        col = "solutions" if seq == "A002564" else "classes"
        for r in (
            dom.filter(pl.col("k") == pl.col("n").replace_strict(pub.GAMMA, default=-1)).sort("n").iter_rows(named=True)
        ):
            note = f"A002564: {r['solutions']:,} sets, at most 8 a class" if seq == "A002563" else None
            rows.append((r["n"], table.get(r["n"]), r[col], note))
    else:  # A075458
        found = {(r["n"], r["k"]): r["solutions"] for r in dom.iter_rows(named=True)}
        for n in sorted({n for n, _ in found}):
            ks = sorted(k for m, k in found if m == n and found[(m, k)] > 0)
            if not ks:
                continue
            k = ks[0]
            if found.get((n, k - 1)) == 0 or k == 1:
                rows.append((n, pub.GAMMA.get(n), k, None))
            else:
                rows.append((n, pub.GAMMA.get(n), None, f"{k} queens dominate; {k - 1} not searched"))
    ev = pl.DataFrame(
        rows,
        schema={"n": pl.Int64, "published": pl.Int64, "computed": pl.Int64, "note": pl.String},
        orient="row",
    )
    if claim.boards:
        ev = ev.filter(pl.col("n").is_in(list(claim.tested_sides)))
    ev = ev.with_columns((pl.col("published") == pl.col("computed")).alias("equal"))
    known = ev.filter(pl.col("computed").is_not_null() & pl.col("published").is_not_null())
    tested = known["n"].to_list()
    if not tested:
        return Finding(NOT_RUN, f"no value of {seq} among this run's queens counts", "none", None, ev)
    bad = known.filter(~pl.col("equal"))
    if bad.height:
        r = bad.row(0, named=True)
        first = f"n = {r['n']}: published {r['published']:,}, computed {r['computed']:,}" + (
            f" ({r['note']})" if r["note"] else ""
        )
        text = f"{known.height - bad.height} of {known.height} values equal; {first}"
        return Finding(FAILS, text, "n = " + describe_range(tested), first, ev)
    text = f"all {known.height} values computed equal the published ones (n = {describe_range(tested)})"
    verdict = _holds(claim, tested) if claim.boards else HOLDS
    return Finding(verdict, text, "n = " + describe_range(tested), None, ev)


def first_failures(claim: Claim, scan, boards) -> Finding:
    """A first-failure scan (:mod:`knight.claims.scan`) of every order over ``boards``.
    With ``claim.first_failure`` = x: the claim holds when some order first fails on the
    x x x board; without: when every order fails on some board (none completes on all).

    >>> import numpy as np
    >>> from knight.core.board import Board
    >>> from knight.claims.scan import first_failures as scan, to_table
    >>> boards = [Board(n, n) for n in range(5, 9)]
    >>> table = pl.from_arrow(to_table(scan("roth", boards, np.arange(40320))))
    >>> c = Claim("r", "Roth", "Fails at 7.", "s", "first_failures", first_failure=7)
    >>> f = first_failures(c, table, boards)
    >>> f.verdict, f.counterexample
    ('holds', None)
    """
    from knight.core.orders import order_strings

    names = [b.name for b in boards]
    position = {name: i for i, name in enumerate(names)}
    df = (
        pl.DataFrame(scan)
        .with_columns(
            pl.col("order")
            .map_elements(lambda r: str(order_strings()[r]), return_dtype=pl.String)
            .alias("order_string"),
            pl.when(pl.col("first_rows").is_not_null())
            .then(pl.format("{}x{}", "first_rows", "first_cols"))
            .alias("first_failure"),
        )
        .select("order", "order_string", "first_failure", "visited", "boards")
        .sort("order")
    )
    total = df.height
    failed = df.filter(pl.col("first_failure").is_not_null())
    never = total - failed.height
    tested = f"{names[0]} .. {names[-1]} ({len(names):,} boards), {total:,} orders"
    if failed.height:
        counts = (
            failed.group_by("first_failure")
            .agg(pl.len().alias("orders"))
            .with_columns(pl.col("first_failure").replace_strict(position).alias("at"))
            .sort("at")
        )
        first, last = counts.row(0, named=True), counts.row(-1, named=True)
        text = (
            f"{failed.height:,} of {total:,} orders fail: the earliest first failure is {first['first_failure']} "
            f"({first['orders']:,} orders), the latest {last['first_failure']} ({last['orders']:,}); "
            f"{never:,} complete on every board tested"
        )
    else:
        text = f"all {total:,} orders complete on every board tested"
    if claim.first_failure is not None:
        x = claim.first_failure
        board = f"{x}x{x}"
        if board not in position:
            return Finding(NOT_RUN, f"{text}; the scan does not reach {board}", tested, None, df)
        at = failed.filter(pl.col("first_failure") == board)
        if at.height:
            example = ", ".join(at["order_string"].head(4).to_list())
            return Finding(HOLDS, f"{text}; {at.height:,} first fail on {board} (e.g. {example})", tested, None, df)
        return Finding(FAILS, text, tested, f"no order first fails on {board}", df)
    if never:
        survivor = df.filter(pl.col("first_failure").is_null()).row(0, named=True)
        return Finding(FAILS, text, tested, f"order {survivor['order_string']} completes on every board tested", df)
    return Finding(HOLDS, text, tested, None, df)


def failure_share(claim: Claim, scan, boards) -> Finding:
    """An every-board scan (:func:`knight.claims.scan.failures_every_board`) of some orders
    over ``boards``: the claim holds when some order fails on fewer than ``claim.share``
    of the boards tested. Evidence: one row per order, fewest failures first.

    >>> import numpy as np
    >>> from knight.core.board import Board
    >>> from knight.claims.scan import failures_every_board as tally, to_table
    >>> boards = [Board(n, n) for n in range(5, 16)]
    >>> table = pl.from_arrow(to_table(tally("roth", boards, [0, 1191])))
    >>> c = Claim("r", "Roth", "Fails on few boards.", "s", "failure_share", share=0.1)
    >>> f = failure_share(c, table, boards)
    >>> f.verdict, f.evidence["failing"].to_list()
    ('holds', ['none', '7x7, 11x11'])
    """
    from knight.core.orders import order_strings

    names = [b.name for b in boards]
    tested = len(names)
    df = pl.DataFrame(scan).with_columns(
        pl.col("order").map_elements(lambda r: str(order_strings()[r]), return_dtype=pl.String).alias("order_string"),
        (pl.col("failures") / pl.col("tested")).alias("share"),
        pl.when(pl.col("first_rows").is_not_null())
        .then(pl.format("{}x{}", "first_rows", "first_cols"))
        .alias("first_failure"),
    )
    failing = [
        ", ".join(f"{r}x{c}" for r, c in zip(rs, cs)) or "none"
        for rs, cs in zip(df["failed_rows"].to_list(), df["failed_cols"].to_list())
    ]
    df = (
        df.with_columns(pl.Series("failing", failing, dtype=pl.String))
        .select("order", "order_string", "tested", "failures", "share", "first_failure", "failing")
        .sort(["failures", "order"])
    )
    limit = claim.share
    below = df.filter(pl.col("share") < limit)
    span = f"{names[0]} .. {names[-1]} ({tested:,} boards), {df.height:,} orders"
    if df.height == 0:
        return Finding(NOT_RUN, "the scan tested no order (its source scan gave none)", span, None, df)

    def one(r: dict) -> str:
        return f"{r['order_string']} fails on {r['failures']:,} of {r['tested']:,} boards ({100 * r['share']:.2f} %)"

    fewer = f"fewer than {100 * limit:g} % of the boards"
    if below.height:
        shown = "; ".join(one(r) for r in below.head(4).iter_rows(named=True))
        more = f"; ... ({below.height - 4:,} more)" if below.height > 4 else ""
        text = f"{below.height:,} of {df.height:,} orders fail on {fewer}: {shown}{more}"
        return Finding(HOLDS, text, span, None, df)
    fewest = one(df.row(0, named=True))
    return Finding(FAILS, f"none of the {df.height:,} orders fails on {fewer}; the fewest: {fewest}", span, fewest, df)


#: Finding functions by the ``finding`` name of a claim (:data:`knight.claims.spec.FINDINGS`).
FINDERS = {
    "tours_from_corner": tours_from_corner,
    "failures_from_corner": failures_from_corner,
    "rate": rate,
    "first_failures": first_failures,
    "failure_share": failure_share,
    "queens_sequence": queens_sequence,
}
