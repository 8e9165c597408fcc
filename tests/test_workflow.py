"""The Snakemake workflow end to end, on tiny configs in temporary folders."""

import itertools
from collections import Counter, defaultdict

import numpy as np
import polars as pl
import pytest
import yaml
from naive import ORDER_STRINGS
from naive import outcome as naive_outcome
from workflow_run import snakemake as run_snakemake

pytestmark = pytest.mark.slow  # the workflow on small configs: the default run only

ENGINES = ["tree", "brute"]


def snakemake(repo, workdir, configfile=None, *extra, target="sweep_stage"):
    """Run the workflow (by default only the sweep and its tables) in ``workdir``."""
    return run_snakemake(workdir, target, *extra, configfile=configfile or None)


def write_config(path, sweep, **sections):
    cfg = {"sweep": sweep, "dask": {"workers": 2}, **sections}
    path.write_text(yaml.safe_dump(cfg))
    return path


def naive_class_id(order, square=True):
    """Smallest rank among the images of ``order`` under the board's move permutations
    (generated here from the conventions' quarter turn and left-right mirror)."""
    quarter = {i: (i + 1) % 8 + 1 for i in range(1, 9)}  # i -> i+2 (mod 8), 1-based
    mirror = {1: 2, 2: 1, 3: 8, 8: 3, 4: 7, 7: 4, 5: 6, 6: 5}
    half = {i: quarter[quarter[i]] for i in quarter}
    gens = [quarter, mirror] if square else [half, mirror]
    orbit, todo = {order}, [order]
    while todo:
        o = todo.pop()
        for g in gens:
            img = "".join(str(g[int(c)]) for c in o)
            if img not in orbit:
                orbit.add(img)
                todo.append(img)
    return min(ORDER_STRINGS.index(o) for o in orbit), len(orbit)


@pytest.fixture(scope="module")
def small_sweep(repo, tmp_path_factory):
    """Boards 5x5 and 3x7, every start, 24 random orders: small enough for the naive reference."""
    work = tmp_path_factory.mktemp("sweep")
    rng = np.random.default_rng(2024)
    orders = sorted(ORDER_STRINGS[i] for i in rng.choice(40320, 24, replace=False))
    orders += ["12345678", "87654321"]  # also a class with two members present
    cfg = write_config(work / "cfg.yaml", {"boards": [5, "3x7"], "orders": orders, "chunk_runs": 200})
    res = snakemake(repo, work, cfg)
    assert res.returncode == 0, res.stderr[-3000:]
    return work, cfg, sorted(set(orders))


def expected_runs(boards, orders):
    rows = []
    for r, c in boards:
        for s in range(r * c):
            for o in orders:
                v, e, comp, clo, ties = naive_outcome(r, c, s, o)
                rows.append(
                    dict(
                        rows=r,
                        cols=c,
                        start=s,
                        order=ORDER_STRINGS.index(o),
                        visited=v,
                        end=e,
                        complete=comp,
                        closed=clo,
                        ties=ties,
                    )
                )
    return rows


def test_runs_dataset_matches_reference(small_sweep):
    work, _, orders = small_sweep
    runs = pl.scan_parquet(str(work / "results/runs/**/*.parquet"), hive_partitioning=True).collect()
    assert runs.schema["rows"] == pl.UInt16 and runs.schema["start"] == pl.UInt32
    assert runs.schema["order"] == pl.UInt16 and runs.schema["closed"] == pl.Boolean
    assert set(runs["board"]) == {"5x5", "3x7"}
    assert len(list((work / "results/runs/board=5x5").glob("*.parquet"))) > 1  # split into chunks
    got = runs.drop("board").sort("rows", "cols", "start", "order").to_dicts()
    want = sorted(expected_runs([(5, 5), (3, 7)], orders), key=lambda d: (d["rows"], d["cols"], d["start"], d["order"]))
    assert got == want


