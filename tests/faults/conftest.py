"""Fault injection: one clean run of a small pipeline per session; each test damages a copy
of it (or interrupts a run) and checks the outcome against the clean run."""

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from workflow_run import snakemake as run_snakemake

#: A small pipeline with every kind of stored result: runs parts and manifests, per-board and
#: combined tables, rules-stage parts, manifests and tables, queens frontier units.
CONFIG = {
    "sweep": {
        "boards": [5, "3x7"],
        "orders": ["12345678", "31245678", "87654321", "16235478", "56781234"],
        "chunk_runs": 60,
    },
    "queens": {"frontier": [{"n": 8, "k": 5, "units": 4}]},
    "rules": {
        "settings": {"random": {"seed": 1, "trials": 5}},
        "studies": [{"name": "corner", "rules": ["fixed", "random"], "boards": {"from": 5, "to": 8}}],
    },
}
TARGETS = ("sweep_stage", "rules_stage", "results/queens/frontier/dominate-8-5.parquet")

#: Results that hold measured times (or SVG ids), so two clean runs differ there too.
TIMED = ("results/rules/times/", "results/rules/tables/times.", "results/rules/figures/time.png")


def run(work, *extra, timeout=900, **kwargs):
    """The workflow on the fault configuration in ``work`` (the same command every time)."""
    return run_snakemake(work, *TARGETS, *extra, configfile=work / "cfg.yaml", timeout=timeout, **kwargs)


@pytest.fixture(scope="session")
def clean(tmp_path_factory):
    """A finished, untouched run of the fault configuration (shared: never modify it)."""
    work = tmp_path_factory.mktemp("clean")
    (work / "cfg.yaml").write_text(yaml.safe_dump(CONFIG))
    res = run(work)
    assert res.returncode == 0, res.stderr[-3000:]
    return work


@pytest.fixture()
def damaged(clean, tmp_path):
    """A copy of the clean run (file times kept, so Snakemake sees it as finished)."""
    work = tmp_path / "damaged"
    shutil.copytree(clean, work, symlinks=True)
    return work


def results(work) -> dict[str, bytes | dict]:
    """Every result file of a run (not logs, benchmarks or seals), by path: its bytes, or
    what cannot differ between two clean runs (queens units and summaries without times)."""
    out = {}
    root = Path(work)
    for path in sorted((root / "results").rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or path.name.startswith(".") or rel.startswith(("results/logs/", "results/benchmarks/")):
            continue
        if rel.startswith(TIMED) or rel.endswith(".svg"):
            out[rel] = None  # present; its content is measured
        elif "/frontier/" in rel and path.name.startswith("unit-"):
            unit = json.loads(path.read_text())
            unit["result"].pop("cpu")
            out[rel] = {"unit": unit["unit"], "result": unit["result"]}
        elif "/frontier/" in rel and path.suffix == ".json":
            out[rel] = {k: v for k, v in json.loads(path.read_text()).items() if k != "cpu_seconds"}
        else:
            out[rel] = path.read_bytes()
    return out


def assert_same_results(work, clean):
    got, want = results(work), results(clean)
    assert sorted(got) == sorted(want)
    differ = [p for p in want if got[p] != want[p]]
    assert not differ, differ


def flip(path, offset=None, keep_mtime=False):
    """Flip one bit of a file in place (the middle byte unless ``offset``)."""
    path = Path(path)
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if offset is None else offset] ^= 1
    path.write_bytes(bytes(data))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.fixture()
def small_disk(tmp_path):
    """A 256 KiB tmpfs at ``tmp_path / "disk"`` (mounting needs root), or None where no
    file system can be mounted: a test then fills a disk through ``ulimit -f`` instead."""
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = os.geteuid() == 0 and (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True).returncode
        == 0
    )
    yield disk if mounted else None
    if mounted:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def file_size_limit(limit_bytes):
    """``preexec_fn`` of a subprocess: ``ulimit -f`` of ``limit_bytes`` (writes past it fail)."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return limit


def memory_limit(limit_bytes):
    """``preexec_fn`` of a subprocess: an address-space limit (``ulimit -v``) of ``limit_bytes``."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return limit
