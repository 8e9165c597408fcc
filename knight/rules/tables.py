"""Aggregates of the rules stage's runs, as polars lazy queries.

Every aggregate takes runs (:data:`knight.rules.chunks.RUNS_SCHEMA`, e.g. from
:func:`knight.rules.run`, with a ``study`` column where they come from the workflow) as a
``LazyFrame`` and returns a ``LazyFrame`` (nothing collected), or as a ``DataFrame`` and
returns a ``DataFrame``. Without a ``study`` column the tables have none. Boards are
``rows`` x ``cols``; squares appear as indices and 1-based ``row``/``col``. Every table
groups by board (and rule, and study), so runs of many boards are never mixed; a frame
without the columns a table reads is refused in one line naming them (its schema is
read, nothing is computed).
"""

from __future__ import annotations

import polars as pl

from knight.core.frames import need_columns, same_kind, square_coords, wilson
from knight.engine.tiebreak import RANDOM_RULES

#: Keys of one board of one rule in one study.
KEYS = ["study", "rule", "rows", "cols"]
#: Runs of the rules that draw nothing at random.
DETERMINISTIC = ~pl.col("rule").is_in(list(RANDOM_RULES))


def _need(frame: pl.LazyFrame, table: str, *columns: str, wanted: str = "the rules stage's runs") -> None:
    need_columns(frame, ["rule", "rows", "cols", *columns], table, wanted)


def keys(runs: pl.LazyFrame, *names: str) -> list[str]:
    """The grouping keys of a table: ``names`` less ``study`` when the runs have no such column.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The runs (only the schema is read).
    *names : str
        The keys wanted; none for ``study, rule, rows, cols``.

    Returns
    -------
    list of str
        The keys, in the order given.
    """
    names = list(names or KEYS)
    return names if "study" in runs.collect_schema().names() else [n for n in names if n != "study"]


@same_kind
def completion(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per study, rule and board: runs, their outcome and, for the random rules, an interval.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rule, rows, cols): ``runs``, ``starts``, ``complete``,
        ``closed``, ``attempts_mean``, ``completion_rate``, ``closed_rate`` (fractions of
        ``runs``) and ``ci_low``, ``ci_high``: a 95 % Wilson interval of the completion rate
        for the random rules (each run an independent trial), null for the others.

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.

    Examples
    --------
    >>> import knight
    >>> completion(knight.rules.run(8, "random", trials=100, seed=1)).select("runs", "complete").rows()
    [(100, 96)]
    """
    _need(runs, "completion", "start", "complete", "closed", "attempts")
    random = pl.col("rule").is_in(list(RANDOM_RULES))
    low, high = wilson(pl.col("complete"), pl.col("runs"))
    by = keys(runs)
    return (
        runs.group_by(by)
        .agg(
            pl.len().cast(pl.UInt64).alias("runs"),
            pl.col("start").n_unique().cast(pl.UInt32).alias("starts"),
            pl.col("complete").sum().cast(pl.UInt64).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt64).alias("closed"),
            pl.col("attempts").cast(pl.Float64).mean().alias("attempts_mean"),
        )
        .with_columns(
            (pl.col("complete") / pl.col("runs")).alias("completion_rate"),
            (pl.col("closed") / pl.col("runs")).alias("closed_rate"),
            pl.when(random).then(low).alias("ci_low"),
            pl.when(random).then(high).alias("ci_high"),
        )
        .sort(by)
    )


@same_kind
def failures(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per study and deterministic rule: the boards on which the run from (1, 1) is not a tour.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rule), from the runs of start square 0: ``boards``
        (run), ``largest_board``, ``failures``, ``first_failure`` (the smallest failing
        board, ``RxC``), ``first_failure_visited`` (squares it reached) and ``failing``
        (every failing board, smallest first).

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(runs, "failures", "start", "visited", "complete")
    name = pl.format("{}x{}", "rows", "cols")
    corner = runs.filter((pl.col("start") == 0) & DETERMINISTIC)
    by = keys(runs, "study", "rule")
    return (
        corner.sort("rows", "cols")
        .group_by(by, maintain_order=True)
        .agg(
            pl.len().cast(pl.UInt32).alias("boards"),
            name.filter(~pl.col("complete")).alias("failing"),
            name.filter(~pl.col("complete")).first().alias("first_failure"),
            pl.col("visited").filter(~pl.col("complete")).first().alias("first_failure_visited"),
            name.last().alias("largest_board"),
        )
        .with_columns(pl.col("failing").list.len().cast(pl.UInt32).alias("failures"))
        .select(*by, "boards", "largest_board", "failures", "first_failure", "first_failure_visited", "failing")
        .sort(by)
    )


@same_kind
def table57(runs: pl.LazyFrame) -> pl.LazyFrame:
    """The thesis's table 57: per board, the outcome of one tie order from every start.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rule, rows, cols): ``starts`` (run), ``complete``,
        ``closed`` and ``closed_starts`` (the starts whose tour closes, 1-based ``(row,col)`` text).

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(runs, "table57", "start", "complete", "closed")
    label = pl.format("({},{})", *square_coords("start", "s_"))
    by = keys(runs)
    return (
        runs.sort(*by, "start")
        .group_by(by, maintain_order=True)
        .agg(
            pl.len().cast(pl.UInt32).alias("starts"),
            pl.col("complete").sum().cast(pl.UInt32).alias("complete"),
            pl.col("closed").sum().cast(pl.UInt32).alias("closed"),
            label.filter(pl.col("closed")).alias("closed_starts"),
        )
        .sort(by)
    )