def test_tables_match_reference(small_sweep):
    work, _, orders = small_sweep
    runs = expected_runs([(5, 5), (3, 7)], orders)
    tables = {
        n: pl.read_parquet(work / f"results/tables/{n}.parquet")
        for n in ("completion", "orders", "starts", "classes", "ends")
    }
    for n in tables:
        assert (work / f"results/tables/{n}.csv").exists()

    comp = {(d["rows"], d["cols"]): d for d in tables["completion"].to_dicts()}
    for key, group in itertools.groupby(runs, key=lambda d: (d["rows"], d["cols"])):
        group = list(group)
        done = sum(d["complete"] for d in group)
        assert comp[key]["runs"] == len(group) and comp[key]["complete"] == done
        assert comp[key]["closed"] == sum(d["closed"] for d in group)
        assert comp[key]["completion_rate"] == pytest.approx(done / len(group))

    per_order = defaultdict(Counter)
    per_start = defaultdict(Counter)
    per_end = defaultdict(Counter)
    for d in runs:
        k = (d["rows"], d["cols"])
        per_order[k + (d["order"],)].update(starts=1, complete=d["complete"], closed=d["closed"])
        per_start[k + (d["start"],)].update(
            orders=1, complete=d["complete"], closed=d["closed"], failing=not d["complete"]
        )
        if d["complete"]:
            per_end[k + (d["end"],)].update(complete=1, closed=d["closed"])
    for row in tables["orders"].to_dicts():
        c = per_order[(row["rows"], row["cols"], row["order"])]
        assert (row["starts"], row["complete"], row["closed"]) == (c["starts"], c["complete"], c["closed"])
        assert row["order_string"] == ORDER_STRINGS[row["order"]]
        assert row["complete_all"] == (c["complete"] == c["starts"])
        assert row["class_id"] == naive_class_id(row["order_string"], row["rows"] == row["cols"])[0]
    assert tables["orders"].height == 2 * len(orders)
    for row in tables["starts"].to_dicts():
        c = per_start[(row["rows"], row["cols"], row["start"])]
        assert (row["orders"], row["complete"], row["failing"], row["closed"]) == (
            c["orders"],
            c["complete"],
            c["failing"],
            c["closed"],
        )
        assert (row["row"] - 1) * row["cols"] + row["col"] - 1 == row["start"]
    assert tables["starts"].height == 25 + 21
    assert tables["ends"].height == 25 + 21
    for row in tables["ends"].to_dicts():
        c = per_end[(row["rows"], row["cols"], row["end"])]
        assert (row["complete"], row["closed"]) == (c["complete"], c["closed"])
    classes = tables["classes"]
    assert classes["agree"].all()
    assert classes["size"].sum() == 2 * len(orders)
    c5 = classes.filter((pl.col("rows") == 5) & (pl.col("class_id") == 0)).row(0, named=True)
    assert c5["members"] == "12345678 87654321"  # 87654321 is the half-turn... image under the board group
    assert c5["size"] == 2


def test_rerun_has_nothing_to_do(repo, small_sweep):
    work, cfg, _ = small_sweep
    res = snakemake(repo, work, cfg, "--dry-run")
    assert res.returncode == 0
    assert "Nothing to be done" in res.stdout + res.stderr


def test_census_stage_sealed_and_complete(repo, small_sweep):
    """The census on the small study: its totals against the naive reference, every file
    sealed with the inputs it was made from, nothing to do on a rerun."""
    from knight.core import seal

    work, cfg, orders = small_sweep
    res = snakemake(repo, work, cfg, target="census")
    assert res.returncode == 0, res.stderr[-3000:]
    out = work / "results" / "census"
    boards = pl.read_parquet(out / "boards.parquet")
    for (r, c), got in zip([(3, 7), (5, 5)], boards.iter_rows(named=True)):
        want = expected_runs([(r, c)], orders)
        assert (got["rows"], got["cols"], got["runs"]) == (r, c, len(want))
        assert got["complete"] == sum(w["complete"] for w in want)
        assert got["closed"] == sum(w["closed"] for w in want)
    made = sorted(p for p in out.rglob("*") if p.is_file() and not p.name.startswith("."))
    assert len(made) == 2 * 3 + 2 * 3 + 2  # parts of two boards, three tables (+ CSV), page, check
    for path in made:
        seal.check(path)
    assert "| 5x5 | 650 | 0 | - | - |" in (out / "check.md").read_text()  # some orders only: no totals
    res = snakemake(repo, work, cfg, "--dry-run", target="census")
    assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr

    # What each result was made from, for the start-up check to remove it with a damaged
    # input (tests/faults prove that chain on the other stages' results).
    sources = seal.read_seal(out / "boards.parquet")["from"]
    assert {f"results/census/boards/{b}/summary.parquet" for b in ("5x5", "3x7")} <= set(sources)
    assert "results/runs/board=5x5/_manifest.json" in seal.read_seal(out / "check.md")["from"]


