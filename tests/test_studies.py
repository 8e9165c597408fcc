"""The rules stage: plans of bounded chunks, rows independent of the split, the stage end to end."""

import polars as pl
import pyarrow as pa
import pytest
import yaml
from naive_rules import ORDER_STRINGS
from naive_rules import run as naive_run
from workflow_run import snakemake as run_snakemake

from knight.cli import main as knight_main
from knight.core.board import Board
from knight.rules.chunks import RUNS_SCHEMA, run_chunk, walk_tasks
from knight.rules.study import RuleSpec, Study
from knight.runtime.cluster import dask_client

SETTINGS = {"random": {"seed": 7, "trials": 6}, "random-order": {"seed": 7, "trials": 4, "retries": 3}}
ALL_RULES = ["fixed", "pohl", "roth", "corner", "random", "random-order", "squirrel-cull"]


def study(rules, boards, chunk_steps, starts="corner", orders="default", name="s"):
    return Study.from_config(
        {"name": name, "rules": rules, "boards": boards, "starts": starts, "orders": orders},
        {"settings": SETTINGS, "chunk_steps": chunk_steps, "chunk_runs": 40320 * 3},
    )


def all_rows(st, rule, client=None):
    tables = [run_chunk(st, rule, k, client=client).table for k in range(len(st.chunks(rule)))]
    return pa.concat_tables(tables)


@pytest.mark.parametrize("rule", ALL_RULES)
def test_chunks_are_bounded_and_cover_every_run_once(rule):
    st = study([rule], {"from": 5, "to": 30}, chunk_steps=5000)
    spec = st.spec(rule)
    seen = []
    for chunk in st.chunks(rule):
        # within the bound, unless a single start's runs exceed it
        one = sum(hi - lo for _, lo, hi in chunk.segments) == 1
        assert chunk.steps <= 5000 or one
        assert chunk.rows == sum((hi - lo) * spec.trials for _, lo, hi in chunk.segments)
        seen += [(b.name, s) for b, lo, hi in chunk.segments for s in range(lo, hi)]
    assert seen == [(f"{n}x{n}", 0) for n in range(5, 31)]


def test_every_start_study_is_cut_within_boards():
    st = study(["fixed"], [12, 30], chunk_steps=30 * 30 * 100, starts="all")
    chunks = st.chunks("fixed")
    assert len(chunks) > 9  # 900 starts of 30x30 at 100 a chunk, and 12x12 with the first
    starts_30 = [s for c in chunks for b, lo, hi in c.segments if b.rows == 30 for s in range(lo, hi)]
    assert starts_30 == list(range(900))


@pytest.mark.parametrize("rule", ["random", "random-order", "pohl", "squirrel-cull"])
def test_rows_do_not_depend_on_chunks_or_workers(rule):
    """Same seed, different chunking and worker counts: identical rows."""
    boards = {"from": 5, "to": 14}
    one = all_rows(study([rule], boards, chunk_steps=10**9), rule)
    many = study([rule], boards, chunk_steps=250)
    assert len(many.chunks(rule)) > 3
    with dask_client(2) as client:
        split = all_rows(many, rule, client=client)
    assert one.equals(split)
    assert one.schema == RUNS_SCHEMA


def test_rows_equal_the_reference():
    boards = [5, 6, "5x7"]
    for rule in ["fixed", "roth", "random", "random-order"]:
        st = study([rule], boards, chunk_steps=3000, starts="all")
        rows = all_rows(st, rule).to_pylist()
        spec = st.spec(rule)
        want = []
        for b in [Board(5, 5), Board(6, 6), Board(5, 7)]:
            for s in range(b.size):
                for t in range(spec.trials):
                    r = naive_run(b.rows, b.cols, s, rule, spec.order, spec.seed, t, spec.retries)
                    order = None if r["order"] is None else ORDER_STRINGS.index(r["order"])
                    want.append(
                        dict(
                            rule=rule,
                            rows=b.rows,
                            cols=b.cols,
                            start=s,
                            order=order,
                            trial=t,
                            attempts=r["attempts"],
                            visited=r["visited"],
                            end=r["end"],
                            complete=r["complete"],
                            closed=r["closed"],
                        )
                    )
        assert rows == want, rule


