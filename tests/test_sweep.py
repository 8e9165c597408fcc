import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from naive import ORDER_STRINGS
from naive import outcome as naive_outcome

from knight.cli import main as knight_main
from knight.core.board import Board, parse_starts
from knight.core.io import write_parquet
from knight.core.orders import rank
from knight.engine.runs_table import RUNS_SCHEMA
from knight.runtime.cluster import dask_client
from knight.sweep.chunks import run_chunk
from knight.sweep.driver import sweep
from knight.sweep.spec import SweepSpec, chunk_tasks, n_chunks


@pytest.mark.parametrize("rows, cols, chunk_runs", [(8, 8, 1_000_000), (7, 7, 300_000), (3, 7, 1), (6, 8, 500_000)])
def test_chunks_partition_the_starts(rows, cols, chunk_runs):
    spec = SweepSpec(Board(rows, cols), chunk_runs=chunk_runs)
    seen = [s for chunk in spec.chunks() for orbit in chunk for s in orbit.tolist()]
    assert sorted(seen) == list(range(rows * cols))
    for chunk in spec.chunks():
        runs = sum(len(o) for o in chunk) * 40320
        assert runs <= max(chunk_runs, max(len(o) for o in chunk) * 40320)


def test_orbits_are_symmetry_orbits():
    spec = SweepSpec(Board(8, 8))
    orbits = spec.orbits()
    assert sorted(len(o) for o in orbits) == [4] * 4 + [8] * 6  # 4 diagonal orbits, 6 others
    assert [0, 7, 56, 63] in [o.tolist() for o in orbits]


def test_start_subset_keeps_only_chosen_starts():
    board = Board(6, 6)
    spec = SweepSpec(board, starts=parse_starts(board, [[1, 1], [6, 6], [2, 3]]), ranks=[0, 5])
    seen = sorted(s for c in spec.chunks() for o in c for s in o.tolist())
    assert seen == [0, 8, 35]


def test_chunk_on_dask_equals_reference():
    board = Board(5, 6)
    ranks = np.array(sorted({rank("12345678"), rank("87654321"), 1234, 20000, 39999}))
    spec = SweepSpec(board, ranks=ranks, chunk_runs=40, engine="brute")
    assert n_chunks(spec) > 1
    with dask_client(2) as client:
        tables = [run_chunk(spec, k, client=client).table for k in range(n_chunks(spec))]
    table = pa.concat_tables(tables)
    assert table.schema == RUNS_SCHEMA
    got = {
        (r["start"], r["order"]): (r["visited"], r["end"], r["complete"], r["closed"], r["ties"])
        for r in table.to_pylist()
    }
    assert len(got) == 30 * len(ranks)
    for (s, o), have in got.items():
        assert have == naive_outcome(5, 6, s, ORDER_STRINGS[o])


def test_a_closing_local_cluster_logs_no_tracebacks():
    """A local cluster's connections, closing, log ``CommClosedError`` tracebacks at INFO
    (distributed.batched, "Batched Comm Closed"): a CI run found one in a finished job's log.
    The client holds the ``distributed`` logger at ERROR until the cluster has closed."""
    import logging

    records = []
    catch = logging.Handler(logging.DEBUG)
    catch.emit = records.append
    root, dist = logging.getLogger(), logging.getLogger("distributed")
    root.addHandler(catch)
    before = dist.level
    dist.setLevel(logging.INFO)  # what distributed's own logging config sets
    try:
        with dask_client(2) as client:
            assert client.submit(sum, [1, 2]).result() == 3
            try:
                raise ConnectionError("closed")
            except ConnectionError:  # the record such a closing comm writes
                logging.getLogger("distributed.batched").info("Batched Comm Closed", exc_info=True)
        assert dist.level == logging.INFO  # given back once the cluster is closed
    finally:
        root.removeHandler(catch)
        dist.setLevel(before)
    noisy = [r for r in records if r.name.startswith("distributed") and r.levelno < logging.ERROR]
    assert noisy == []


