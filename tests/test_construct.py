"""Divide-and-conquer closed tours, checked by the independent checker in naive_exact."""

import json
from importlib import resources

import pyarrow.parquet as pq
import pytest
from naive_exact import grid_tour_errors, index_tour_errors, is_knight_move, seed_comb_edges

from knight.cli import main
from knight.core.board import Board
from knight.exact.construct import ConstructError, construct, has_closed_tour, split_side

EVEN = range(6, 41, 2)


def _data(name):
    return json.loads(resources.files("knight").joinpath("data", name).read_text())["tours"]


def test_seed_base_tours_are_the_seeds_structured_closed_tours():
    tours = _data("seed_base_tours.json")
    assert sorted(tours) == ["10x10", "10x12", "6x6", "6x8", "8x10", "8x8"]
    # first row of the seed's 6x6 and 10x12 grids, as printed in seed 004
    assert tours["6x6"][0] == [1, 30, 33, 16, 3, 24]
    assert tours["10x12"][0] == [1, 4, 119, 100, 65, 6, 69, 102, 71, 8, 75, 104]
    for key, grid in {**tours, **_data("generated_base_tours.json")}.items():
        assert grid_tour_errors(grid, closed=True) == [], key
        rows, cols = len(grid), len(grid[0])
        step = {(r, c): grid[r][c] for r in range(rows) for c in range(cols)}
        total = rows * cols

        def joined(p, q):
            return (step[p] - step[q]) % total in (1, total - 1)

        for flip_r in (False, True):  # both corner moves in every corner (Parberry's structure)
            for flip_c in (False, True):
                f = lambda r, c: (rows - 1 - r if flip_r else r, cols - 1 - c if flip_c else c)  # noqa: E731
                assert joined(f(0, 2), f(1, 0)) and joined(f(2, 0), f(0, 1)), (key, flip_r, flip_c)


def test_generated_tour_is_joinable():
    grid = _data("generated_base_tours.json")["6x10"]
    k = grid[1][1]  # steps are cyclic: 60 is followed by 1
    assert {grid[3][0] % 60, grid[0][3] % 60} == {(k - 1) % 60, (k + 1) % 60}


@pytest.mark.parametrize("rows", EVEN)
def test_every_even_board_6_to_40(rows):
    for cols in EVEN:
        methods = ["seed", "grid"] if abs(rows - cols) <= 2 else ["grid"]
        for method in methods:
            order = construct(Board(rows, cols), method)
            assert index_tour_errors(rows, cols, order, closed=True) == [], (rows, cols, method)


@pytest.mark.parametrize(
    "rows,cols", [(6, 6), (10, 12), (12, 10), (12, 12), (14, 16), (18, 16), (26, 24), (40, 40), (62, 64), (100, 98)]
)
def test_seed_method_is_the_seeds_tour(rows, cols):
    """Same moves as a line-by-line transcription of seed 004's C++ program."""
    order = [divmod(int(s), cols) for s in construct(Board(rows, cols), "seed")]
    ours = {frozenset({a, b}) for a, b in zip(order, order[1:] + order[:1])}
    assert ours == seed_comb_edges(rows, cols, _data("seed_base_tours.json"))


def test_auto_method_uses_the_seed_where_it_applies():
    # seed 004 on 6x6 is its base tour itself, walked from (1,1) as the seed prints it
    order = construct(Board(6, 6))
    steps = _data("seed_base_tours.json")["6x6"]
    walked = {divmod(int(s), 6): i + 1 for i, s in enumerate(order)}
    reverse = {sq: (37 - k) % 36 + 1 for sq, k in walked.items()}
    assert all(walked[(r, c)] == steps[r][c] for r in range(6) for c in range(6)) or all(
        reverse[(r, c)] == steps[r][c] for r in range(6) for c in range(6)
    )


@pytest.mark.parametrize(
    "rows,cols",
    [(200, 202), (150, 150), (6, 400), (406, 10), (122, 246), pytest.param(1000, 1000, marks=pytest.mark.slow)],
)
def test_large_boards(rows, cols):
    order = construct(Board(rows, cols))
    assert index_tour_errors(rows, cols, order, closed=True) == []


def test_split_side():
    for n in range(6, 200, 2):
        parts = split_side(n)
        assert sum(parts) == n and set(parts) <= {6, 8, 10}
    with pytest.raises(ValueError):
        split_side(7)


@pytest.mark.parametrize(
    "board", [Board(7, 7), Board(4, 8), Board(3, 8), Board(6, 7), Board(5, 6), Board(2, 2), Board(1, 1)]
)
def test_boards_outside_the_construction_raise(board):
    with pytest.raises(ConstructError):
        construct(board)


def test_schwenk_reasons():
    assert has_closed_tour(8, 8) is None and has_closed_tour(3, 10) is None
    assert has_closed_tour(5, 6) is None and has_closed_tour(3, 12) is None
    for rows, cols in [(5, 5), (4, 10), (3, 6), (3, 8), (2, 8), (1, 1)]:
        assert has_closed_tour(rows, cols)


def test_cli_out_grid_json(tmp_path, capsys):
    out = tmp_path / "t.parquet"
    assert main(["construct", "10x12", "--out", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["rows"] == 10 and info["cols"] == 12 and info["closed"] is True and info["seconds"] >= 0
    table = pq.read_table(out).to_pydict()
    assert table["step"] == list(range(1, 121))
    squares = [(r - 1, c - 1) for r, c in zip(table["row"], table["col"])]
    assert index_tour_errors(10, 12, [r * 12 + c for r, c in squares], closed=True) == []

    assert main(["construct", "8x10", "--grid"]) == 0
    grid = [[int(x) for x in line.split()] for line in capsys.readouterr().out.strip().splitlines()]
    assert len(grid) == 8 and grid_tour_errors(grid, closed=True) == []

    assert main(["construct", "16x30", "--method", "grid", "--grid"]) == 0
    grid = [[int(x) for x in line.split()] for line in capsys.readouterr().out.strip().splitlines()]
    assert grid_tour_errors(grid, closed=True) == []


@pytest.mark.parametrize(
    "text,needle", [("7", "even number"), ("4x10", "side of 4"), ("6x7", "both sides even"), ("10x20", "|rows - cols|")]
)
def test_cli_errors_are_messages(text, needle, capsys):
    argv = ["construct", text] + (["--method", "seed"] if text == "10x20" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("knight construct: error:") and needle in err and "Traceback" not in err


def test_checker_catches_broken_tours():
    """The independent checker itself must reject near-misses."""
    order = [int(s) for s in construct(Board(8, 8))]
    assert index_tour_errors(8, 8, order[:-1], closed=True)
    swapped = order[:]
    swapped[10], swapped[20] = swapped[20], swapped[10]
    assert index_tour_errors(8, 8, swapped, closed=True)
    assert not is_knight_move((0, 0), (2, 2))


def test_construct_study_table():
    from knight.exact.searches import construct_runs

    table = construct_runs([6, "12x14", "8x20"], ["seed", "grid"])
    assert table.select("rows", "cols", "method").rows() == [
        (6, 6, "seed"),
        (6, 6, "grid"),
        (12, 14, "seed"),
        (12, 14, "grid"),
        (8, 20, "grid"),
    ]
    assert table["closed"].all()
