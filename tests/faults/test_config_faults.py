"""Configs mean exactly one thing, cores and workers stay within the machine, and a full
disk or a result that cannot be removed end in one line: each case as a user meets it
(the ``snakemake`` or Python call they would type), refused before any job."""

import logging
import os
import shutil
import subprocess
import sys

import pytest
import yaml
from workflow_run import snakemake as run_snakemake

import knight
import knight.sweep
from knight.pipeline.config import ConfigError, load
from knight.runtime.cluster import DaskSettings, dask_client, usable_cpus

#: The sweep of the fault configuration, alone: enough for a config the workflow reads.
SWEEP = {"boards": [5], "orders": ["12345678", "87654321"], "chunk_runs": 30}


def refused(work, config_text, *args, cores=1):
    """``snakemake -n --cores CORES ... --configfile cfg.yaml`` on ``config_text``: its
    error line (the run must stop, write no results, and show no Python traceback)."""
    work.mkdir(exist_ok=True)
    (work / "cfg.yaml").write_text(config_text)
    done = run_snakemake(work, *args, configfile=work / "cfg.yaml", cores=cores, timeout=60)
    said = done.stdout + done.stderr  # Snakemake writes its error to either
    assert done.returncode == 1, said[-2000:]
    assert "Traceback" not in said, said[-2000:]
    assert not (work / "results").exists()
    return said


def test_a_board_given_twice_is_refused_in_one_line(tmp_path):
    err = refused(tmp_path / "w", yaml.safe_dump({"sweep": {**SWEEP, "boards": [5, 5, "5x5"]}}), "-n")
    assert "config key sweep.boards[1]: 5 (board 5x5): given twice (as [0] too): give each once" in err
    assert "config key sweep.boards[2]: '5x5' (board 5x5): given twice (as [0] too)" in err


@pytest.mark.parametrize(
    "section, line",
    [
        (
            {"rules": {"studies": [{"name": "a", "rules": ["fixed", "roth", "fixed"], "boards": [5, 6]}]}},
            "config key rules.studies[0].rules[2]: 'fixed': given twice (as rules[0] too)",
        ),
        (
            {"rules": {"studies": [{"name": "a", "rules": ["fixed"], "boards": [5, "5x5"]}]}},
            "config key rules.studies[0].boards[1]: '5x5' (board 5x5): given twice (as [0] too)",
        ),
        ({"exact": {"construct": {"boards": [6, "6x6"]}}}, "config key exact.construct.boards[1]: '6x6' (board 6x6)"),
        (
            {"exact": {"backtrack": {"boards": [{"board": 5}, {"board": "5x5"}]}}},
            "config key exact.backtrack.boards[1].board: '5x5' (5x5-open): given twice",
        ),
        ({"queens": {"sets": {"place": [4, 4]}}}, "config key queens.sets.place[1]: 4: given twice"),
        ({"queens": {"workers": [1, 2, 2]}}, "config key queens.workers[2]: 2: given twice"),
    ],
)
def test_a_study_rule_or_board_or_search_given_twice_is_refused(section, line):
    with pytest.raises(ConfigError) as exc:
        load({"sweep": SWEEP, **section})
    assert line in str(exc.value)


def test_a_yaml_key_given_twice_is_refused_with_its_line(tmp_path):
    blocks = "sweep:\n  boards: [5]\n  orders: ['12345678']\nsweep:\n  boards: [6]\n"
    err = refused(tmp_path / "blocks", blocks, "-n")
    assert "cfg.yaml, line 4, column 1: not valid YAML: key 'sweep' given twice (at line 1 and line 4)" in err
    keys = "sweep:\n  boards: [5]\n  boards: [6]\n  orders: ['12345678']\n"
    err = refused(tmp_path / "keys", keys, "-n")
    assert "cfg.yaml, line 3, column 3: not valid YAML: key 'boards' given twice (at line 2 and line 3)" in err


@pytest.mark.parametrize("start", [(1.7, 1), (True, 1), ("2", 1), (2.0, 1), (1, 1.5)])
def test_a_square_that_is_not_a_whole_number_is_refused(start):
    with pytest.raises(ValueError, match=r"^start: square .* is not a 1-based \[row, col\] pair of integers$"):
        knight.tour(5, start=start)


def test_sweep_starts_that_are_not_whole_numbers_are_refused():
    with pytest.raises(ValueError, match=r"^starts: square \(1\.5, 1\) is not a 1-based"):
        knight.sweep.run(5, starts=[(1.5, 1)], orders=["12345678"])
    assert knight.sweep.run(5, starts=[(1, 1)], orders=["12345678"]).height == 1  # whole numbers still walk


@pytest.mark.parametrize("value", [1.7, True, "2", 2.0])
def test_an_integer_of_the_config_is_an_integer(value):
    with pytest.raises(ConfigError, match=rf"config key sweep.chunk_runs: {value!r}: .* is not of type 'integer'"):
        load({"sweep": {**SWEEP, "chunk_runs": value}})
    with pytest.raises(ConfigError, match=r"config key figures.tours\[0\].start\[0\]"):
        load({"sweep": SWEEP, "figures": {"tours": [{"board": 5, "start": [value, 1], "order": "12345678"}]}})


def test_the_queens_and_dask_arguments_share_the_integer_check():
    with pytest.raises(ValueError, match=r"^n must be an integer, got 8.0$"):
        knight.queens.place(8.0)
    with pytest.raises(ValueError, match=r"^dask workers must be an integer, got 2.0$"):
        with dask_client(2.0):
            pass