def test_a_closing_local_cluster_drops_only_its_timed_out_wait():
    """A 27-chunk claims study logged, once, after a chunk's finished work: ``ERROR
    asyncio: Future exception was never retrieved`` with ``TimeoutError: Timeout`` (a
    closing cluster's wait, collected later). That record is dropped; asyncio's others,
    another exception never retrieved included, are not."""
    import asyncio
    import gc
    import logging

    records = []
    catch = logging.Handler(logging.DEBUG)
    catch.emit = records.append
    root = logging.getLogger()
    root.addHandler(catch)
    try:
        with dask_client(1) as client:
            assert client.submit(sum, [1, 2]).result() == 3
        loop = asyncio.new_event_loop()
        try:
            for exc in (TimeoutError("Timeout"), ValueError("Timeout"), TimeoutError("read")):
                fut = loop.create_future()
                fut.set_exception(exc)
                del fut  # never retrieved: asyncio logs it when the future is collected
        finally:
            loop.close()
        gc.collect()
    finally:
        root.removeHandler(catch)
    kept = [r.exc_info[1] for r in records if r.name == "asyncio" and "never retrieved" in str(r.msg)]
    assert [(type(e).__name__, str(e)) for e in kept] == [("ValueError", "Timeout"), ("TimeoutError", "read")]


def test_brute_tasks_are_single_starts():
    spec = SweepSpec(Board(8, 8), engine="brute")
    assert all(len(t) == 1 for t in chunk_tasks(spec, 0))


def test_sweep_through_an_existing_scheduler(tmp_path, capsys):
    """`knight sweep --scheduler ADDRESS` sends its tasks to a running cluster."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        code = knight_main(
            ["sweep", "5", "--engine", "brute", "--scheduler", cluster.scheduler_address, "--out", str(tmp_path)]
        )
    out = capsys.readouterr().out
    assert code == 0
    assert "runs      1008000" in out and "complete  376320" in out and "closed    0" in out
    runs = pl.scan_parquet(str(tmp_path / "**/*.parquet"), hive_partitioning=True).collect()
    assert runs.height == 1_008_000 and set(runs["board"]) == {"5x5"}
    assert runs["complete"].sum() == 376_320


def test_sweep_cli_rejects_bad_board(capsys):
    assert knight_main(["sweep", "2x8"]) == 2
    assert "2x8" in capsys.readouterr().err
    assert knight_main(["sweep", "8", "--orders", "12345677"]) == 2
    assert "12345677" in capsys.readouterr().err


def test_in_process_sweep_summary():
    spec = SweepSpec(Board(3, 4), engine="brute")
    s = sweep(spec)
    assert s.runs == 12 * 40320
    assert s.files == []


def test_atomic_write_leaves_nothing_on_failure(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    from knight.core import seal

    target = tmp_path / "x.parquet"
    write_parquet(pa.table({"a": [1]}), target)
    before = target.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(pq, "write_table", boom)
    with pytest.raises(OSError):
        write_parquet(pa.table({"a": [2]}), target)
    assert target.read_bytes() == before  # the old file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == [".x.parquet.seal", "x.parquet"]  # no temporary left
    seal.check(target)  # and the old file's seal still vouches for it


def test_local_cluster_ignores_a_small_memory_limit():
    """A Slurm job's --mem reaches Dask as RLIMIT_RSS; thread workers of one process must not
    pause on it (a 2-thread sweep job with --mem=360M waited for ever)."""
    import subprocess
    import sys

    code = """
import resource
resource.setrlimit(resource.RLIMIT_RSS, (300 * 2**20, resource.getrlimit(resource.RLIMIT_RSS)[1]))
from knight.core.board import Board, parse_starts
from knight.runtime.cluster import dask_client
from knight.sweep.spec import SweepSpec
from knight.sweep.chunks import run_chunk
with dask_client(2) as client:
    limits = client.run(lambda dask_worker: dask_worker.memory_manager.memory_limit)
    print(sorted(set(map(str, limits.values()))))
    print(run_chunk(SweepSpec(Board(6, 6), engine="brute"), 0, client=client).table.num_rows)
