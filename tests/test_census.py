"""The census tables against aggregates computed here, directly from brute-force rows.

The rows of 5x5 .. 8x8 come from the brute-force engine (every (start, order) pair walked
alone, no tie tree, no symmetry), every start under a fixed random sample of the orders
(:data:`ORDERS`, the same on every board: the census's definitions hold for any swept
orders, and the sample keeps these tests to seconds). The expected aggregates are
computed in this file with numpy and plain Python from docs/census.md's definitions; the
symmetry classes of orders from the move permutations of docs/conventions.md (quarter
turn i -> i+2, left-right mirror 1<->2, 3<->8, 4<->7, 5<->6), not from
knight.core.symmetry. The published totals are checked on every order of 5x5 and 6x6.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from naive import ORDER_STRINGS

from knight.core.board import Board
from knight.core.orders import N_ORDERS
from knight.engine.brute import outcomes
from knight.engine.runs_table import RUNS_PARQUET, RUNS_SCHEMA
from knight.sweep.census import board_parts, census_tables
from knight.sweep.census_check import check_board, check_page, check_rows
from knight.sweep.census_report import census_page
from knight.sweep.chunks import run_chunk
from knight.sweep.driver import write_chunk
from knight.sweep.spec import SweepSpec

SIDES = (5, 6, 7, 8)
RANK = {s: i for i, s in enumerate(ORDER_STRINGS)}
#: The swept orders: 3,000 drawn at random, and a few fixed ones (the first and last ranks).
ORDERS = np.union1d(
    np.random.default_rng(19).choice(N_ORDERS, 3000, replace=False), [0, 1, 33, 121, 4200, 20000, 40319]
)


def brute_rows(n: int, ranks: np.ndarray = ORDERS) -> pl.DataFrame:
    """Every start x every order of ``ranks`` on the n x n board, walked one by one."""
    board = Board(n, n)
    starts = np.repeat(np.arange(board.size, dtype=np.uint32), len(ranks))
    ranks = np.tile(np.asarray(ranks, np.uint16), board.size)
    out = outcomes(board, starts, ranks)
    return pl.DataFrame(
        {
            "rows": np.full(len(starts), n, np.uint16),
            "cols": np.full(len(starts), n, np.uint16),
            "start": starts,
            "order": ranks,
            **out,
        }
    ).select(RUNS_SCHEMA.names)


@pytest.fixture(scope="module")
def rows():
    return {n: brute_rows(n) for n in SIDES}


@pytest.fixture(scope="module")
def tables(rows):
    return census_tables([board_parts(rows[n].lazy(), Board(n, n)) for n in SIDES])


@pytest.fixture(scope="module")
def full():
    """Every start x every order of 5x5 and 6x6 (from the tie tree: its rows are checked
    against brute force in tests/test_tree.py)."""
    from knight.sweep import run

    return {n: run(n) for n in (5, 6)}


@lru_cache(maxsize=1)
def class_ids() -> np.ndarray:
    """Smallest rank in each order's orbit under the 8 symmetries of the square (plain Python)."""
    quarter = {i: (i + 2 - 1) % 8 + 1 for i in range(1, 9)}  # i -> i + 2, mod 8 within 1..8
    mirror = {1: 2, 2: 1, 3: 8, 8: 3, 4: 7, 7: 4, 5: 6, 6: 5}
    group = [dict(zip(range(1, 9), range(1, 9)))]
    for g in group:  # close under composition with the two generators
        for h in (quarter, mirror):
            gh = {i: h[g[i]] for i in range(1, 9)}
            if gh not in group:
                group.append(gh)
    assert len(group) == 8
    ids = np.empty(N_ORDERS, np.int64)
    for r, s in enumerate(ORDER_STRINGS):
        ids[r] = min(RANK["".join(str(g[int(ch)]) for ch in s)] for g in group)
    return ids