@pytest.mark.parametrize("rule", ["squirrel-cull", "fixed", "random", "pohl"])
def test_one_run_boards_go_two_a_task(rule):
    """Boards of one run (from the corner) go two to a Dask task and are walked side by
    side when the rule allows it (not pohl): rows equal the reference walk's, and each
    board keeps its own knight steps and seconds in the times table."""
    settings = {"settings": {"random": {"seed": 7, "trials": 1}}, "chunk_steps": 10**9}
    st = Study.from_config({"name": "s", "rules": [rule], "boards": {"from": 5, "to": 20}}, settings)
    tasks = walk_tasks(st, st.chunks(rule)[0])
    assert [len(task) for task in tasks] == ([1] * 16 if rule == "pohl" else [2] * 8)
    res = run_chunk(st, rule, 0)
    spec = st.spec(rule)
    want = [naive_run(m, m, 0, rule, spec.order, spec.seed, 0, 1) for m in range(5, 21)]
    got = [(r["rows"], r["visited"], r["end"], r["complete"], r["closed"]) for r in res.table.to_pylist()]
    assert got == [(m, w["visited"], w["end"], w["complete"], w["closed"]) for m, w in zip(range(5, 21), want)]
    times = res.times.to_pylist()
    assert [(t["rows"], t["runs"], t["steps"]) for t in times] == [
        (m, 1, w["visited"] - 1) for m, w in zip(range(5, 21), want)
    ]
    assert all(t["seconds"] > 0 for t in times)
    several = Study.from_config({"name": "s", "rules": ["random"], "boards": [9, 10]}, {"settings": SETTINGS})
    assert [len(task) for task in walk_tasks(several, several.chunks("random")[0])] == [1, 1]


def test_tree_rows_equal_walked_rows():
    """A study over a list of orders (tie-tree engine) gives the rows of walking each order."""
    orders = ["12345678", "31245678", "87654321", "56781234"]
    for rule in ["pohl", "roth", "corner", "fixed"]:
        tree = study([rule], [6, "5x7"], 10**9, starts="all", orders=orders)
        assert all(c.kind == "tree" for c in tree.chunks(rule))
        got = pl.from_arrow(all_rows(tree, rule)).sort("rows", "cols", "start", "order")
        walked = []
        for o in orders:
            spec = RuleSpec(rule, order=o)
            st = Study("w", (spec,), (Board(6, 6), Board(5, 7)), starts="all")
            walked.append(pl.from_arrow(all_rows(st, rule)))
        want = pl.concat(walked).sort("rows", "cols", "start", "order")
        assert got.equals(want), rule


def test_squirrel_cull_needs_square_boards():
    with pytest.raises(ValueError, match="boards: 6x8: squirrel-cull needs a square board of side 5 or more"):
        study(["squirrel-cull"], ["6x8"], 10**6)
    with pytest.raises(ValueError, match="take tie orders, not random"):
        study(["random"], [6], 10**6, orders="all")


