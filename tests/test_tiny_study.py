"""The whole workflow on config/tiny.yaml, as CI runs it: every stage, every script, the report."""

import os
import re
import subprocess
import sys
import textwrap

import polars as pl
import pytest
from workflow_run import snakemake as run_snakemake

pytestmark = pytest.mark.slow  # the whole workflow on the tiny config: the default run only

STAGES = {
    "sweep": ["results/runs/board=5x5/_manifest.json", "results/tables/completion.parquet"],
    "figures": [
        "results/figures/rates.png",
        "results/figures/tours/5x5_1-1_12345678.svg",
        "results/thesis/5x5/table58.md",
        "results/figures/symmetry/5x5_12345678.png",
    ],
    "queens": [
        "results/queens/timings.parquet",
        "results/queens/speedup.png",
        "results/queens/counts.csv",
        "results/queens/dominating_sets.parquet",
        "results/queens/placements.parquet",
        "results/queens/frontier/dominate-8-5.json",
        "results/queens/frontier/dominate-8-5.parquet",
    ],
    "exact": [
        "results/exact/backtrack_starts.parquet",
        "results/exact/construct.parquet",
        "results/exact/tours/6x6.parquet",
    ],
    "rules": [
        "results/rules/tables/completion.parquet",
        "results/rules/tables/table57.md",
        "results/rules/figures/completion.png",
        "results/rules/tables/orders.parquet",
    ],
}


@pytest.fixture(scope="module")
def tiny(repo, tmp_path_factory):
    work = tmp_path_factory.mktemp("tiny")
    tiny = os.path.join(repo, "config", "tiny.yaml")
    res = run_snakemake(work, configfile=tiny, timeout=1200)
    assert res.returncode == 0, res.stderr[-4000:]
    (work / "console.txt").write_text(res.stdout + res.stderr)
    rep = run_snakemake(work, "--report", str(work / "results/report.html"), configfile=tiny, timeout=600)
    assert rep.returncode == 0, rep.stderr[-4000:]
    return work


@pytest.mark.parametrize("stage", list(STAGES))
def test_every_stage_made_its_outputs(tiny, stage):
    for path in STAGES[stage]:
        assert (tiny / path).stat().st_size > 0, path


def test_a_run_shows_its_progress_without_job_listings(tiny):
    """The default profile's ``quiet: [rules]``: no job's listing, every job's progress."""
    first_run = sorted((tiny / ".snakemake/log").glob("*.log"))[0]
    text = first_run.read_text()
    assert not re.search(r"^(local)?rule \w+:$", text, flags=re.M)
    assert re.search(r"^(\d+) of \1 steps \(100%\) done$", text, flags=re.M)


def test_every_script_ran_and_logged(repo, tiny):
    scripts = {
        p.removesuffix(".py") for p in os.listdir(os.path.join(repo, "workflow", "scripts")) if p.endswith(".py")
    }
    logs = list((tiny / "results/logs").rglob("*.log"))
    assert logs and all(p.stat().st_size > 0 for p in logs)
    first_run = sorted((tiny / ".snakemake/log").glob("*.log"))[0]  # then the --report run
    ran = set(re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)$", first_run.read_text(), flags=re.M))
    # Every script of workflow/scripts belongs to a Snakemake rule, and every such one ran.
    used, with_script = set(), set()  # scripts named by a Snakemake rule; the rules that run one
    for smk in os.listdir(os.path.join(repo, "workflow", "rules")):
        text = open(os.path.join(repo, "workflow", "rules", smk)).read()
        for block in re.split(r"(?m)^rule ", text)[1:]:
            m = re.search(r'"\.\./scripts/(\w+)\.py"', block)
            if m:
                used.add(m.group(1))
                with_script.add(block.split(":", 1)[0])
    assert used == scripts
    # The census and the claims are not part of the default pipeline (their own targets,
    # `census` and `claims`; run by tests/test_workflow.py::test_census_stage_sealed_and_complete
    # and tests/test_claims.py::test_claims_stage), nor are the site's results pages.
    own_target = {"census_board", "census_tables", "census_check", "claims_scan", "claim_finding", "claims_table"}
    own_target |= {"publish_census", "publish_claims"}
    assert own_target <= with_script
    assert with_script - own_target <= ran, with_script - own_target - ran


