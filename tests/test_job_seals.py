"""What a seal records about who made a file, tested without Snakemake (issue 48).

A fake job (``rule``, ``params``, ``input``, ``output``: what the Snakemake object offers)
is opened by :func:`knight.runtime.logs.job_seals`, the function ``script_logging`` opens
for every workflow job. Expected seals are written out here as literals: the bytes of the
first test are those the workflow wrote before seals were held in a context (stored
results stay valid).
"""

import hashlib
import json
import logging
import subprocess
import sys
import textwrap
import threading
import types
from pathlib import Path

import pytest

from knight.core import seal
from knight.core.io import atomic_path
from knight.runtime.logs import job_seals

LOG = logging.getLogger("test_job_seals")
API = {"by": "the knight Python API"}
#: The seals of the job of :func:`_tables_job`, byte for byte.
SEAL_A = (
    '{"format": 1, "name": "in/a.txt", "bytes": 7, "sha256": '
    '"507f7ec274ddfe5037b369fbd44253b36ff71104d2b1bb39c705aacdb5aa17c6", "made_by": {"by": "the knight Python API"}}\n'
)
FROM_AB = (
    '"from": {"in/a.txt": "507f7ec274ddfe5037b369fbd44253b36ff71104d2b1bb39c705aacdb5aa17c6", "in/b.txt": null}, '
    '"made_by": {"rule": "board_tables", "version": "board_tables=1", "params": "bf7b0efed50cecab"}}\n'
)
SEAL_X = (
    '{"format": 1, "name": "out/x.txt", "bytes": 4, "sha256": '
    '"ea0890697a77af0a2e054cccec587c8a42feb5cf38e778c6c6e2a96bfb945c0b", ' + FROM_AB
)
SEAL_RAW = (
    '{"format": 1, "name": "out/raw.txt", "bytes": 3, "sha256": '
    '"d7439bee24773bcbfa2d0a97947ee36227b10d1022b1a55847e928965bb6bfde", ' + FROM_AB
)