def test_adding_a_board_runs_only_its_jobs(repo, small_sweep):
    work, cfg, orders = small_sweep
    before = {p: p.stat().st_mtime_ns for p in (work / "results").rglob("*.parquet")}
    # the same orders in another order and repeated: nothing changes for 5x5 and 3x7
    cfg2 = write_config(
        work / "cfg2.yaml", {"boards": [5, "3x7", 4], "orders": orders[::-1] + orders[:3], "chunk_runs": 200}
    )
    res = snakemake(repo, work, cfg2)
    assert res.returncode == 0, res.stderr[-3000:]
    after = {p: p.stat().st_mtime_ns for p in (work / "results").rglob("*.parquet")}
    changed = {p.relative_to(work / "results").as_posix() for p in after if before.get(p) != after[p]}
    assert changed, "the new board produced nothing"
    for path in changed:
        assert ("4x4" in path) or path.startswith("tables/") and path.count("/") == 1, path
    assert not any("5x5" in p or "3x7" in p for p in changed)
    comp = pl.read_parquet(work / "results/tables/completion.parquet")
    assert sorted(zip(comp["rows"], comp["cols"])) == [(3, 7), (4, 4), (5, 5)]


@pytest.mark.parametrize("engine", ENGINES)
def test_full_sweep_published_totals(repo, tmp_path, engine):
    cfg = write_config(tmp_path / "cfg.yaml", {"boards": [5, 6], "engine": engine})
    res = snakemake(repo, tmp_path, cfg)
    assert res.returncode == 0, res.stderr[-3000:]
    comp = pl.read_csv(tmp_path / "results/tables/completion.csv")
    assert comp.select("rows", "cols", "runs", "complete", "closed").rows() == [
        (5, 5, 1_008_000, 376_320, 0),
        (6, 6, 1_451_520, 1_431_808, 182_448),
    ]
    assert pl.read_parquet(tmp_path / "results/tables/classes.parquet")["size"].unique().to_list() == [8]


BAD = [
    ({"sweep": {"boards": [2]}}, "sweep.boards[0]: 2: a board needs both sides at least 3"),
    ({"sweep": {"boards": ["3x2"]}}, "sweep.boards[0]: '3x2'"),
    ({"sweep": {"boards": [5], "orders": ["12345677"]}}, "sweep.orders[0]: '12345677': not a permutation"),
    ({"sweep": {"boards": [5, 8], "starts": [[1, 1], [6, 2]]}}, "sweep.starts[1]: [6, 2]: off the 5x5 board"),
    ({"sweep": {"boards": [5]}, "dask": {"workers": 0}}, "dask.workers: 0"),
    ({"sweep": {"boards": [5]}, "colour": "blue"}, "config key colour: unknown key"),
    ({"sweep": {"boards": [5], "chunk": 3}}, "config key sweep.chunk: unknown key"),
]


@pytest.mark.parametrize("cfg, message", BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_bad_config_stops_before_any_job(repo, tmp_path, cfg, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(cfg))
    res = snakemake(repo, tmp_path, path)
    assert res.returncode != 0
    assert message in res.stderr + res.stdout
    assert not (tmp_path / "results").exists()