@same_kind
def retries(runs: pl.LazyFrame) -> pl.LazyFrame:
    """random-order: how many runs are still without a complete tour after each attempt (figure 20).

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rows, cols, after), ``after`` = 1 .. the most attempts
        any run made: ``runs``, ``incomplete`` (runs without a tour after ``after``
        attempts) and ``incomplete_rate``. Other rules' runs are left out.

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(runs, "retries", "attempts", "complete")
    ro = runs.filter(pl.col("rule") == "random-order")
    by = keys(runs, "study", "rows", "cols")
    total = ro.group_by(by).agg(
        pl.len().cast(pl.Int64).alias("runs"), pl.col("attempts").max().cast(pl.Int64).alias("most")
    )
    done = (
        ro.filter(pl.col("complete"))
        .group_by([*by, "attempts"])
        .agg(pl.len().cast(pl.Int64).alias("done"))
        .with_columns(pl.col("attempts").cast(pl.Int64).alias("after"))
        .drop("attempts")
    )
    return (
        total.with_columns(pl.int_ranges(1, pl.col("most") + 1).alias("after"))
        .explode("after")
        .join(done, on=[*by, "after"], how="left")
        .sort(*by, "after")
        .with_columns(pl.col("done").fill_null(0).cum_sum().over(by).alias("done_by"))
        .select(*by, "after", "runs", (pl.col("runs") - pl.col("done_by")).alias("incomplete"))
        .with_columns((pl.col("incomplete") / pl.col("runs")).alias("incomplete_rate"))
    )


@same_kind
def ends(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Per square: complete tours ending there and closed tours starting there (figures 27, 28).

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.
        Runs from every start.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rule, rows, cols, square): ``row`` and ``col``
        (1-based), ``complete_ends`` and ``closed_starts``.

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(runs, "ends", "start", "end", "complete", "closed")
    by = keys(runs)
    ending = (
        runs.filter(pl.col("complete"))
        .group_by([*by, "end"])
        .agg(pl.len().cast(pl.UInt32).alias("complete_ends"))
        .rename({"end": "square"})
    )
    starting = (
        runs.filter(pl.col("closed"))
        .group_by([*by, "start"])
        .agg(pl.len().cast(pl.UInt32).alias("closed_starts"))
        .rename({"start": "square"})
    )
    return (
        ending.join(starting, on=[*by, "square"], how="full", coalesce=True)
        .with_columns(pl.col("complete_ends", "closed_starts").fill_null(0), *square_coords("square"))
        .select(*by, "square", "row", "col", "complete_ends", "closed_starts")
        .sort(*by, "square")
    )


@same_kind
def times(times: pl.LazyFrame) -> pl.LazyFrame:
    """Per study, rule and board: runs, knight steps, compute seconds and steps per second.

    Parameters
    ----------
    times : polars.LazyFrame or polars.DataFrame
        The rules stage's times table (``runs``, ``steps``, ``seconds`` per job's board).

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per (study, rule, rows, cols): ``runs``, ``steps``, ``seconds``
        (summed over the jobs' tasks) and ``steps_per_second``.

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(times, "times", "runs", "steps", "seconds", wanted="the rules stage's times table")
    by = keys(times)
    return (
        times.group_by(by)
        .agg(pl.col("runs").sum(), pl.col("steps").sum(), pl.col("seconds").sum())
        .with_columns((pl.col("steps") / pl.col("seconds")).alias("steps_per_second"))
        .sort(by)
    )


@same_kind
def squirrel_cull(runs: pl.LazyFrame) -> pl.LazyFrame:
    """Squirrel and Cull's runs (from (1, 1) on m x m boards): coverage and outcome per board.

    Parameters
    ----------
    runs : polars.LazyFrame or polars.DataFrame
        The rules stage's runs (e.g. from :func:`knight.rules.run`), with a ``study``
        column where they come from the workflow.

    Returns
    -------
    polars.LazyFrame or polars.DataFrame
        Lazy when the input is. One row per squirrel-cull run: ``study`` (when present), ``m``,
        ``visited``, ``squares`` (m * m), ``covered`` (``visited / squares``),
        ``complete`` and ``closed``.

    Raises
    ------
    ValueError
        A column the table reads is missing, named in one line.
    """
    _need(runs, "squirrel_cull", "visited", "complete", "closed")
    by = keys(runs, "study")
    return (
        runs.filter(pl.col("rule") == "squirrel-cull")
        .select(
            *by,
            pl.col("rows").alias("m"),
            "visited",
            (pl.col("rows").cast(pl.UInt32) * pl.col("cols").cast(pl.UInt32)).alias("squares"),
            "complete",
            "closed",
        )
        .with_columns((pl.col("visited") / pl.col("squares")).alias("covered"))
        .sort(*by, "m")
    )