def _write(path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def _job(rule: str, params: dict | None, inputs, outputs=()):
    return types.SimpleNamespace(rule=rule, params=params, input=list(inputs), output=list(outputs), log=[])


def _tables_job():
    """A board_tables job reading ``in/a.txt`` (sealed) and ``in/b.txt`` (not sealed)."""
    _write(Path("in/a.txt"), "input a")
    Path("in/b.txt").write_text("unsealed b")
    params = {"version": "board_tables=1", "board": "5x5", "orders": (1, 2)}
    return _job("board_tables", params, ["in/a.txt", ["in/b.txt"]], ["out/x.txt", "out/raw.txt"])


def _made_by(path) -> dict:
    return seal.read_seal(path)["made_by"]


def _from(path) -> dict | None:
    return seal.read_seal(path).get("from")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_job_seals_its_outputs_byte_for_byte_as_stored_results_say(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with job_seals(_tables_job(), LOG):
        _write(Path("out/x.txt"), "made")
        Path("out/raw.txt").write_text("raw")  # sealed when the job ends
        assert not seal.seal_path("out/raw.txt").exists()
    assert seal.seal_path("in/a.txt").read_text() == SEAL_A
    assert seal.seal_path("out/x.txt").read_text() == SEAL_X
    assert seal.seal_path("out/raw.txt").read_text() == SEAL_RAW


def test_a_failed_job_seals_nothing_it_wrote_outside_the_writer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="boom"), job_seals(_tables_job(), LOG):
        Path("out").mkdir()
        Path("out/raw.txt").write_text("raw")
        raise RuntimeError("boom")
    assert not seal.seal_path("out/raw.txt").exists()
    assert seal.current() == seal.API  # and the job's provenance is gone


def test_a_damaged_input_stops_the_job_before_it_opens(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = _tables_job()
    Path("in/a.txt").write_text("input b!")
    with pytest.raises(seal.SealError, match=r"^in/a.txt: 8 bytes where its writer wrote 7; run the workflow again"):
        with job_seals(job, LOG):
            pytest.fail("the job went on")
    assert seal.current() == seal.API


def test_two_jobs_in_one_process_record_their_own_inputs_and_makers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(Path("runs/part.parquet"), "runs")
    _write(Path("tables/orders.csv"), "orders")
    first = _job("board_tables", {"version": "board_tables=1"}, ["runs/part.parquet"])
    second = _job("claims_table", {"version": "claims=2", "claim": "c1"}, ["tables/orders.csv"])
    with job_seals(first, LOG):
        _write(Path("tables/a.csv"), "a")
    with job_seals(second, LOG):
        _write(Path("claims/b.csv"), "b")
    _write(Path("notes/c.txt"), "c")  # after both: the API
    assert _from("tables/a.csv") == {"runs/part.parquet": _sha("runs")}
    assert _made_by("tables/a.csv") == {"rule": "board_tables", "version": "board_tables=1", "params": _params(first)}
    assert _from("claims/b.csv") == {"tables/orders.csv": _sha("orders")}
    assert _made_by("claims/b.csv") == {"rule": "claims_table", "version": "claims=2", "params": _params(second)}
    assert _from("notes/c.txt") is None and _made_by("notes/c.txt") == API


def _params(job) -> str:
    """16 hex digits of SHA-256 of the job's parameters as sorted, compact JSON (the
    definition of a parameters' digest)."""
    text = json.dumps(job.params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_job_without_rule_or_params_records_its_inputs_and_the_api(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(Path("in.txt"), "in")
    with job_seals(_job("r", None, ["in.txt"]), LOG):
        _write(Path("out.txt"), "out")
    assert _made_by("out.txt") == API and _from("out.txt") == {"in.txt": _sha("in")}


def test_a_write_outside_any_job_records_the_api(tmp_path):
    _write(tmp_path / "api.txt", "x")
    record = json.loads(seal.seal_path(tmp_path / "api.txt").read_text())
    assert record["made_by"] == API and "from" not in record


def test_nested_blocks_record_the_innermost_and_restore_the_outer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = _job("sweep_chunk", {"version": "sweep_chunk:tree=1"}, [])
    with job_seals(job, LOG):
        with seal.recording(seal.Provenance(by="knight sweep")):
            _write(Path("inner.txt"), "inner")
        _write(Path("outer.txt"), "outer")
    assert _made_by("inner.txt") == {"by": "knight sweep"}
    assert _made_by("outer.txt")["rule"] == "sweep_chunk"
    assert seal.current() == seal.API


def test_concurrent_jobs_in_threads_never_record_each_other(tmp_path, monkeypatch):
    """Both jobs are open at once (a barrier holds each inside its block until the other
    is in), then each writes; a thread started inside a job records the API."""
    monkeypatch.chdir(tmp_path)
    names = [f"job{k}" for k in range(4)]
    for name in names:
        _write(Path(f"in/{name}.txt"), name)
    opened = threading.Barrier(len(names))
    errors = []

    def run(name):
        try:
            with job_seals(_job(name, {"version": f"{name}=1"}, [f"in/{name}.txt"]), LOG):
                opened.wait(timeout=30)
                _write(Path(f"out/{name}.txt"), name)
                opened.wait(timeout=30)  # nobody leaves before all have written
                child = threading.Thread(target=_write, args=(Path(f"out/{name}-child.txt"), "child"))
                child.start()
                child.join()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(name,)) for name in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for name in names:
        assert _made_by(f"out/{name}.txt")["rule"] == name
        assert _from(f"out/{name}.txt") == {f"in/{name}.txt": _sha(name)}
        assert _made_by(f"out/{name}-child.txt") == API
    assert seal.current() == seal.API


def test_recording_refuses_what_is_not_a_provenance():
    with pytest.raises(TypeError, match=r"recording: \{'by': 'x'\} is not a seal.Provenance"):
        with seal.recording({"by": "x"}):
            pytest.fail("recorded")


def test_script_logging_opens_the_job_and_closes_it_at_exit(tmp_path):
    """The workflow's way: ``script_logging`` at the top of a script, the job's seals until
    the process exits, then the outputs written outside the writer sealed."""
    code = textwrap.dedent(
        """
        import types
        from pathlib import Path
        from knight.core.io import atomic_path
        with atomic_path(Path("in/a.txt")) as t:
            t.write_text("input a")
        Path("in/b.txt").write_text("unsealed b")
        params = {"version": "board_tables=1", "board": "5x5", "orders": (1, 2)}
        sm = types.SimpleNamespace(log=["job.log"], input=["in/a.txt", ["in/b.txt"]],
                                   output=["out/x.txt", "out/raw.txt"], rule="board_tables", params=params)
        from knight.runtime.logs import script_logging
        script_logging(sm)
        with atomic_path(Path("out/x.txt")) as t:
            t.write_text("made")
        Path("out/raw.txt").write_text("raw")
        """
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert seal.seal_path(tmp_path / "out/x.txt").read_text() == SEAL_X
    assert seal.seal_path(tmp_path / "out/raw.txt").read_text() == SEAL_RAW
    log = (tmp_path / "job.log").read_text()
    assert "sealed out/raw.txt (written outside knight.core.io)" in log
    assert "Traceback" not in log + res.stderr and "Exception ignored" not in log + res.stderr  # closed cleanly