@pytest.mark.parametrize("cores", ["0", "-1"])
def test_cores_zero_or_below_are_refused_in_one_line(tmp_path, cores):
    """``snakemake --cores 0`` waited for ever; ``--cores -1`` ended in a job's traceback."""
    err = refused(tmp_path / "w", yaml.safe_dump({"sweep": SWEEP}), cores=cores)
    assert f"--cores {cores}: must be at least 1 (or all: every CPU of this machine)" in err


def test_dask_workers_are_capped_by_the_jobs_threads_and_said_once(caplog):
    asked = DaskSettings.from_config({"workers": 100000})
    with caplog.at_level(logging.INFO, logger="knight.cluster"), asked.client(2) as client:
        assert len(client.scheduler_info()["workers"]) == min(2, usable_cpus())
    notes = [r.getMessage() for r in caplog.records if r.name == "knight.cluster"]
    assert len(notes) == 1 and notes[0].startswith("dask.workers 100000: "), notes
    assert asked.where(2) == f"{min(2, usable_cpus())} local worker(s)"
    assert DaskSettings.from_config({"workers": "auto"}).local_workers(100000) == usable_cpus()  # --cores 100000


def test_the_api_starts_no_more_workers_than_cpus(caplog):
    with caplog.at_level(logging.WARNING, logger="knight.cluster"), dask_client(100000) as client:
        assert len(client.scheduler_info()["workers"]) == usable_cpus()
    assert [r.getMessage() for r in caplog.records if r.name == "knight.cluster"] == [
        f"dask: 100000 local workers asked for, {usable_cpus()} started (the CPUs this process may use)"
    ]


@pytest.mark.slow
def test_dask_workers_100000_and_cores_100000_run_with_capped_workers(tmp_path):
    """``snakemake --cores 100000 ... --configfile`` with ``dask.workers: 100000``: the
    sweep finishes within 60 s, each job's log saying the cap once."""
    work = tmp_path / "w"
    work.mkdir()
    (work / "cfg.yaml").write_text(yaml.safe_dump({"sweep": SWEEP, "dask": {"workers": 100000}}))
    done = run_snakemake(work, "sweep_stage", configfile=work / "cfg.yaml", cores=100000, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    for log in (work / "results" / "logs" / "sweep" / "5x5").glob("part-*.log"):
        assert log.read_text().count("dask.workers 100000: ") == 1


@pytest.fixture()
def full_disk(tmp_path):
    """A 1 MiB tmpfs, full (mounting needs root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)]).returncode:
        pytest.skip("needs root to mount a small file system")
    subprocess.run(["dd", "if=/dev/zero", f"of={disk / 'fill'}", "bs=4k"], capture_output=True)
    yield disk
    subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_a_disk_full_at_the_start_is_one_line_and_leaves_no_temporary_file(tmp_path, full_disk):
    """``snakemake --cores 1 --configfile cfg.yaml`` in a folder on a full disk."""
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump({"sweep": SWEEP}))
    done = run_snakemake(full_disk, configfile=tmp_path / "cfg.yaml", cores=1, timeout=60)
    said = done.stdout + done.stderr
    assert done.returncode == 1
    assert "Traceback" not in said and "Logging error" not in said, said[-3000:]
    assert "disk full writing " in said and "then run the same command again" in said
    assert not [p for p in full_disk.rglob("*") if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_a_result_that_cannot_be_removed_is_one_line(clean, tmp_path):
    """A damaged runs part, and ``chattr +i`` on a table made from it: the run stops in one
    line naming the table and what to do; after ``chattr -i`` the same command finishes."""
    from conftest import assert_same_results, flip
    from conftest import run as run_faults

    work = tmp_path / "w"
    shutil.copytree(clean, work, symlinks=True)
    flip(work / "results/runs/board=5x5/part-0000.parquet", keep_mtime=True)
    table = work / "results/tables/orders.csv"
    if subprocess.run(["chattr", "+i", str(table)], capture_output=True).returncode:
        pytest.skip("chattr +i needs root and a file system that supports it")
    try:
        done = run_faults(work, timeout=120)
    finally:
        subprocess.run(["chattr", "-i", str(table)], capture_output=True)
    said = done.stdout + done.stderr
    assert done.returncode == 1
    assert "Traceback" not in said, said[-3000:]
    assert (
        "results/tables/orders.csv: must be remade (made from results/tables/boards/5x5/orders.parquet) "
        "but cannot be removed (Operation not permitted): make it writable (chattr -i" in said
    )
    assert not [p for p in work.rglob("*.tmp")]
    done = run_faults(work)
    assert done.returncode == 0, done.stderr[-3000:]
    assert_same_results(work, clean)


def test_the_lock_owner_leaves_no_temporary_file_when_it_cannot_write(tmp_path, monkeypatch):
    from knight.pipeline import locks

    def no_room(self, *args, **kwargs):
        open(self, "w").close()  # the file is created, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(type(tmp_path), "write_text", no_room)
    with pytest.raises(OSError) as exc:
        locks.claim(tmp_path)
    assert exc.value.__notes__ == [f"writing {tmp_path / '.snakemake' / locks.OWNER}"]
    assert list((tmp_path / ".snakemake").iterdir()) == []


def test_the_command_line_keeps_refusing_a_fraction(tmp_path):
    command = os.path.join(os.path.dirname(sys.executable), "knight")
    done = subprocess.run([command, "sweep", "5", "--chunk-runs", "1.7"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith("invalid int value: '1.7'")