def test_rules_command_json(capsys):
    import json

    assert (
        knight_main(["rules", "8", "--rule", "random", "--trials", "30", "--seed", "3", "--json", "--workers", "1"])
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    assert {"rule", "rows", "cols", "runs", "complete", "closed", "seconds"} <= set(got)
    want = sum(naive_run(8, 8, 0, "random", seed=3, trial=t)["complete"] for t in range(30))
    assert (got["rule"], got["runs"], got["complete"]) == ("random", 30, want)
    assert got["ci_low"] <= got["completion_rate"] <= got["ci_high"]
    assert knight_main(["rules", "6x8", "--rule", "squirrel-cull"]) == 2
    assert "squirrel-cull" in capsys.readouterr().err


# --- the stage end to end through Snakemake -----------------------------------------
STAGE = {
    "sweep": {"boards": [5]},
    "rules": {
        "settings": {"random": {"seed": 5, "trials": 8}, "random-order": {"seed": 5, "trials": 6, "retries": 3}},
        "studies": [
            {"name": "corner", "rules": ALL_RULES, "boards": {"from": 5, "to": 34}},
            {"name": "every", "rules": ["fixed", "random-order"], "boards": [5, 6, 8], "starts": "all"},
            {"name": "orders", "rules": ["roth"], "boards": [5], "starts": "all", "orders": "all"},
        ],
        "chunk_steps": 30000,
        "chunk_runs": 200000,
    },
}


@pytest.fixture(scope="module")
def stage(repo, tmp_path_factory):
    work = tmp_path_factory.mktemp("rules")
    (work / "cfg.yaml").write_text(yaml.safe_dump(STAGE))
    res = run_snakemake(work, "rules_stage", configfile=work / "cfg.yaml", timeout=1200)
    assert res.returncode == 0, res.stderr[-3000:]
    return work


def table(work, name):
    return pl.read_parquet(work / f"results/rules/tables/{name}.parquet")


@pytest.mark.slow
def test_stage_runs_dataset(stage):
    from knight.core.dataset import scan

    runs = scan(stage / "results/rules/runs").collect()
    assert set(runs["study"]) == {"corner", "every", "orders"}
    assert runs.filter(pl.col("study") == "orders").height == 25 * 40320
    corner = runs.filter(pl.col("study") == "corner")
    assert corner.group_by("rule").len().sort("rule").rows() == [
        ("corner", 30),
        ("fixed", 30),
        ("pohl", 30),
        ("random", 240),
        ("random-order", 180),
        ("roth", 30),
        ("squirrel-cull", 30),
    ]
    assert corner.filter(pl.col("rule").is_in(["random", "squirrel-cull"]))["order"].null_count() == 270


@pytest.mark.slow
def test_stage_tables_match_the_reference(stage):
    comp = table(stage, "completion")
    for rule in ALL_RULES:
        for n in (5, 16, 31):
            row = comp.filter((pl.col("study") == "corner") & (pl.col("rule") == rule) & (pl.col("rows") == n)).row(
                0, named=True
            )
            spec = RuleSpec.from_settings(rule, STAGE["rules"]["settings"])
            runs = [naive_run(n, n, 0, rule, spec.order, spec.seed, t, spec.retries) for t in range(spec.trials)]
            assert row["runs"] == spec.trials
            assert row["complete"] == sum(r["complete"] for r in runs), (rule, n)
            assert row["closed"] == sum(r["closed"] for r in runs)
            if rule in ("random", "random-order"):
                assert row["ci_low"] <= row["completion_rate"] <= row["ci_high"]
            else:
                assert row["ci_low"] is None
    fail = table(stage, "failures").filter(pl.col("study") == "corner")
    fixed = fail.filter(pl.col("rule") == "fixed").row(0, named=True)
    want = [f"{n}x{n}" for n in range(5, 35) if not naive_run(n, n, 0, "fixed")["complete"]]
    assert fixed["failing"] == want and fixed["first_failure"] == (want[0] if want else None)
    assert fixed["boards"] == 30 and fixed["largest_board"] == "34x34"
    t57 = table(stage, "table57").filter(pl.col("rows") == 6).row(0, named=True)
    closing = [s for s in range(36) if naive_run(6, 6, s, "fixed")["closed"]]
    assert t57["closed"] == len(closing)
    assert t57["closed_starts"] == [f"({s // 6 + 1},{s % 6 + 1})" for s in closing]
    ret = table(stage, "retries").filter((pl.col("study") == "every") & (pl.col("rows") == 5)).sort("after")
    runs = [naive_run(5, 5, s, "random-order", seed=5, trial=t, retries=3) for s in range(25) for t in range(6)]
    assert ret["incomplete"].to_list() == [
        sum(not (r["complete"] and r["attempts"] <= a) for r in runs) for a in range(1, ret.height + 1)
    ]
    sc = table(stage, "squirrel_cull")
    assert sc.height == 30 and sc["complete"].all()
    orders = table(stage, "orders")
    assert orders.height == 40320 and set(orders["rule"]) == {"roth"}
    assert (stage / "results/rules/figures/completion.png").stat().st_size > 10_000


@pytest.mark.slow
def test_stage_rerun_has_nothing_to_do(repo, stage):
    res = run_snakemake(stage, "rules_stage", "-n", configfile=stage / "cfg.yaml", timeout=300)
    assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr
