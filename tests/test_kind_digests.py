"""Results versions follow results, in the fast tier: two cheap kinds of job of the tiny
config (the exact stage's constructed tours) run through the workflow, and their
contents' digests are compared with those recorded for their results versions in
tests/data/results_digests.json (knight.pipeline.versions). Every kind is compared in the
slow tier (tests/test_tiny_study.py::test_results_match_their_recorded_versions)."""

import json
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from results_digests import STORED, compare, digests
from workflow_run import REPO, snakemake

KINDS = ("exact_construct", "exact_tour")
TARGETS = ("results/exact/construct.parquet", "results/exact/tours/6x6.parquet")


@pytest.fixture(scope="module")
def exact_results(tmp_path_factory):
    work = tmp_path_factory.mktemp("exact")
    res = snakemake(work, *TARGETS, cores=1, configfile=os.path.join(REPO, "config", "tiny.yaml"), timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return work / "results"


def _recorded() -> dict:
    stored = json.loads(STORED.read_text())
    return {**stored, "kinds": {kind: stored["kinds"][kind] for kind in KINDS}}


def test_two_kinds_write_what_their_results_versions_recorded(exact_results):
    found = digests(exact_results)
    assert sorted(found) == list(KINDS)
    problems = compare(found, _recorded())
    assert not problems, "\n".join(problems)


def test_a_result_changed_under_the_same_version_is_named(exact_results, tmp_path):
    """The tour's rows changed (its first two steps swapped) and its version kept: the
    check names the kind to bump."""
    changed = tmp_path / "results"
    shutil.copytree(exact_results, changed)
    path = changed / "exact" / "tours" / "6x6.parquet"
    table = pq.read_table(path)
    step = table.column("step").to_pylist()
    step[0], step[1] = step[1], step[0]
    column = pa.array(step, type=table.schema.field("step").type)
    pq.write_table(table.set_column(table.schema.get_field_index("step"), "step", column), path)
    assert compare(digests(changed), _recorded()) == [
        "exact_tour: its results changed under the same results version 1: bump VERSIONS['exact_tour'] in "
        "knight/pipeline/versions.py, then record the digests (python tests/results_digests.py --record)"
    ]
