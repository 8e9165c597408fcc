"""Digests of what each kind of workflow job writes, for the results-versions test.

A finished run's sealed outputs say which job kind made them and under which results
version (their seal's ``made_by``, knight.core.seal). This module digests their
*contents* per kind: Parquet and CSV as rows (the same rows from another pyarrow or
polars give the same digest), JSON as canonical JSON, SVG figures as text (drawn with a
fixed id salt), Markdown and HTML as text. Timings are measurements, not results: the
timing columns and keys are left out, and the kinds that only measure are skipped.

    python tests/results_digests.py --record    # run config/tiny.yaml, write the digests

(tests/test_tiny_study.py compares a run with tests/data/results_digests.json.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import matplotlib
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
STORED = HERE / "data" / "results_digests.json"
#: Kinds whose outputs are timings only.
MEASUREMENTS = frozenset({"queens_timings", "queens_speedup", "report_queens", "figure_runtime"})
#: Columns and keys that hold timings, or bytes of files (which depend on the writer's version).
TIMING_COLUMN = re.compile(r"(^|_)seconds$|^steps_per_second$")
VOLATILE_KEYS = frozenset({"cpu", "cpu_seconds", "seconds", "sha256", "bytes"})
#: Figures of timings, inside kinds that also draw results.
TIMING_FIGURES = re.compile(r"(^|/)time\.(png|svg)$")


def _rows(table) -> str:
    keep = [c for c in table.column_names if not TIMING_COLUMN.search(c)]
    return json.dumps({"columns": keep, "rows": table.select(keep).to_pylist()}, sort_keys=True, default=str)


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def content(path: Path) -> str | None:
    """The canonical text of one output, or None for an output left out (a PNG, a timing figure)."""
    suffix = path.suffix.lower()
    if suffix == ".png" or TIMING_FIGURES.search(path.as_posix()):
        return None
    if suffix == ".parquet":
        return _rows(pq.read_table(path))
    if suffix == ".csv":
        return _rows(pacsv.read_csv(path))
    if suffix == ".json":
        return json.dumps(_strip(json.loads(path.read_text())), sort_keys=True)
    return path.read_text(encoding="utf-8")


def digests(root: str | os.PathLike) -> dict[str, dict]:
    """``{kind: {"version": n, "digest": hex, "files": count}}`` of the sealed outputs under
    ``root`` (a run's ``results`` folder), by the kind and version their seals record."""
    by_kind: dict[str, dict[str, str]] = {}
    versions: dict[str, int] = {}
    for seal_path in sorted(Path(root).rglob(".*.seal")):
        seal = json.loads(seal_path.read_text())
        made_by = seal.get("made_by")
        if not made_by or "version" not in made_by:  # not made by a workflow job
            continue
        kind, number = made_by["version"].split("=")
        if kind.split(":")[0] in MEASUREMENTS:
            continue
        path = seal_path.parent / seal_path.name[1 : -len(".seal")]
        text = content(path)
        if text is None:
            continue
        versions[kind] = int(number)
        rel = path.relative_to(root).as_posix()
        by_kind.setdefault(kind, {})[rel] = hashlib.sha256(text.encode()).hexdigest()
    out = {}
    for kind, files in sorted(by_kind.items()):
        h = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
        out[kind] = {"version": versions[kind], "digest": h, "files": len(files)}
    return out


def compare(found: dict, stored: dict) -> list[str]:
    """One line per kind whose digest or version differs from ``stored``: what to do."""
    problems = []
    same_matplotlib = stored.get("matplotlib") == matplotlib.__version__
    for kind, now in found.items():
        was = stored["kinds"].get(kind)
        if was is None:
            problems.append(f"{kind}: no recorded digest: record them (python tests/results_digests.py --record)")
        elif was["digest"] != now["digest"]:
            if kind.startswith(("figure_", "rules_figures")) and not same_matplotlib:
                continue  # another matplotlib draws other bytes; checked where the digests were recorded
            if was["version"] == now["version"]:
                problems.append(
                    f"{kind}: its results changed under the same results version {now['version']}: bump "
                    f"VERSIONS[{kind!r}] in knight/pipeline/versions.py, then record the digests "
                    "(python tests/results_digests.py --record)"
                )
            else:
                problems.append(f"{kind}: version {now['version']} has no recorded digest: record them")
        elif was["version"] != now["version"]:
            problems.append(
                f"{kind}: version bumped to {now['version']} but its results did not change: "
                "a bump reruns every such job for nothing; undo it"
            )
    for kind in stored["kinds"]:
        if kind not in found:
            problems.append(f"{kind}: recorded, but no job of this kind wrote a result")
    return problems


def record(work: Path) -> dict:
    """Run the workflow on config/tiny.yaml in ``work`` and return the digests to store."""
    sys.path.insert(0, str(HERE))
    from workflow_run import REPO, snakemake

    res = snakemake(work, configfile=os.path.join(REPO, "config", "tiny.yaml"), timeout=1800)
    if res.returncode:
        raise SystemExit(res.stderr[-4000:])
    return {"matplotlib": matplotlib.__version__, "kinds": digests(work / "results")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="run config/tiny.yaml and write the digests")
    parser.add_argument("--results", metavar="DIR", help="compare the results under DIR instead")
    args = parser.parse_args()
    if args.record:
        with tempfile.TemporaryDirectory() as work:
            data = record(Path(work))
        STORED.parent.mkdir(exist_ok=True)
        STORED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(data['kinds'])} kinds in {STORED}")
        return
    if args.results:
        problems = compare(digests(args.results), json.loads(STORED.read_text()))
        print("\n".join(problems) or "every kind matches its recorded digest")
        raise SystemExit(1 if problems else 0)
    parser.print_help()


if __name__ == "__main__":
    main()
