"""Every hint the ``knight`` command prints runs as printed (the workflow's own hints are run
from a finished tiny study by tests/test_tiny_study.py)."""

import re
import subprocess
import sys

import pytest

KNIGHT = [sys.executable, "-m", "knight.cli"]


def test_the_sweep_commands_python_hint_runs(tmp_path):
    out = tmp_path / "runs"
    done = subprocess.run(
        [*KNIGHT, "sweep", "5", "--orders", "12345678", "87654321", "--out", str(out), "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    said = dict(line.split(None, 1) for line in done.stdout.splitlines())
    code = said["Python"].removesuffix(" reads them, verified")
    assert code.startswith("knight.scan("), said["Python"]
    probe = f"import knight; print({code}.collect().height)"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "50"  # 25 starts x 2 orders
    assert said["steps"].split()[0].isdigit() and "knight moves" in said["steps"]


def test_scan_reads_a_sealed_table_and_refuses_an_unsealed_one(tmp_path):
    import polars as pl

    import knight
    from knight.core.dataset import DatasetError
    from knight.core.io import atomic_path

    table = tmp_path / "completion.parquet"
    with atomic_path(table) as tmp:
        pl.DataFrame({"runs": [3]}).write_parquet(tmp)
    assert knight.scan(table).collect()["runs"].to_list() == [3]
    loose = tmp_path / "loose.parquet"
    pl.DataFrame({"runs": [3]}).write_parquet(loose)
    with pytest.raises(DatasetError, match=f"^{re.escape(str(loose))}: no seal[^\n]*$"):
        knight.scan(loose)
    missing = tmp_path / "nowhere"
    with pytest.raises(DatasetError, match=f"^{re.escape(str(missing))}: no such file or folder$"):
        knight.scan(missing)