def test_results_are_whole(tiny):
    from knight.core.dataset import scan

    assert not list((tiny / "results").rglob("*.tmp"))
    # 5x5 and 3x7 of the sweep, and 6x6 that the exact stage joins (its sweep starts table)
    assert scan(tiny / "results/runs", deep=True).select(pl.len()).collect().item() == (25 + 21 + 36) * 5
    assert scan(tiny / "results/rules/runs", deep=True).select(pl.len()).collect().item() > 0
    counts = pl.read_parquet(tiny / "results/queens/counts.parquet")
    assert counts["matches"].all()
    # queens.counts: counted, not written. docs/conventions.md: 352 placements of 9 queens in
    # 46 classes (A000170, A002562); 4 dominating sets of 3 queens on 6x6 (A002564), one class.
    counted = {(r["problem"], r["n"]): (r["solutions"], r["classes"]) for r in counts.iter_rows(named=True)}
    assert counted[("place", 9)] == (352, 46)
    assert counted[("dominate", 6)] == (4, 1)
    assert pl.read_parquet(tiny / "results/queens/placements.parquet")["n"].max() == 6


def test_the_run_ends_readably(tiny):
    """No line of thousands of characters (a job's input lists are cut); the run ends with
    where the results are, how to open the report and its wall time."""
    lines = (tiny / "console.txt").read_text().splitlines()
    assert all(len(line) < 300 for line in lines[-20:]), max(lines[-20:], key=len)
    assert max(len(line) for line in lines) < 1000
    end = "\n".join(lines[-6:])
    assert "Results: results/runs/" in end and "snakemake --report results/report.html" in end
    assert lines[-1].startswith("Elapsed time: ")


def _hints(tiny):
    """The hints the run's last lines print, as printed: ``{"Report": ..., "Python": ...}``."""
    lines = (tiny / "console.txt").read_text().splitlines()
    return {k: v.strip() for k, _, v in (line.partition(": ") for line in lines[-8:]) if k in ("Report", "Python")}


def test_the_printed_python_hint_runs(tiny):
    """The Python line the run ends with, run as printed from the project's folder."""
    hint = _hints(tiny)["Python"]
    code = hint.removesuffix(" reads the runs, verified.")
    assert code != hint and code.startswith("knight."), hint
    probe = f"import knight; frame = {code}; print(frame.select(__import__('polars').len()).collect().item())"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tiny, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert int(res.stdout) == (25 + 21 + 36) * 5  # the runs of test_results_are_whole


def test_the_printed_report_hint_runs(tiny, repo):
    """The report line: its snakemake command (from the project's folder, so with the
    Snakefile and the run's config file given) makes the file it then says to open."""
    hint = _hints(tiny)["Report"]
    command, _, then = hint.partition(", then open ")
    words = command.split()
    assert words[:2] == ["snakemake", "--report"], hint
    report = tiny / then.removesuffix(" in a browser.")
    report.unlink()
    res = run_snakemake(tiny, *words[1:], configfile=os.path.join(repo, "config", "tiny.yaml"), timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert report.stat().st_size > 100_000, report


def test_the_rules_notebook_draws_the_studies_it_names_from_results(tiny, tmp_path):
    """Notebook 03 over the tiny study's rules tables, which hold a third study (every
    residual order of 5x5) beside every-start (fixed, random on 5x5, 6x6) and corner
    (5..12): each figure draws its own study only (tests/test_notebooks.py: without results)."""
    import shutil

    from notebook_run import run_notebook
    from test_notebooks import check_rules_notebook

    shutil.copytree(tiny / "results/rules/tables", tmp_path / "results/rules/tables")
    (tmp_path / "Snakefile").write_text("")  # the notebook looks for its project's folder
    nb = run_notebook("03-rules-results", tmp_path)
    assert "the workflow's tables" in nb["stdout"]
    check_rules_notebook(nb, ["fixed", "random"], [5.0, 6.0], [float(n) for n in range(5, 13)])


def test_report_holds_every_stage(tiny):
    html = (tiny / "results/report.html").read_text(errors="replace")
    for name in ("rates.png", "speedup.png", "completion.png", "table58", "closed_starts"):
        assert name in html, name


def test_a_failing_script_leaves_its_traceback_in_its_log(tmp_path):
    """Scripts log one way (knight.runtime.logs): a failing job's traceback is in its log file."""
    log_path = str(tmp_path / "job.log")
    code = textwrap.dedent(
        f"""
        import types
        from knight.runtime.logs import script_logging
        sm = types.SimpleNamespace(log=[{log_path!r}])
        log = script_logging(sm)
        log.info("working")
        import sys
        print("a library's warning", file=sys.stderr)
        raise RuntimeError("the job failed here")
        """
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode != 0
    text = (tmp_path / "job.log").read_text()
    assert "working" in text and "a library's warning" in text
    assert "Traceback" in text and "RuntimeError: the job failed here" in text
    assert "RuntimeError: the job failed here" in res.stderr  # and on the console


# --- reruns follow results (knight.pipeline.versions) -----------------------------------------
def test_results_match_their_recorded_versions(tiny):
    """What each kind of job wrote has the digest recorded for its results version: a change
    of results without a bumped version (or a bump without a change) fails here, naming the
    kind (tests/results_digests.py)."""
    import json

    from results_digests import STORED, compare, digests

    problems = compare(digests(tiny / "results"), json.loads(STORED.read_text()))
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def copy_of_repo(repo, tmp_path_factory):
    """The project copied, to edit its code; it plans the tiny run's folder."""
    import shutil

    copy = tmp_path_factory.mktemp("edited") / "repo"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "docs"))
    return copy


