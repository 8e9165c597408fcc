"""Backtracking search: seed 003's 3x7 facts, independent tour checks, closed tours."""

import json

import pytest
from naive_exact import index_tour_errors, tour_errors, tour_exists

from knight.cli import main
from knight.core.board import Board, parse_board
from knight.exact.backtrack import PRUNE_LEVELS, backtrack

B37 = Board(3, 7)


def starts(board):
    return range(board.size)


@pytest.mark.parametrize("prune", PRUNE_LEVELS)
def test_3x7_facts_from_seed_003(prune):
    """Minority colour: no tour, answered at once; (2,4): no tour after search; else a tour."""
    for s in starts(B37):
        r, c = B37.human(s)
        res = backtrack(B37, s, prune=prune)
        if (r + c) % 2 == 1:
            assert res.found is False and res.nodes == 0 and res.reason == "colour rule"
        elif (r, c) == (2, 4):
            assert res.found is False and res.nodes > 0 and res.reason == "search"
        else:
            assert res.found is True, (r, c)
            assert tour_errors(3, 7, [divmod(int(x), 7) for x in res.path], closed=False) == []
            assert res.path[0] == s


def test_3x7_agrees_with_plain_exhaustive_search():
    """Every start, both colours: the answer equals a naive unpruned DFS."""
    for s in starts(B37):
        expected = tour_exists(3, 7, divmod(s, 7))
        for prune in PRUNE_LEVELS:
            for ordering in ("warnsdorff", "fixed"):
                assert backtrack(B37, s, prune=prune, ordering=ordering).found is expected


def test_5x5_open_tours_agree_with_naive_search():
    board = Board(5, 5)
    for s in starts(board):
        r, c = divmod(s, 5)
        res = backtrack(board, s, prune="dead-ends", ordering="fixed", order="31245678")
        if (r + c) % 2 == 0:
            assert tour_exists(5, 5, (r, c)) and res.found is True
            assert index_tour_errors(5, 5, res.path, closed=False) == []
        else:
            assert res.found is False


@pytest.mark.parametrize("n", [6, 8])
def test_closed_tours_from_every_start(n):
    board = Board(n, n)
    for s in starts(board):
        res = backtrack(board, s, closed=True, prune="pairs")
        assert res.found is True, board.human(s)
        assert res.path[0] == s
        assert index_tour_errors(n, n, res.path, closed=True) == []


@pytest.mark.parametrize("prune", ["dead-ends", "pairs"])
def test_closed_8x8_every_start_other_pruning_and_order(prune):
    board = Board(8, 8)
    for s in range(0, 64, 5):
        res = backtrack(board, s, closed=True, prune=prune, order="87654321")
        assert res.found is True and index_tour_errors(8, 8, res.path, closed=True) == []


def test_pruning_never_changes_the_answer_and_cuts_nodes():
    board = Board(6, 6)
    nodes = {}
    for prune in PRUNE_LEVELS:
        res = backtrack(board, 0, closed=True, prune=prune, ordering="fixed", limit=50_000_000)
        assert res.found is True and index_tour_errors(6, 6, res.path, closed=True) == []
        nodes[prune] = res.nodes
    assert nodes["pairs"] <= nodes["dead-ends"] < nodes["none"]


def test_no_closed_tour_is_found_where_none_exists():
    assert backtrack(Board(5, 5), 0, closed=True).reason == "odd board"
    res = backtrack(Board(4, 4), 0, closed=True, prune="none")  # Schwenk: no 4xn closed tour
    assert res.found is False and res.nodes > 0
    assert tour_exists(3, 4, (0, 0), closed=True) is False
    assert backtrack(Board(3, 4), 0, closed=True).found is False
    assert backtrack(Board(3, 4), 0).found is tour_exists(3, 4, (0, 0))


def test_node_limit_gives_up():
    res = backtrack(Board(8, 8), 0, closed=True, prune="none", ordering="fixed", limit=1000)
    assert res.found is None and res.nodes == 1000 and len(res.path) == 0


def test_rectangular_and_large_boards():
    for rows, cols, closed in [
        (5, 6, True),
        (6, 5, True),
        (3, 10, True),
        (4, 5, False),
        (30, 30, True),
        (40, 44, True),
        (100, 100, False),
    ]:
        board = Board(rows, cols)
        res = backtrack(board, board.size - 1, closed=closed, ordering="warnsdorff-far")
        assert res.found is True, (rows, cols)
        assert index_tour_errors(rows, cols, res.path, closed=closed) == []


