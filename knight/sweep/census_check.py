"""Checks of a census's stored runs where the census uses them: sampled rows recomputed by
the brute-force engine, and the totals of 5 x 5 and 6 x 6 against docs/conventions.md.

The brute-force engine (:func:`knight.engine.brute.outcomes`) walks every sampled
(start, order) pair on its own and knows nothing of the tie tree or of symmetry, so a
row it agrees with was not produced by a fault of the tree engine or of the writer.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from knight.core.board import Board

#: Totals over every start x every order counted by brute force (docs/conventions.md):
#: (rows, cols) -> (runs, complete, closed).
PUBLISHED_TOTALS = {(5, 5): (1_008_000, 376_320, 0), (6, 6): (1_451_520, 1_431_808, 182_448)}
#: Defaults of the census's check (config section ``census``, whose schema states them too):
#: rows drawn per board, the seed of the draw, and the largest N of the N x N boards
#: checked (from 5 x 5 on, :data:`CHECK_SMALLEST`).
CHECK_SAMPLES = 20_000
CHECK_SEED = 19
CHECK_LARGEST = 16
CHECK_SMALLEST = 5
#: Columns compared with the brute-force engine.
COMPARED = ("visited", "end", "complete", "closed", "ties")


class CensusCheckError(AssertionError):
    """Stored runs disagree with the brute-force engine or with the published totals."""


def sample_rows(runs: pl.LazyFrame, samples: int, seed: int) -> pl.DataFrame:
    """``samples`` rows of ``runs`` drawn uniformly without replacement (all if fewer)."""
    frame = runs.select("start", "order", *COMPARED).collect()
    return frame.sample(min(samples, frame.height), seed=seed).sort(["start", "order"])


def check_rows(board: Board, rows: pl.DataFrame) -> int:
    """Rows of ``rows`` (start, order and :data:`COMPARED`) that the brute-force engine
    does not reproduce exactly."""
    # Imported here: the rule kernel's generator compiles when imported (fixed signatures),
    # and the workflow's plan, which reads this module's boards, must compile nothing.
    from knight.engine.brute import outcomes

    brute = outcomes(board, rows["start"].to_numpy(), rows["order"].to_numpy())
    bad = np.zeros(rows.height, bool)
    for name in COMPARED:
        bad |= rows[name].to_numpy() != brute[name]
    return int(bad.sum())


def totals(runs: pl.LazyFrame) -> tuple[int, int, int]:
    """(runs, complete, closed) of a runs table."""
    row = runs.select(pl.len(), pl.col("complete").sum(), pl.col("closed").sum()).collect().row(0)
    return int(row[0]), int(row[1]), int(row[2])


def checked_boards(boards: list[Board], largest: int = CHECK_LARGEST) -> list[Board]:
    """The boards of ``boards`` the census checks: N x N with ``CHECK_SMALLEST <= N <= largest``."""
    return [b for b in boards if b.square and CHECK_SMALLEST <= b.rows <= largest]


def check_board(board: Board, runs: pl.LazyFrame, samples: int, seed: int, *, whole: bool = True) -> dict:
    """Sampled rows against brute force and, for 5 x 5 and 6 x 6 when ``whole`` (the runs
    are every start x every order, as the census sweeps them), the totals against the
    published ones. Returns a dict (board, sampled, mismatches, totals, published)."""
    rows = sample_rows(runs, samples, seed + 1000 * board.rows + board.cols)
    published = PUBLISHED_TOTALS.get((board.rows, board.cols)) if whole else None
    return {
        "board": board.name,
        "sampled": rows.height,
        "mismatches": check_rows(board, rows),
        "totals": None if published is None else totals(runs),
        "published": published,
    }


def check_page(results: list[dict], samples: int, seed: int) -> tuple[str, list[str]]:
    """Markdown of the checks of :func:`check_board`, and one line per failure."""
    lines = [
        "# Census checks",
        "",
        f"Up to {samples:,} rows per board drawn uniformly (seed {seed}) from the stored runs and "
        "recomputed one by one by the brute-force engine; totals of 5x5 and 6x6 against "
        "docs/conventions.md.",
        "",
        "| board | rows sampled | rows that differ | totals (runs, complete, closed) | published |",
        "|---|---|---|---|---|",
    ]
    failures = []
    for r in results:
        shown = "-" if r["totals"] is None else ", ".join(f"{v:,}" for v in r["totals"])
        published = "-" if r["published"] is None else ", ".join(f"{v:,}" for v in r["published"])
        lines.append(f"| {r['board']} | {r['sampled']:,} | {r['mismatches']:,} | {shown} | {published} |")
        if r["mismatches"]:
            failures.append(f"{r['board']}: {r['mismatches']} sampled rows differ from brute force")
        if r["published"] is not None and tuple(r["totals"]) != tuple(r["published"]):
            failures.append(f"{r['board']}: totals {r['totals']} differ from the published {r['published']}")
    return "\n".join(lines) + "\n", failures


__all__ = [
    "CHECK_LARGEST",
    "CHECK_SAMPLES",
    "CHECK_SEED",
    "CHECK_SMALLEST",
    "PUBLISHED_TOTALS",
    "CensusCheckError",
    "check_board",
    "check_page",
    "check_rows",
    "checked_boards",
    "sample_rows",
    "totals",
]
