"""Results versions: what makes a workflow job rerun when code changes.

A job reruns when its inputs or its parameters change (Snakemake's ``input``, ``mtime``
and ``params`` triggers; the workflow's profiles leave out the ``code`` trigger). Among
its parameters is the results version of its kind (:data:`VERSIONS`): a change of code
that changes what a kind of job writes bumps that kind's number, and so reruns exactly
those jobs (and, by their new outputs, what is made from them). A change that cannot
change a result (a refactor, a docstring, a moved helper, a faster kernel with the same
rows) bumps nothing and reruns nothing.

Nobody has to remember: ``tests/test_tiny_study.py::test_results_match_their_recorded_versions``
(slow tier) runs the workflow on ``config/tiny.yaml`` and compares a digest of what each
kind of job wrote (contents, not file bytes: the same rows from another pyarrow write the
same digest) with ``tests/data/results_digests.json``; ``tests/test_kind_digests.py``
(fast tier) does so for two cheap kinds. Outputs changed under the same version: the
test fails and names the kind to bump. A version bumped: it fails until the new digests
are recorded (``python tests/results_digests.py --record``), so a bump without a change
of results is caught too. Timings (seconds, benchmark files) are measurements, not
results, and are left out of the digests.

A kind is a Snakemake rule, or ``rule:variant`` where one rule runs different code
(the sweep's two engines, the rules stage's walk and tree chunks).
"""

from __future__ import annotations

#: Results version of each kind of job (see the module docstring).
VERSIONS: dict[str, int] = {
    # sweep stage
    "sweep_chunk:tree": 1,
    "sweep_chunk:brute": 1,
    "runs_manifest": 1,
    "board_tables": 1,
    "combine_table": 1,
    # census
    "census_board": 1,
    "census_tables": 1,
    "census_check": 1,
    "publish_census": 1,
    # rules stage
    "rules_chunk:walk": 1,
    "rules_chunk:tree": 1,
    "rules_manifest": 1,
    "rules_tables": 1,
    "rules_figures": 1,
    # queens
    "queens_timings": 1,
    "queens_speedup": 1,
    "queens_sets": 1,
    "queens_unit": 4,
    "queens_frontier": 1,
    # exact
    "exact_backtrack_board": 1,
    "exact_backtrack_tables": 1,
    "exact_construct": 1,
    "exact_tour": 1,
    # figures and the report
    "figure_tour": 1,
    "figure_board": 1,
    "figure_rates": 1,
    "figure_runtime": 1,
    "figure_order_images": 1,
    "thesis_tables": 1,
    "report_completion": 1,
    "report_queens": 1,
    # claims
    "claims_scan": 1,
    "claim_finding": 1,
    "claims_table": 1,
    "publish_claims": 1,
}


def version(kind: str) -> str:
    """The results version of ``kind`` as a job parameter: ``"KIND=N"``.

    >>> version("board_tables")
    'board_tables=1'
    """
    return f"{kind}={VERSIONS[kind]}"