def expected_board(df: pl.DataFrame, n: int, ids: np.ndarray) -> dict:
    """The board's aggregates over the swept orders; per-order arrays indexed by rank
    (orders not swept count as neither everywhere nor closing)."""
    start = df["start"].to_numpy().astype(np.int64)
    order = df["order"].to_numpy().astype(np.int64)
    complete = df["complete"].to_numpy()
    closed = df["closed"].to_numpy()
    swept = np.zeros(N_ORDERS, bool)
    swept[order] = True
    per_start = np.bincount(start, weights=complete, minlength=n * n)
    per_order = np.bincount(order, weights=complete, minlength=N_ORDERS)
    closed_order = np.bincount(order, weights=closed, minlength=N_ORDERS)
    tour_starts = int((per_start > 0).sum())
    everywhere = (per_order == tour_starts) & (tour_starts > 0) & swept
    return {
        "runs": len(df),
        "complete": int(complete.sum()),
        "closed": int(closed.sum()),
        "tour_starts": tour_starts,
        "starts_every_order": int((per_start == swept.sum()).sum()),
        "orders_everywhere": int(everywhere.sum()),
        "orders_complete_all": int((per_order == n * n).sum()),
        "orders_closing": int((closed_order > 0).sum()),
        "classes_everywhere": len(set(ids[everywhere].tolist())),
        "classes_closing": len(set(ids[closed_order > 0].tolist())),
        "everywhere": everywhere,
        "closing": closed_order > 0,
    }


def test_boards_table_equals_brute_force_aggregates(rows, tables):
    ids = class_ids()
    boards = tables["boards"]
    assert boards["rows"].to_list() == list(SIDES)
    for n in SIDES:
        want = expected_board(rows[n], n, ids)
        got = boards.filter(pl.col("rows") == n).row(0, named=True)
        for key in [k for k in want if k not in ("everywhere", "closing")]:
            assert got[key] == want[key], (n, key, got[key], want[key])
        assert got["completion_rate"] == pytest.approx(want["complete"] / want["runs"])
        assert got["orders"] == len(ORDERS)


def test_boards_table_quotes_the_published_totals(full):
    """Every order of 5x5 and 6x6: the totals of docs/conventions.md."""
    boards = census_tables([board_parts(full[n].lazy(), Board(n, n)) for n in (5, 6)])["boards"]
    b = {r["rows"]: r for r in boards.iter_rows(named=True)}
    assert (b[5]["runs"], b[5]["complete"], b[5]["closed"]) == (1_008_000, 376_320, 0)
    assert (b[6]["runs"], b[6]["complete"], b[6]["closed"]) == (1_451_520, 1_431_808, 182_448)
    assert b[5]["orders"] == b[6]["orders"] == N_ORDERS


def test_orders_table_equals_brute_force_aggregates(rows, tables):
    ids = class_ids()
    flags = {n: expected_board(rows[n], n, ids) for n in SIDES}
    sides = [n for n in SIDES if flags[n]["tour_starts"] > 0]
    got = tables["orders"].sort("order")
    assert got["order"].to_list() == ORDERS.tolist()  # one row per swept order
    assert np.array_equal(got["class_id"].to_numpy(), ids[ORDERS])
    row_of = {r: i for i, r in enumerate(ORDERS.tolist())}
    everywhere8 = np.flatnonzero(flags[8]["everywhere"])
    assert len(everywhere8) > 0  # the sample holds orders that complete everywhere on 8x8
    for r in (0, 1, 33, 121, 4200, 20000, 40319, *everywhere8[:50].tolist()):
        ok = [bool(flags[n]["everywhere"][r]) for n in sides]
        row = got.row(row_of[int(r)], named=True)
        assert row["everywhere"] == sum(ok)
        assert row["closing"] == sum(bool(flags[n]["closing"][r]) for n in sides)
        fails = [n for n, f in zip(sides, ok) if not f]
        assert row["first_failure"] == (fails[0] if fails else None)
        first = next((n for n, f in zip(sides, ok) if f), None)
        assert row["first_success"] == first
        later = [n for n, f in zip(sides, ok) if first is not None and n > first and not f]
        assert row["next_failure"] == (later[0] if later else None)
        best, length, begin = (0, None, None), 0, None
        for n, f in zip(sides, ok):
            length, begin = (length + 1, begin if length else n) if f else (0, None)
            if length > best[0]:
                best = (length, begin, n)
        assert (row["run_length"], row["run_from"], row["run_to"]) == best