"""
    try:
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the sweep waited for ever: Dask paused its workers") from None
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["['None']", "1451520"], res.stdout


def test_table_sorts_start_blocks_from_parts_in_any_order():
    """Parts of whole starts, given in any order, make one table sorted by (start, order)."""
    from knight.engine.rows import orbit_rows
    from knight.engine.runs_table import to_table

    board = Board(6, 6)
    ranks = np.array([3, 70, 5000, 40000])
    spec = SweepSpec(board, ranks=ranks)
    parts = [orbit_rows(board, orbit, ranks, "tree") for orbit in spec.orbits()][::-1]
    table = to_table(board, parts, len(ranks))
    start = table.column("start").to_numpy().astype(np.int64)
    order = table.column("order").to_numpy().astype(np.int64)
    assert np.array_equal(start, np.repeat(np.arange(36), 4)) and np.array_equal(order, np.tile(ranks, 36))
    want = {(int(s), int(o)): naive_outcome(6, 6, int(s), ORDER_STRINGS[o]) for s, o in zip(start[::7], order[::7])}
    rows = table.to_pylist()
    for i in range(0, len(rows), 7):
        r = rows[i]
        assert (r["visited"], r["end"], r["complete"], r["closed"], r["ties"]) == want[(r["start"], r["order"])]


@pytest.mark.parametrize("ranks", [None, np.array([3, 70, 5000, 40000])])
def test_runs_file_bytes_do_not_depend_on_the_tables_chunks(tmp_path, ranks):
    """A runs table whose columns are views of the tasks' arrays (every order) or joined
    copies (a few orders) writes the same Parquet bytes as the same rows in one
    contiguous array per column, and reads back as those rows."""
    import pyarrow.parquet as pq

    from knight.engine.rows import orbit_rows
    from knight.engine.runs_table import RUNS_PARQUET, to_table

    board = Board(6, 6)
    spec = SweepSpec(board, ranks=ranks)
    parts = [orbit_rows(board, orbit, spec.ranks, "tree") for orbit in spec.orbits()][::-1]
    table = to_table(board, parts, len(spec.ranks))
    per = len(spec.ranks)
    start = table.column("start").to_numpy().astype(np.int64)
    order = table.column("order").to_numpy().astype(np.int64)
    assert np.array_equal(start, np.repeat(np.arange(36), per)) and np.array_equal(order, np.tile(spec.ranks, 36))
    chunks = table.column("end").num_chunks
    assert chunks == (36 if ranks is None else 1)
    plain = table.combine_chunks()
    assert plain.column("end").num_chunks == 1
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(table, a, **RUNS_PARQUET)
    pq.write_table(plain, b, **RUNS_PARQUET)
    assert a.read_bytes() == b.read_bytes()
    assert pq.read_table(a).equals(plain)


def test_runs_table_needs_no_pandas_and_refuses_values_that_do_not_fit():
    """The runs table is built from buffers (``pa.array`` would import pandas, 0.2 s of
    every job); a task's column of another dtype is cast only when its values fit."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from knight.core.board import Board\n"
        "from knight.sweep.spec import SweepSpec\nfrom knight.engine.rows import orbit_rows\n"
        "from knight.engine.runs_table import to_table\n"
        "spec = SweepSpec(Board(5, 5))\n"
        "parts = [orbit_rows(spec.board, o, spec.ranks, 'tree') for o in spec.orbits()]\n"
        "assert 'pandas' not in sys.modules, 'imported before the table'\n"
        "table = to_table(spec.board, parts, len(spec.ranks))\n"
        "print(table.num_rows, 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1008000", "False"]

    from knight.engine.runs_table import RUNS_SCHEMA, _arrow

    end = RUNS_SCHEMA.field("end")
    assert _arrow(np.array([3, 7], np.int64), end).to_pylist() == [3, 7]
    with pytest.raises(ValueError, match="runs column end: values do not fit uint32"):
        _arrow(np.array([3, -1], np.int64), end)
    assert _arrow(np.array([True, False, True]), RUNS_SCHEMA.field("closed")).to_pylist() == [True, False, True]


# --- the aggregates never mix boards ---------------------------------------------------


@pytest.fixture(scope="module")
def two_boards():
    """Runs of 5x5 and 3x7 (one order each) in one frame, and each board's runs alone."""
    import knight

    alone = {name: knight.sweep.run(name, orders=["12345678", "87654321"]) for name in ("5x5", "3x7")}
    return pl.concat(list(alone.values())), alone


@pytest.mark.parametrize("board", [Board(3, 7), "3x7", " 3 x 7 "])
def test_orders_of_one_board_of_several_equal_that_board_alone(two_boards, board):
    from knight.sweep import tables

    both, alone = two_boards
    assert tables.orders(both, board=board).equals(tables.orders(alone["3x7"]))
    assert tables.ends(both, board=board).equals(tables.ends(alone["3x7"]))
    lazy = tables.orders(both.lazy(), board=board)
    assert isinstance(lazy, pl.LazyFrame) and lazy.collect().equals(tables.orders(alone["3x7"]))


