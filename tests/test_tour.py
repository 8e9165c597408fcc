"""``knight tour``: the thesis's printout, JSON and drawings."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from naive import WORKED_EXAMPLE as GRID
from PIL import Image

from knight.cli import main

# worked example of docs/conventions.md, then the lines problemknight01_1 prints after the board.
WORKED_EXAMPLE = (
    GRID
    + """\
board size = 8x8
start square 1,1
end square 2,7
unvisited squares = 0
path is open.
"""
)


def tour(capsys, *argv):
    rc = main(["tour", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_worked_example_exact(capsys):
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "12345678")
    assert rc == 0
    assert out == WORKED_EXAMPLE


def test_console_command_prints_worked_example():
    res = subprocess.run(
        [sys.executable, "-m", "knight.cli", "tour", "8", "--start", "1,1", "--order", "12345678"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout == WORKED_EXAMPLE


def is_knight_move(a, b):
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def test_json_keys_and_path(capsys):
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "12345678", "--json")
    assert rc == 0
    d = json.loads(out)
    assert list(d) == ["rows", "cols", "start", "order", "path", "visited", "end", "complete", "closed"]
    assert (d["rows"], d["cols"], d["start"], d["order"]) == (8, 8, [1, 1], "12345678")
    assert d["visited"] == len(d["path"]) == 64 and d["complete"] is True and d["closed"] is False
    assert d["path"][0] == [1, 1] and d["path"][-1] == d["end"] == [2, 7]
    assert len({tuple(p) for p in d["path"]}) == 64
    assert all(is_knight_move(a, b) for a, b in zip(d["path"], d["path"][1:]))
    # The numbered board and the path agree: step k is on path[k-1].
    rows = [list(map(int, line.split())) for line in WORKED_EXAMPLE.splitlines()[:8]]
    for k, (r, c) in enumerate(d["path"], start=1):
        assert rows[r - 1][c - 1] == k


def test_closed_tour(capsys):
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "12386574", "--json")
    d = json.loads(out)
    assert d["complete"] and d["closed"] and is_knight_move(d["path"][0], d["path"][-1])
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "12386574")
    assert out.splitlines()[-2:] == ["unvisited squares = 0", "path is closed."]


def test_incomplete_run_prints_zeros(capsys):
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "16235478")
    lines = out.splitlines()
    grid = np.array([list(map(int, line.split())) for line in lines[:8]])
    assert (grid == 0).sum() == 4
    assert sorted(grid[grid > 0].tolist()) == list(range(1, 61))
    assert lines[8:] == [
        "board size = 8x8",
        "start square 1,1",
        "end square 8,3",
        "unvisited squares = 4",
        "path is open.",
    ]
    d = json.loads(tour(capsys, "8", "--start", "1,1", "--order", "16235478", "--json")[1])
    assert d["visited"] == 60 and not d["complete"] and not d["closed"] and d["end"] == [8, 3]


def test_rectangular_board_and_alignment(capsys):
    rc, out, _ = tour(capsys, "6x8", "--start", "2,3", "--order", "87654321")
    lines = out.splitlines()
    assert lines[6] == "board size = 6x8" and lines[7] == "start square 2,3"
    board = lines[:6]
    assert all(len(line) == 8 * 3 - 1 for line in board)  # width 2 (48 squares), one space apart
    grid = np.array([list(map(int, line.split())) for line in board])
    assert grid.shape == (6, 8) and grid[1, 2] == 1
    rc, out, _ = tour(capsys, "10", "--start", "1,1")
    assert {len(line) for line in out.splitlines()[:10]} == {10 * 4 - 1}  # width 3 for 100 squares


@pytest.mark.parametrize(
    "argv, message",
    [
        (["8", "--start", "9,1"], "off the 8x8 board"),
        (["8", "--start", "1;1"], "is not R,C"),
        (["8", "--order", "12345677"], "not a permutation"),
        (["8x", "--start", "1,1"], "is not N or RxC"),
    ],
)
def test_bad_arguments_are_clean_errors(capsys, argv, message):
    rc, out, err = tour(capsys, *argv)
    assert rc == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_drawing_writes_png_and_svg(capsys, tmp_path):
    png, svg = tmp_path / "t.png", tmp_path / "t.svg"
    rc, out, _ = tour(capsys, "8", "--start", "1,1", "--order", "16235478", "--png", str(png), "--svg", str(svg))
    assert rc == 0 and out.splitlines()[-1] == "path is open."
    with Image.open(png) as im:
        assert im.format == "PNG" and im.width > 300 and im.height > 300
        rgb = np.asarray(im.convert("RGB"))
    colours = {tuple(c) for c in rgb.reshape(-1, 3)[::7]}
    assert len(colours) > 20  # chequer, lines, markers, text: not a blank canvas
    # Both square shades of the chequered board are present over a large area.
    for shade in ((0xF2,) * 3, (0xBD,) * 3):
        assert (rgb == shade).all(axis=2).mean() > 0.05
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 20
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporaries


def test_drawing_marks_start_end_and_unvisited(tmp_path):
    from knight.core.board import Board
    from knight.engine.brute import run
    from knight.report.figures import tour_figure

    fig = tour_figure(run(Board(8, 8), 0, "16235478"))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["start (1, 1)", "end (8, 3)", "unvisited (4)"]
    fig = tour_figure(run(Board(8, 8), 0, "12386574"))
    assert "closed tour" in fig.axes[0].get_title()


# --- Tour.save: a picture the user asks for (issue 47) ------------------------------------


def test_save_refuses_a_missing_folder_in_one_line(tmp_path):
    import knight

    missing = tmp_path / "no" / "such" / "t.png"
    with pytest.raises(
        ValueError, match=f"^path '{re.escape(str(missing))}': no folder {re.escape(str(missing.parent))}"
    ):
        knight.tour(5).save(missing)
    assert not (tmp_path / "no").exists()  # nothing made


def test_save_refuses_an_unknown_format_in_one_line(tmp_path):
    import knight

    with pytest.raises(ValueError) as info:
        knight.tour(5).save(tmp_path / "t.bmpx")
    assert str(info.value).endswith("unknown picture format '.bmpx'; the file name must end in .png, .svg or .pdf")
    assert "\n" not in str(info.value) and list(tmp_path.iterdir()) == []


def test_save_leaves_the_picture_only(tmp_path):
    import knight

    t = knight.tour(5)
    t.save(tmp_path / "t.png")
    t.save(tmp_path / "t.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.png", "t.svg"]  # no hidden seal
    (tmp_path / ".t.png.seal").write_text("{}")  # a seal of an earlier file of that name
    t.save(tmp_path / "t.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.png", "t.svg"]
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_the_tour_command_leaves_the_picture_only(tmp_path):
    from knight.cli import main

    assert main(["tour", "5", "--png", str(tmp_path / "t.png")]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["t.png"]