@pytest.mark.parametrize("bad", [dict(prune="all"), dict(ordering="random"), dict(limit=0), dict(order="1234567")])
def test_bad_options_raise_value_error(bad):
    with pytest.raises(ValueError):
        backtrack(Board(5, 5), 0, **bad)


def test_cli_json(capsys):
    assert main(["backtrack", "6x6", "--start", "1,1", "--closed", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is True and set(out) >= {"found", "path", "nodes", "backtracks", "seconds"}
    squares = [(r - 1, c - 1) for r, c in out["path"]]
    assert squares[0] == (0, 0) and tour_errors(6, 6, squares, closed=True) == []

    assert main(["backtrack", "3x7", "--start", "2,4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is False and out["path"] == []

    assert (
        main(
            [
                "backtrack",
                "8",
                "--start",
                "1,1",
                "--closed",
                "--prune",
                "none",
                "--ordering",
                "fixed",
                "--limit",
                "500",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["found"] is None


def test_cli_errors(capsys):
    assert main(["backtrack", "3x7", "--start", "4,1"]) == 2
    assert "(4, 1)" in capsys.readouterr().err
    assert main(["backtrack", "0x7", "--start", "1,1"]) == 2
    assert main(["backtrack", "5", "--start", "1,1", "--limit", "0"]) == 2
    assert parse_board("3x7").size == 21


def test_study_tables_join_the_sweep_starts(tmp_path):
    import polars as pl

    from knight.exact.searches import backtrack_runs, backtrack_summary, start_answers, warnsdorff_beside

    runs = backtrack_runs(B37, closed=False, prunes=["none", "pairs"], orderings=["warnsdorff"])
    assert runs.height == 2 * 21
    summary = backtrack_summary(runs)
    assert summary["found"].to_list() == [10, 10] and summary["no_tour"].to_list() == [11, 11]
    # a hand-made sweep table of the lead's shape; start 20 is missing from it
    sweep = pl.DataFrame(
        {
            "rows": [3] * 20,
            "cols": [7] * 20,
            "start": list(range(20)),
            "row": [s // 7 + 1 for s in range(20)],
            "col": [s % 7 + 1 for s in range(20)],
            "orders": [40320] * 20,
            "complete": [0 if s in (0, 10) or (s // 7 + s % 7) % 2 else 5 for s in range(20)],
            "failing": [1] * 20,
            "closed": [0] * 20,
        },
        schema={
            "rows": pl.UInt16,
            "cols": pl.UInt16,
            "start": pl.UInt32,
            "row": pl.UInt16,
            "col": pl.UInt16,
            "orders": pl.UInt32,
            "complete": pl.UInt32,
            "failing": pl.UInt32,
            "closed": pl.UInt32,
        },
    )
    sweep.write_parquet(tmp_path / "starts.parquet")
    table = warnsdorff_beside(start_answers(runs), pl.read_parquet(tmp_path / "starts.parquet"))
    by = {r["start"]: r for r in table.iter_rows(named=True)}
    assert by[0]["exists"] is True and by[0]["heuristic_misses"] is True  # tour, no order completes
    assert by[10]["exists"] is False and by[10]["heuristic_misses"] is False  # (2,4): no tour at all
    assert by[1]["exists"] is False and by[1]["reason"] == "colour rule"
    assert by[2]["heuristic_succeeds"] is True and by[2]["heuristic_misses"] is False
    assert by[20]["warnsdorff_orders"] is None and by[20]["heuristic_misses"] is None
    assert table.height == 21 and sum(r["exists"] is True for r in by.values()) == 10
    # a sweep claiming a completed tour from (2,4), where none exists, is refused
    liar = sweep.with_columns(complete=pl.when(pl.col("start") == 10).then(3).otherwise(pl.col("complete")))
    with pytest.raises(RuntimeError, match="proved"):
        warnsdorff_beside(start_answers(runs), liar)


def test_study_gave_up_is_null():
    from knight.exact.searches import backtrack_runs, start_answers

    runs = backtrack_runs(Board(6, 6), closed=True, prunes=["none"], orderings=["fixed"], limit=50)
    assert runs["found"].null_count() == 36
    assert start_answers(runs)["exists"].null_count() == 36