def test_ends_table_equals_brute_force_aggregates(rows, tables):
    for n in SIDES:
        df = rows[n].filter(pl.col("complete"))
        want = {}
        for s, e, c in zip(df["start"].to_list(), df["end"].to_list(), df["closed"].to_list()):
            key = []
            for sq in (s, e):
                r, col = divmod(sq, n)
                key += sorted((min(r, n - 1 - r) + 1, min(col, n - 1 - col) + 1))
            tally = want.setdefault(tuple(key), [0, 0])
            tally[0] += 1
            tally[1] += c
        got = tables["ends"].filter(pl.col("rows") == n)
        have = {
            (r["start_a"], r["start_b"], r["end_a"], r["end_b"]): [r["complete"], r["closed"]]
            for r in got.iter_rows(named=True)
        }
        assert have == want
        shares = got.group_by(["start_a", "start_b"]).agg(pl.col("share").sum())["share"].to_numpy()
        assert np.allclose(shares, 1.0)


def test_report_page_quotes_the_tables(tables):
    page = census_page(tables)
    b8 = tables["boards"].filter(pl.col("rows") == 8).row(0, named=True)
    assert f"| 8x8 | {b8['runs']:,} |" in page
    assert f"{b8['orders_everywhere']:,} ({b8['classes_everywhere']:,})" in page
    assert page.count("\n| 6x6 |") >= 1 and "Start class (1, 1)" in page


def test_census_check_finds_a_wrong_row(rows, full):
    board = Board(6, 6)
    sample = rows[6].sample(300, seed=1)
    assert check_rows(board, sample) == 0
    seventh = pl.int_range(pl.len()) == 7
    bad = sample.with_columns(pl.when(seventh).then(pl.col("end") + 1).otherwise("end").alias("end"))
    assert check_rows(board, bad) == 1
    result = check_board(board, full[6].lazy(), 500, 19)
    page, failures = check_page([result], 500, 19)
    assert failures == [] and "| 6x6 | 500 | 0 |" in page
    # A sweep of some orders only: its totals are not the published ones, and not compared.
    part = check_board(board, rows[6].lazy(), 500, 19, whole=False)
    assert part["totals"] is None and check_page([part], 500, 19)[1] == []
    wrong = dict(result, totals=(1_451_520, 1_431_807, 182_448))
    assert check_page([wrong], 500, 19)[1] == [
        "6x6: totals (1451520, 1431807, 182448) differ from the published (1451520, 1431808, 182448)"
    ]


def test_runs_files_read_back_identical(tmp_path):
    """The runs file's encodings (delta, dictionary, RLE, byte stream split) read back the
    same rows with pyarrow and with polars, and are the ones asked for."""
    spec = SweepSpec(Board(7, 7), chunk_runs=600_000)
    result = run_chunk(spec, 1)
    path = tmp_path / "part-0001.parquet"
    write_chunk(result, path)
    assert pq.read_table(path).equals(result.table)
    assert pl.read_parquet(path).to_arrow().equals(result.table)
    meta = pq.ParquetFile(path).metadata.row_group(0)
    enc = {meta.column(i).path_in_schema: set(meta.column(i).encodings) for i in range(meta.num_columns)}
    assert "DELTA_BINARY_PACKED" in enc["order"]
    assert "BYTE_STREAM_SPLIT" in enc["end"]
    assert "RLE_DICTIONARY" in enc["visited"] and "RLE_DICTIONARY" in enc["ties"]
    assert set(RUNS_PARQUET["column_encoding"]) | set(RUNS_PARQUET["use_dictionary"]) <= set(enc)


def test_odd_boards_tours_start_on_the_corners_colour(rows, tables):
    """On an odd board a tour starts and ends on the corners' colour (docs/conventions.md):
    no order completes from every start (table 58 is empty), and the census's tour starts
    are squares of that colour."""
    for n in (5, 7):
        b = tables["boards"].filter(pl.col("rows") == n).row(0, named=True)
        assert b["orders_complete_all"] == 0
        df = rows[n].filter(pl.col("complete"))
        squares = np.unique(df["start"].to_numpy())
        assert len(squares) == b["tour_starts"]
        assert ((squares // n + squares % n) % 2 == 0).all()
