"""The knight command imports only what the chosen command uses (startup time)."""

import json
import os
import subprocess
import sys

import pytest

from knight.cli import main

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = """
import sys
from knight.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
libraries = {{'numba', 'dask', 'distributed', 'matplotlib', 'polars', 'pyarrow', 'snakemake'}}
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & libraries)
print('\\n' + __import__('json').dumps(heavy))
"""


def loaded(argv):
    res = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, timeout=120)
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_help_imports_no_library():
    assert loaded(["--help"]) == []
    assert loaded(["tour", "--help"]) == ["numba"]  # its choices name the tie-break rules


def test_one_tour_imports_numba_only():
    assert loaded(["tour", "8"]) == ["numba"]
    assert loaded(["tour", "8", "--rule", "pohl"]) == ["numba"]


# Issue 16, point 5: each bad argument stops in one line naming it, before any work.
BAD_ARGS = [
    (["tour", "8", "--svg", "/etc/passwd/x.svg"], "--svg '/etc/passwd/x.svg': /etc/passwd is a file, not a folder"),
    (["tour", "8", "--png", "/etc/passwd/x.png"], "--png '/etc/passwd/x.png': /etc/passwd is a file, not a folder"),
    (["tour", "8", "--png", "{tmp}/t.svg"], "the file name must end in .png"),
    (
        ["tour", "8", "--png", "{tmp}/no/such/t.png"],
        "--png '{tmp}/no/such/t.png': no folder {tmp}/no/such (create it first)",
    ),
    (["queens", "place", "8", "--output", "no/x.parquet"], "--output 'no/x.parquet': no folder no (create it first)"),
    (["tour", "8", "--seed", "-1"], "--seed must be in 0..18446744073709551615, got -1"),
    (["tour", "8", "--trial", "-1"], "--trial must be in 0..4294967295, got -1"),
    (["tour", "8", "--retries", "0"], "--retries must be in 1..65535, got 0"),
    (["tour", "8", "--rule", "random", "--seed", "-1"], "--seed must be in 0.."),
    (["tour", "2"], "board 2x2: both sides must be at least 3"),
    (["tour", "8", "--dpi", "0"], "--dpi must be at least 1, got 0"),
    (["rules", "8", "--seed", "-1"], "--seed must be in 0.."),
    (["rules", "8", "--retries", "0"], "--retries must be in 1.."),
    (["rules", "8", "--trials", "0"], "--trials must be in 1.."),
    (["backtrack", "2x5", "--start", "1,1"], "board 2x5: both sides must be at least 3"),
    (["construct", "8", "--out", "/etc/passwd/t.parquet"], "--out '/etc/passwd/t.parquet': /etc/passwd is a file"),
    (["queens", "dominate", "5", "3", "--store", "/etc/passwd"], "--store '/etc/passwd': exists and is not a folder"),
    (["queens", "dominate", "5", "3", "--store", "/etc/passwd/s"], "--store '/etc/passwd/s': /etc/passwd is a file"),
    (["queens", "dominate", "5", "3", "--output", "/etc/passwd/x.parquet"], "--output '/etc/passwd/x.parquet':"),
    (["queens", "place", "8", "--output", "/etc/passwd/x.parquet"], "--output '/etc/passwd/x.parquet':"),
    (["queens", "place", "8", "--output", "{tmp}"], "the file name must end in .parquet"),
    (["queens", "dominate", "5", "3", "--unit", "1"], "--unit needs --store DIR"),
    (["config", "sweep_stage"], "config file sweep_stage: cannot be read (No such file or directory); a target?"),
]


@pytest.mark.parametrize("argv, message", BAD_ARGS, ids=[" ".join(a[:4]) for a, _ in BAD_ARGS])
def test_bad_argument_stops_before_any_work_in_one_line(argv, message, capsys, tmp_path, monkeypatch):
    import knight.engine.brute
    import knight.engine.walk
    import knight.queens.search

    def no_work(*args, **kwargs):
        raise AssertionError("work started before the arguments were checked")

    for module, name in [(knight.engine.brute, "run"), (knight.engine.walk, "run"), (knight.queens.search, "warm_up")]:
        monkeypatch.setattr(module, name, no_work)
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"knight {argv[0]}: error: ") and message.replace("{tmp}", str(tmp_path)) in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_rules_help_shows_a_plain_percent(capsys):
    with pytest.raises(SystemExit):
        main(["rules", "--help"])
    text = capsys.readouterr().out
    assert "95% interval" in " ".join(text.split()) and "%%" not in text


def test_config_command_names_file_line_and_keys(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sweep:\n  boards: [5\n  orders: all\n")
    assert main(["config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"config file {bad}, line 3, column 9: not valid YAML" in err and err.count("\n") == 1
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("exact:\n  backtrack:\n    order: '11111111'\n    boards: [{board: 2}]\n")
    assert main(["config", str(wrong)]) == 2
    err = capsys.readouterr().err
    assert "config key exact.backtrack.order: '11111111': not a permutation of 12345678" in err
    assert "config key exact.backtrack.boards[0].board: 2: a board needs both sides at least 3" in err
    assert main(["config", os.path.join(REPO, "config", "tiny.yaml")]) == 0
    assert "valid configuration" in capsys.readouterr().out
    default = tmp_path / "default.yaml"
    default.write_text("sweep: {boards: [2]}\n")
    assert main(["config", "--default", str(default)]) == 2
    assert "config key sweep.boards[0]: 2: a board needs both sides at least 3" in capsys.readouterr().err


def test_scan_of_a_fixed_and_a_roth_sweep_names_both_folders(tmp_path, capsys):
    # Issue 16 point 5: polars' SchemaFieldNotFoundError instead of a project error.
    from knight.core.dataset import DatasetError, scan

    orders = ["--orders", "12345678", "31245678", "--workers", "1"]
    assert main(["sweep", "5", "--out", str(tmp_path), *orders]) == 0
    assert main(["sweep", "5", "--rule", "roth", "--out", str(tmp_path), *orders]) == 0
    capsys.readouterr()
    with pytest.raises(DatasetError) as info:
        scan(tmp_path)
    text = str(info.value)
    assert f"{tmp_path / 'board=5x5'} and {tmp_path / 'rule=roth' / 'board=5x5'}" in text
    assert "partitioned by board and by rule, board" in text
    assert scan(tmp_path / "rule=roth").collect().height == scan(tmp_path / "board=5x5").collect().height == 50


#: The console command, with a probe that runs after its last exit handler has been
#: registered (so before it): the collector is already frozen when the handlers run.
CONSOLE = """
import atexit, gc, sys
from knight.cli import console
atexit.register(lambda: print("frozen" if gc.get_freeze_count() else "not frozen", file=sys.stderr))
sys.argv = ["knight", *{argv!r}]
console()
"""


def test_console_exits_without_walking_its_objects_and_its_files_are_whole(tmp_path):
    import polars as pl

    out = tmp_path / "place6.parquet"
    argv = ["queens", "place", "6", "--output", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE.format(argv=argv)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("frozen") and "not frozen" not in done.stderr
    assert pl.read_parquet(out).height == 4  # the 4 placements of 6 queens on 6 x 6
    bad = subprocess.run(
        [sys.executable, "-c", CONSOLE.format(argv=["queens", "place", "0"])], capture_output=True, text=True
    )
    assert bad.returncode == 2  # an error keeps its exit code and its one line
    assert bad.stderr.splitlines()[0] == "knight queens: error: n must be in 1..32, got 0"