def _dry_run(copy, tiny):
    res = run_snakemake(tiny, "-n", configfile=os.path.join(copy, "config", "tiny.yaml"), repo=str(copy))
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout + res.stderr


def _edit(path, old, new):
    text = path.read_text()
    assert old in text, path
    path.write_text(text.replace(old, new, 1))


def test_a_change_that_cannot_change_a_result_reruns_nothing(tiny, copy_of_repo):
    """A function added to knight/sweep/driver.py, a helper moved between modules and an
    edited docstring: "Nothing to be done" on a finished tiny run."""
    knight = copy_of_repo / "knight"
    (knight / "sweep" / "driver.py").write_text(
        (knight / "sweep" / "driver.py").read_text() + "\n\ndef unused_helper():\n    return 42\n"
    )
    _edit(
        knight / "engine" / "runs_table.py",
        '"""The sweep\'s runs table:',
        '"""The runs table of a sweep, edited:',
    )
    # Moved: the Wilson interval from core/frames.py into a module of its own.
    frames = (knight / "core" / "frames.py").read_text()
    start = frames.index("def wilson(")
    (knight / "core" / "wilson.py").write_text("import polars as pl\n\nZ95 = 1.959963984540054\n\n\n" + frames[start:])
    (knight / "core" / "frames.py").write_text(frames[:start] + "from knight.core.wilson import wilson  # noqa: E402\n")
    assert "Nothing to be done" in _dry_run(copy_of_repo, tiny)


def test_a_change_of_the_trees_results_reruns_the_sweep_and_what_is_made_from_it(tiny, copy_of_repo):
    """A bumped results version of the tie tree's sweep jobs: those jobs, their tables and
    figures rerun; the queens and exact stages do not."""
    _edit(copy_of_repo / "knight" / "pipeline" / "versions.py", '"sweep_chunk:tree": 1,', '"sweep_chunk:tree": 2,')
    out = _dry_run(copy_of_repo, tiny)
    job_counts = dict(re.findall(r"^(\w+)\s+(\d+)$", out, flags=re.M))
    from knight.pipeline.config import load_files
    from knight.pipeline.plan import Plan

    config = os.path.join(copy_of_repo, "config")
    plan = Plan(load_files([os.path.join(config, "tiny.yaml")], default=os.path.join(config, "config.yaml")))
    assert int(job_counts["sweep_chunk"]) == sum(len(plan.sweep_parts(b)) for b in plan.swept_boards)
    assert {"runs_manifest", "board_tables", "combine_table", "figure_board", "thesis_tables"} <= set(job_counts)
    assert not {k for k in job_counts if k.startswith(("queens_", "exact_construct", "exact_tour", "rules_"))}