def test_a_square_board_may_be_named_by_its_side(two_boards):
    from knight.sweep import tables

    both, alone = two_boards
    for board in (5, "5", "5x5", Board(5, 5)):
        assert tables.orders(both, board=board).equals(tables.orders(alone["5x5"]))
    got = tables.board_tables(both, 5, check_classes=False)
    want = tables.board_tables(alone["5x5"], Board(5, 5), check_classes=False)
    assert all(got[name].equals(want[name]) for name in tables.TABLES)


def test_several_boards_without_board_are_refused_in_one_line(two_boards):
    from knight.sweep import tables

    both, _ = two_boards
    for fn in (tables.orders, tables.ends, tables.one_board):
        with pytest.raises(ValueError) as err:
            fn(both.lazy())
        assert str(err.value) == ("runs hold boards 3x7, 5x5: give board= one of them, or filter the runs to one board")
    with pytest.raises(ValueError, match="^runs hold no rows: there is no board to count$"):
        tables.orders(both.head(0))


@pytest.mark.parametrize("board", [8, "8x8", Board(8, 8)])
def test_a_board_not_in_the_runs_is_refused_naming_both(two_boards, board):
    from knight.sweep import tables

    both, _ = two_boards
    for fn in (tables.orders, tables.ends, tables.board_tables):
        with pytest.raises(ValueError) as err:
            fn(both, board)
        assert str(err.value) == "board 8x8 is not in the runs, which hold 3x7, 5x5"
    with pytest.raises(ValueError, match=r"^board 'eight' is not N or RxC"):
        tables.orders(both, board="eight")


def test_boards_are_grouped_where_a_table_spans_them(two_boards):
    from knight.sweep import tables

    both, alone = two_boards
    for fn in (tables.completion, tables.starts):
        assert fn(both).equals(pl.concat([fn(alone["3x7"]), fn(alone["5x5"])]))
    orders = pl.concat([tables.orders(alone["3x7"]), tables.orders(alone["5x5"])])
    assert tables.classes(orders).equals(
        pl.concat([tables.classes(tables.orders(r)) for r in alone.values()]).sort("rows", "cols", "class_id")
    )


def test_a_table_given_the_wrong_frame_says_what_it_needs(two_boards):
    import knight
    from knight.sweep import tables

    both, _ = two_boards
    with pytest.raises(ValueError) as err:
        tables.classes(both.lazy())
    assert str(err.value) == (
        "classes needs the table of orders(runs), one row per order, not runs: call classes(orders(runs))"
    )
    order_table = tables.orders(both, board=5)
    with pytest.raises(ValueError, match="^starts needs a runs table: the frame has no columns start, end "):
        tables.starts(order_table)
    with pytest.raises(ValueError, match="^the table needs a runs table: the frame has no columns start, end"):
        tables.orders(order_table)  # would count each order once
    lazy = both.lazy()
    with pytest.raises(
        ValueError, match="^completion needs the rules stage's runs: the frame has no columns rule, attempts"
    ):
        knight.rules.tables.completion(lazy)
    with pytest.raises(
        ValueError, match="^times needs the rules stage's times table: the frame has no columns rule, runs"
    ):
        knight.rules.tables.times(lazy)


@pytest.mark.parametrize(
    ("given", "key", "words"),
    [
        ({"starts": []}, "starts", "at least one start"),
        ({"starts": [25]}, "starts", "start square 25 is off the 5x5 board"),
        ({"ranks": [40320]}, "ranks", "order rank 40320 is outside 0..40319"),
        ({"rule": "random"}, "rule", "takes one of fixed, pohl, roth, corner"),
        ({"chunk_runs": 0}, "chunk_runs", "at least 1, got 0"),
        ({"engine": "fast"}, "engine", "engine 'fast' is not one of brute, tree"),
    ],
)
def test_a_bad_sweep_is_refused_with_one_error_type_naming_its_field(given, key, words):
    from knight.core.checks import SettingError

    with pytest.raises(SettingError, match=words) as err:
        SweepSpec(Board(5, 5), **given)
    assert err.value.key == key
