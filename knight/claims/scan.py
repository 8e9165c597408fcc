"""First failures: for each tie order, the first board of a sequence on which a rule
under that order does not complete a tour from (1, 1).

The scan walks the boards in turn with the tie tree (:func:`knight.engine.tree.search`),
each time over only the orders that have not failed yet (the *survivors*), so the work
shrinks as orders drop out. The tree reserves address space for a copy of the padded
board per square (about N^4 bytes on N x N; memory only for the copies it makes); above
:data:`TREE_BYTES` of it, or when at most :data:`PAIR_RANKS` orders are left (their paths
share too little to pay for the tree's bookkeeping), the survivors are walked one by one
by the brute-force pair kernel (:func:`knight.engine.walk.pair_outcomes`), which gives
the same rows. On a square board an order and its mirror image in the diagonal reach
the same squares from (1, 1), so only one order of each such pair is walked
(:func:`mirror_halves`). A scan of
many orders is cut into *slices* of ranks, one job each; a slice's rows depend only on
its ranks, never on how the work is split.

An *every-board* scan (``every_board``) walks every board for every order instead, and
tallies the boards each order fails on (:func:`failures_every_board`); its orders can be
picked from another scan (``of``) when the job runs, from that scan's stored table
(:func:`pick_orders`): the ``longest`` K orders, those that complete the most boards
before they first fail, or those whose ``first_failure`` is a given board.

>>> import numpy as np
>>> from knight.core.board import Board
>>> rows = first_failures("roth", [Board(n, n) for n in range(5, 13)], np.arange(40320))
>>> first, count = np.unique(rows["first_rows"], return_counts=True)
>>> dict(zip(first.tolist(), count.tolist()))  # 0: completes on every board
{0: 20728, 7: 18816, 11: 776}
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from knight.core.board import Board, parse_board, parse_boards
from knight.core.checks import SettingError
from knight.core.orders import N_ORDERS
from knight.engine.layout import padded_size
from knight.engine.tiebreak import ORDER_RULES
from knight.runtime.tasks import run_tasks

#: Columns of a scan's table: one row per rank; ``first_rows`` x ``first_cols`` is the
#: first failing board (null: none of the boards tested), ``visited`` the squares
#: reached there, ``boards`` how many boards the order completed before.
SCHEMA = pa.schema(
    [
        ("order", pa.uint16()),
        ("first_rows", pa.uint32()),
        ("first_cols", pa.uint32()),
        ("visited", pa.uint64()),
        ("boards", pa.uint32()),
    ]
)


#: Columns of an every-board scan's table: one row per rank; ``tested``: boards walked,
#: ``failures`` among them, the first failing board (null: none) and the failing boards
#: in scan order with the squares reached on each.
EVERY_SCHEMA = pa.schema(
    [
        ("order", pa.uint16()),
        ("tested", pa.uint32()),
        ("failures", pa.uint32()),
        ("first_rows", pa.uint32()),
        ("first_cols", pa.uint32()),
        ("failed_rows", pa.list_(pa.uint32())),
        ("failed_cols", pa.list_(pa.uint32())),
        ("failed_visited", pa.list_(pa.uint64())),
    ]
)


#: Largest reservation of one lane of the tie tree (board squares x padded cells, bytes:
#: 2,000 x 2,000 reserves 1.6e13 of address space a lane; constraint mode has two lanes,
#: still a fraction of the 1.4e14 a process can address) a scan makes; above it, brute force.
TREE_BYTES = 2**44
#: At most this many orders are walked one by one, not by the tree: for a few orders the
#: pair kernel beats the tree, which pays for its frames only when many orders share a
#: path (where the two cross: ``benchmarks/bench_tree.py --pairs``, docs/performance.md).
PAIR_RANKS = 16


def scan_boards(spec) -> list[Board]:
    """The boards of a scan, in scan order: a list or ``{from, to}`` range of N x N boards
    (:func:`knight.core.board.parse_boards`), or ``{from, to, rectangles: true}``: every
    R x C with from <= R, C <= to, by squares, then rows.

    >>> [b.name for b in scan_boards({"from": 3, "to": 4, "rectangles": True})]
    ['3x3', '3x4', '4x3', '4x4']
    """
    if isinstance(spec, Mapping) and spec.get("rectangles"):
        sides = [b.rows for b in parse_boards({k: v for k, v in spec.items() if k != "rectangles"})]
        return sorted((Board(r, c) for r in sides for c in sides), key=lambda b: (b.size, b.rows))
    return parse_boards(spec)


def first_failures(
    rule: str,
    boards: Sequence[Board],
    ranks: np.ndarray,
    progress=None,
    tree_bytes: int = TREE_BYTES,
    *,
    client=None,
) -> dict[str, np.ndarray]:
    """For each tie order, the first board on which a rule under it does not complete a tour from (1, 1).

    Each board is one task: its orders are those still completing on the boards before it.

    Parameters
    ----------
    rule : str
        The tie-break rule whose residual ties the orders break: ``fixed``, ``pohl``,
        ``roth`` or ``corner``.
    boards : Sequence of Board
        The boards, in scan order.
    ranks : ArrayLike of int
        Tie order ranks (0 to 40,319); repeats are dropped, the rows are by rank.
    progress : knight.runtime.progress.Progress or None
        Advanced once per board; None for no progress.
    tree_bytes : int
        Boards whose tie tree would reserve more address space than this (bytes) are walked
        by brute force (same rows).
    client : distributed.Client or None
        A Dask client to run the tasks on; None runs them in this thread.

    Returns
    -------
    dict of str to numpy.ndarray
        ``order`` (ranks), ``first_rows`` and ``first_cols`` (the first failing board; 0:
        no failure), ``visited`` (squares reached on it; 0: none), ``boards`` (boards
        completed before it), and one-element ``steps`` (knight steps walked) and ``seconds``.

    Raises
    ------
    ValueError
        A rule other than the four.

    See Also
    --------
    failures_every_board, longest_lasting, to_table
    """
    if rule not in ORDER_RULES:
        raise ValueError(f"rule: {rule!r}: first failures are scanned for {', '.join(ORDER_RULES)}")
    ranks = np.unique(np.asarray(ranks, np.int64))
    n = len(ranks)
    out = {
        "order": ranks.astype(np.uint16),
        "first_rows": np.zeros(n, np.uint32),
        "first_cols": np.zeros(n, np.uint32),
        "visited": np.zeros(n, np.uint64),
        "boards": np.zeros(n, np.uint32),
    }
    alive = np.arange(n)
    steps, t0 = 0, time.perf_counter()
    for board in boards:
        if len(alive) == 0:
            break
        [(visited, walked)] = run_tasks(_visited, [(rule, board, ranks[alive], tree_bytes)], client=client)
        steps += walked
        fail = visited < board.size
        dead = alive[fail]
        out["first_rows"][dead] = board.rows
        out["first_cols"][dead] = board.cols
        out["visited"][dead] = visited[fail]
        alive = alive[~fail]
        out["boards"][alive] += 1
        if progress is not None:
            progress.update(1)
    out["steps"] = np.array([steps], np.int64)
    out["seconds"] = np.array([time.perf_counter() - t0])
    return out


def mirror_halves(board: Board, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """On a square board, the run from (1, 1) under an order is the mirror image (in the
    diagonal) of the run under the order with every move mirrored, and the first step
    ties the corner's two moves, a mirror pair. So one walk serves both orders of a pair:
    of each, the one that ranks the pair's first move first. Returns (the ranks to walk,
    the index into them of each of ``ranks``), or None on a board without that mirror.

    >>> walk, index = mirror_halves(Board(8, 8), np.array([0, 40319]))  # a mirror pair
    >>> walk.tolist(), index.tolist()
    ([0], [0, 0])
    """
    from knight.core.orders import priorities
    from knight.core.symmetry import fixing_mirror, order_images

    mirror = fixing_mirror(board, 0)
    if mirror is None:
        return None
    g, sigma = mirror
    first = [m for m in range(8) if m < sigma[m] and _on_board(board, m)]
    if len(first) != 1 or not _on_board(board, int(sigma[first[0]])):
        return None
    a, b = first[0], int(sigma[first[0]])
    prio = priorities()[ranks]
    keep = prio[:, a] < prio[:, b]
    walk, index = np.unique(np.where(keep, ranks, order_images(board)[g][ranks]), return_inverse=True)
    return walk, index.reshape(-1)


def _on_board(board: Board, move: int) -> bool:
    """Whether ``move`` (0-based) from (1, 1) lands on the board."""
    from knight.core.board import MOVES

    dr, dc = MOVES[move]
    return 0 <= dr < board.rows and 0 <= dc < board.cols


def _visited(rule: str, board: Board, ranks: np.ndarray, tree_bytes: int) -> tuple[np.ndarray, int]:
    """Squares visited from (1, 1) under each of ``ranks`` (tie tree, or brute force past
    ``tree_bytes`` or for at most :data:`PAIR_RANKS` ranks; one walk for each mirror pair
    of orders, :func:`mirror_halves`), and the knight steps walked."""
    halves = mirror_halves(board, ranks)
    if halves is not None and len(halves[0]) < len(ranks):
        visited, steps = _walk_ranks(rule, board, halves[0], tree_bytes)
        return visited[halves[1]], steps
    return _walk_ranks(rule, board, ranks, tree_bytes)


def _walk_ranks(rule: str, board: Board, ranks: np.ndarray, tree_bytes: int) -> tuple[np.ndarray, int]:
    from knight.engine.tree import search
    from knight.engine.walk import pair_outcomes

    if len(ranks) > PAIR_RANKS and board.size * padded_size(board.rows, board.cols) <= tree_bytes:
        res = search(board, 0, ranks, rule=rule)
        return res["visited"][res["leaf_of"][ranks]], res["steps"]
    res = pair_outcomes(board, rule, np.zeros(len(ranks), np.int64), ranks)
    return res["visited"], int(res["steps"][0])


def failures_every_board(
    rule: str,
    boards: Sequence[Board],
    ranks: np.ndarray,
    progress=None,
    tree_bytes: int = TREE_BYTES,
    *,
    client=None,
    workers: int = 1,
) -> dict:
    """For each tie order, every board on which a rule under it fails from (1, 1).

    Every board is walked for every order, failed or not, each board one task.

    Parameters
    ----------
    rule : str
        The tie-break rule whose residual ties the orders break: ``fixed``, ``pohl``,
        ``roth`` or ``corner``.
    boards : Sequence of Board
        The boards, in scan order.
    ranks : ArrayLike of int
        Tie order ranks (0 to 40,319); repeats are dropped, the rows are by rank.
    progress : knight.runtime.progress.Progress or None
        Advanced once per board; None for no progress.
    tree_bytes : int
        Boards whose tie tree would reserve more address space than this (bytes) are walked
        by brute force (same rows).
    client : distributed.Client or None
        A Dask client to run the tasks on.
    workers : int
        Local threads to run the tasks on without ``client``.

    Returns
    -------
    dict
        ``order``, ``tested`` (boards), ``failures``, ``first_rows`` and ``first_cols``
        (0: none) as arrays; per order the lists ``failed_rows``, ``failed_cols`` and
        ``failed_visited`` (scan order); one-element ``steps`` and ``seconds``.

    Raises
    ------
    ValueError
        A rule other than the four.

    See Also
    --------
    first_failures, to_table

    Examples
    --------
    >>> from knight.core.board import Board
    >>> rows = failures_every_board("roth", [Board(n, n) for n in range(5, 16)], [1191])
    >>> rows["failures"].tolist(), rows["failed_rows"], rows["failed_visited"]
    ([2], [[7, 11]], [[33, 117]])
    """
    if rule not in ORDER_RULES:
        raise ValueError(f"rule: {rule!r}: failures are tallied for {', '.join(ORDER_RULES)}")
    ranks = np.unique(np.asarray(ranks, np.int64))
    failed: list[list[tuple[int, int, int]]] = [[] for _ in ranks]
    steps, t0 = 0, time.perf_counter()
    tasks = [(rule, board, ranks, tree_bytes) for board in boards] if len(ranks) else []
    for board, (visited, walked) in zip(
        boards, run_tasks(_visited, tasks, client=client, workers=workers, progress=progress)
    ):
        steps += walked
        for i in np.flatnonzero(visited < board.size):
            failed[i].append((board.rows, board.cols, int(visited[i])))
    first = [f[0] if f else (0, 0, 0) for f in failed]
    return {
        "order": ranks.astype(np.uint16),
        "tested": np.full(len(ranks), len(boards), np.uint32),
        "failures": np.array([len(f) for f in failed], np.uint32),
        "first_rows": np.array([f[0] for f in first], np.uint32),
        "first_cols": np.array([f[1] for f in first], np.uint32),
        "failed_rows": [[r for r, _, _ in f] for f in failed],
        "failed_cols": [[c for _, c, _ in f] for f in failed],
        "failed_visited": [[v for _, _, v in f] for f in failed],
        "steps": np.array([steps], np.int64),
        "seconds": np.array([time.perf_counter() - t0]),
    }


def longest_lasting(table, k: int) -> np.ndarray:
    """The tie orders of a first-failure scan that complete the most boards before they first fail.

    Parameters
    ----------
    table : polars.DataFrame or Mapping
        A first-failure scan's table (:func:`to_table`), with ``order`` and ``boards``.
    k : int
        How many orders.

    Returns
    -------
    numpy.ndarray
        ``int64[k]``: their ranks, ascending (those that never fail first; ties by rank).

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.DataFrame({"order": [0, 1, 2, 3], "first_rows": [5, None, 9, 9], "boards": [0, 6, 4, 4]})
    >>> longest_lasting(t, 2).tolist()
    [1, 2]
    """
    import polars as pl

    frame = pl.DataFrame(table) if not isinstance(table, pl.DataFrame) else table
    best = frame.sort(["boards", "order"], descending=[True, False]).head(k)
    return np.sort(best["order"].to_numpy().astype(np.int64))


def pick_orders(table, longest: int | None = None, first_failure: str | None = None) -> np.ndarray:
    """Ranks of a first-failure scan's table: its ``longest`` K (:func:`longest_lasting`),
    or those that first fail on the board named ``first_failure`` (``"428x428"``); sorted.

    >>> import polars as pl
    >>> first = [7, None, 7]
    >>> t = pl.DataFrame({"order": [0, 1, 2], "first_rows": first, "first_cols": first, "boards": [2, 6, 2]})
    >>> pick_orders(t, first_failure="7x7").tolist(), pick_orders(t, longest=1).tolist()
    ([0, 2], [1])
    """
    import polars as pl

    frame = pl.DataFrame(table) if not isinstance(table, pl.DataFrame) else table
    if first_failure is None:
        return longest_lasting(frame, int(longest))
    rows, cols = parse_board(first_failure).rows, parse_board(first_failure).cols
    at = frame.filter((pl.col("first_rows") == rows) & (pl.col("first_cols") == cols))
    return np.sort(at["order"].to_numpy().astype(np.int64))


def to_table(rows: Mapping[str, np.ndarray]) -> pa.Table:
    """A scan's rows as an Arrow table.

    Parameters
    ----------
    rows : Mapping of str to numpy.ndarray
        Rows of :func:`first_failures` or :func:`failures_every_board`.

    Returns
    -------
    pyarrow.Table
        Columns ``order, first_rows, first_cols, visited, boards`` (first failures), or
        ``order, tested, failures, first_rows, first_cols, failed_rows, failed_cols,
        failed_visited`` (every board); ``first_rows``, ``first_cols`` (and ``visited``) null
        where an order never failed.

    Examples
    --------
    >>> from knight.core.board import Board
    >>> to_table(first_failures("roth", [Board(5, 5), Board(7, 7)], [1191])).to_pylist()
    [{'order': 1191, 'first_rows': 7, 'first_cols': 7, 'visited': 33, 'boards': 1}]
    """
    failed = rows["first_rows"] > 0
    schema = EVERY_SCHEMA if "failures" in rows else SCHEMA
    cols = []
    for f in schema:
        if pa.types.is_list(f.type):
            cols.append(pa.array(rows[f.name], type=f.type))
            continue
        values = np.asarray(rows[f.name]).astype(f.type.to_pandas_dtype())
        mask = ~failed if f.name in ("first_rows", "first_cols", "visited") else None
        cols.append(pa.array(values, type=f.type, mask=mask))
    return pa.Table.from_arrays(cols, schema=schema)


@dataclass(frozen=True)
class Scan:
    """A scan of a rule under many tie orders over boards from (1, 1), cut into slices (jobs).

    First failures (:func:`first_failures`), or with ``every_board`` every failure
    (:func:`failures_every_board`).

    Parameters
    ----------
    name : str
        The scan's name (a claim's ``tested_by``).
    rule : str
        ``fixed``, ``pohl``, ``roth`` or ``corner``.
    boards : tuple of Board
        The boards, in scan order (at least one).
    ranks : tuple of int
        Tie order ranks scanned (every one by default); unused with ``of``.
    slices : int
        Jobs of consecutive ranks, from 1 to the orders scanned.
    every_board : bool
        Walk every board for every order (:func:`failures_every_board`).
    longest : int or None
        With ``of``: take that scan's ``longest`` orders (:func:`longest_lasting`).
    of : str or None
        The name of a first-failure scan whose table gives the orders, once it has run.
    first_failure : str or None
        With ``of``: take the orders that first fail on this board (``"428x428"``).

    Raises
    ------
    knight.core.checks.SettingError
        A bad field, named in one line (a ``ValueError``).
    """

    name: str
    rule: str
    boards: tuple[Board, ...]
    ranks: tuple[int, ...] = tuple(range(N_ORDERS))
    slices: int = 1
    every_board: bool = False
    longest: int | None = None
    of: str | None = None
    first_failure: str | None = None

    def __post_init__(self) -> None:
        if self.rule not in ORDER_RULES:
            raise SettingError("rule", f"{self.rule!r}: first failures are scanned for {', '.join(ORDER_RULES)}")
        if not self.boards:
            raise SettingError("boards", f"scan {self.name!r}: needs at least one board")
        if self.of is not None:
            if (self.longest is None) == (self.first_failure is None):
                raise SettingError("orders", f"scan {self.name!r}: orders of {self.of!r} need longest or first_failure")
            if self.longest is not None and (not isinstance(self.longest, int) or not 1 <= self.longest <= N_ORDERS):
                raise SettingError("orders", f"{self.longest!r}: longest takes from 1 to {N_ORDERS:,} orders")
            if self.of == self.name:
                raise SettingError("orders", f"{self.of!r}: a scan cannot take the orders of itself")
        # Orders picked by first failure are counted only when the job runs: one slice.
        count = (self.longest or 1) if self.of is not None else len(self.ranks)
        if not 1 <= self.slices <= count:
            raise SettingError("slices", f"{self.slices!r}: from 1 to the {count:,} orders scanned")

    @classmethod
    def from_config(cls, entry: Mapping) -> Scan:
        """A scan from one ``claims.scans`` entry of the workflow's config.

        Parameters
        ----------
        entry : Mapping
            ``name``, ``rule``, ``boards`` (a list or range), ``orders`` (``"all"``, order
            strings, ``{longest: K, of: SCAN}`` or ``{first_failure: BOARD, of: SCAN}``) and
            optionally ``every_board`` and ``slices``.

        Returns
        -------
        Scan
            The scan.

        Raises
        ------
        knight.core.checks.SettingError
            A bad entry, naming the key (a ``ValueError``).
        """
        from knight.core.orders import rank

        try:
            boards = tuple(scan_boards(entry["boards"]))
        except ValueError as exc:
            raise SettingError("boards", f"{entry['boards']!r}: {exc}") from None
        orders = entry.get("orders", "all")
        longest = of = first = None
        ranks: tuple[int, ...] = ()
        if isinstance(orders, Mapping):
            longest, of, first = orders.get("longest"), orders.get("of"), orders.get("first_failure")
            if first is not None:
                try:
                    first = parse_board(first).name
                except ValueError as exc:
                    raise SettingError("orders", f"{dict(orders)!r}: {exc}") from None
        elif orders == "all":
            ranks = tuple(range(N_ORDERS))
        else:
            try:
                ranks = tuple(sorted({rank(str(o)) for o in orders}))
            except ValueError as exc:
                raise SettingError("orders", f"{orders!r}: {exc}") from None
        every = bool(entry.get("every_board", False))
        slices = int(entry.get("slices", 1))
        return cls(entry["name"], entry["rule"], boards, ranks, slices, every, longest, of, first)

    def slice_ranks(self, k: int, chosen=None) -> np.ndarray:
        """The ranks of one slice: consecutive, near-equal slices of the scan's ranks.

        Parameters
        ----------
        k : int
            The slice, 0 to ``slices - 1``.
        chosen : ArrayLike of int or None
            The orders picked from scan ``of`` (needed by, and only read for, a scan with ``of``).

        Returns
        -------
        numpy.ndarray
            ``int64``: the slice's ranks, ascending.

        Raises
        ------
        ValueError
            ``k`` out of range, or ``chosen`` missing for a scan with ``of``.
        """
        if not 0 <= k < self.slices:
            raise ValueError(f"scan {self.name!r}: slice {k} is outside 0..{self.slices - 1}")
        if self.of is not None and chosen is None:
            raise ValueError(f"scan {self.name!r}: its orders come from scan {self.of!r}; pass them as chosen")
        ranks = np.unique(np.asarray(chosen, np.int64)) if self.of is not None else np.asarray(self.ranks, np.int64)
        return np.array_split(ranks, self.slices)[k]

    def params(self, k: int) -> dict:
        """The plain values that decide the rows of one slice (a Snakemake rule's params).

        Parameters
        ----------
        k : int
            The slice, 0 to ``slices - 1``.

        Returns
        -------
        dict
            ``rule``, ``boards`` (names), ``ranks`` (``{from, to}``, a list, or the pick from
            ``of``) and ``every_board`` when set.
        """
        out: dict = {"rule": self.rule, "boards": [b.name for b in self.boards]}
        if self.of is not None:
            pick = {"longest": self.longest} if self.longest is not None else {"first_failure": self.first_failure}
            out["ranks"] = {**pick, "of": self.of, "slice": k, "slices": self.slices}
        else:
            r = self.slice_ranks(k)
            contiguous = int(r[-1]) - int(r[0]) + 1 == len(r)
            out["ranks"] = {"from": int(r[0]), "to": int(r[-1])} if contiguous else r.tolist()
        if self.every_board:
            out["every_board"] = True
        return out

    def run_slice(self, k: int, progress=None, chosen=None) -> tuple[pa.Table, dict]:
        """Scan one slice.

        Parameters
        ----------
        k : int
            The slice, 0 to ``slices - 1``.
        progress : knight.runtime.progress.Progress or None
            Advanced once per board.
        chosen : ArrayLike of int or None
            As in :meth:`slice_ranks`.

        Returns
        -------
        table : pyarrow.Table
            The slice's rows (:func:`to_table`).
        figures : dict
            ``steps`` (knight steps walked) and ``seconds``.
        """
        tally = failures_every_board if self.every_board else first_failures
        rows = tally(self.rule, self.boards, self.slice_ranks(k, chosen), progress=progress)
        return to_table(rows), {"steps": int(rows["steps"][0]), "seconds": float(rows["seconds"][0])}
