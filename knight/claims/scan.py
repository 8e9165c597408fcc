"""First failures: for each tie order, the first board of a sequence on which a rule
under that order does not complete a tour from (1, 1).

The scan walks the boards in turn with the tie tree (:func:`knight.sweep.tree.search`),
each time over only the orders that have not failed yet (the *survivors*), so the work
shrinks as orders drop out. The tree reserves address space for a copy of the padded
board per square (about N^4 bytes on N x N; memory only for the copies it makes); above
:data:`TREE_BYTES` of it the survivors are walked one by one by the brute-force pair
kernel (:func:`knight.rules.kernel.pair_outcomes`), which gives the same rows. A scan of
many orders is cut into *slices* of ranks, one job each; a slice's rows depend only on
its ranks, never on how the work is split.

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

from knight.core.board import Board, parse_boards
from knight.core.checks import SettingError
from knight.core.layout import padded_size
from knight.core.orders import N_ORDERS
from knight.core.tiebreak import ORDER_RULES

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


#: Largest reservation of the tie tree (board squares x padded cells, bytes: 2,000 x 2,000
#: reserves 1.6e13 of address space) a scan makes; above it, brute force.
TREE_BYTES = 2**44


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
    rule: str, boards: Sequence[Board], ranks: np.ndarray, progress=None, tree_bytes: int = TREE_BYTES
) -> dict[str, np.ndarray]:
    """For each rank of ``ranks``, the first of ``boards`` (in the order given) on which
    ``rule`` under that tie order does not complete a tour from (1, 1). Boards whose tie
    tree would reserve more than ``tree_bytes`` are walked by brute force.

    Returns ``order``, ``first_rows``, ``first_cols`` (0: no failure), ``visited`` (squares
    reached on the first failing board, 0: none) and ``boards`` (boards completed before
    it), plus ``steps`` (knight steps walked) and ``seconds``.
    """
    from knight.rules.kernel import pair_outcomes
    from knight.sweep.tree import search

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
        if board.size * padded_size(board.rows, board.cols) <= tree_bytes:
            res = search(board, 0, ranks[alive], rule=rule)
            steps += res["steps"]
            visited = res["visited"][res["leaf_of"][ranks[alive]]]
        else:
            res = pair_outcomes(board, rule, np.zeros(len(alive), np.int64), ranks[alive])
            steps += int(res["steps"][0])
            visited = res["visited"]
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


def to_table(rows: Mapping[str, np.ndarray]) -> pa.Table:
    """A scan's rows as a table of :data:`SCHEMA` (nulls where an order never failed)."""
    failed = rows["first_rows"] > 0
    cols = []
    for f in SCHEMA:
        values = np.asarray(rows[f.name]).astype(f.type.to_pandas_dtype())
        mask = ~failed if f.name in ("first_rows", "first_cols", "visited") else None
        cols.append(pa.array(values, type=f.type, mask=mask))
    return pa.Table.from_arrays(cols, schema=SCHEMA)


@dataclass(frozen=True)
class Scan:
    """A first-failure scan: ``rule`` under each of ``ranks`` over ``boards`` from (1, 1),
    cut into ``slices`` jobs of consecutive ranks."""

    name: str
    rule: str
    boards: tuple[Board, ...]
    ranks: tuple[int, ...] = tuple(range(N_ORDERS))
    slices: int = 1

    def __post_init__(self) -> None:
        if self.rule not in ORDER_RULES:
            raise SettingError("rule", f"{self.rule!r}: first failures are scanned for {', '.join(ORDER_RULES)}")
        if not self.boards:
            raise SettingError("boards", f"scan {self.name!r}: needs at least one board")
        if not 1 <= self.slices <= len(self.ranks):
            raise SettingError("slices", f"{self.slices!r}: from 1 to the {len(self.ranks):,} orders scanned")

    @classmethod
    def from_config(cls, entry: Mapping) -> Scan:
        """A scan from one ``claims.scans`` entry (orders: "all" or order strings)."""
        from knight.core.orders import rank

        try:
            boards = tuple(scan_boards(entry["boards"]))
        except ValueError as exc:
            raise SettingError("boards", f"{entry['boards']!r}: {exc}") from None
        orders = entry.get("orders", "all")
        if orders == "all":
            ranks = tuple(range(N_ORDERS))
        else:
            try:
                ranks = tuple(sorted({rank(str(o)) for o in orders}))
            except ValueError as exc:
                raise SettingError("orders", f"{orders!r}: {exc}") from None
        return cls(entry["name"], entry["rule"], boards, ranks, int(entry.get("slices", 1)))

    def slice_ranks(self, k: int) -> np.ndarray:
        """Ranks of slice ``k`` (consecutive, near-equal slices)."""
        if not 0 <= k < self.slices:
            raise ValueError(f"scan {self.name!r}: slice {k} is outside 0..{self.slices - 1}")
        return np.array_split(np.asarray(self.ranks, np.int64), self.slices)[k]

    def params(self, k: int) -> dict:
        """Plain values that decide the rows of slice ``k`` (a Snakemake rule's params)."""
        r = self.slice_ranks(k)
        contiguous = int(r[-1]) - int(r[0]) + 1 == len(r)
        ranks = {"from": int(r[0]), "to": int(r[-1])} if contiguous else r.tolist()
        return {"rule": self.rule, "boards": [b.name for b in self.boards], "ranks": ranks}

    def run_slice(self, k: int, progress=None) -> tuple[pa.Table, dict]:
        """Rows of slice ``k`` and its figures (steps, seconds)."""
        rows = first_failures(self.rule, self.boards, self.slice_ranks(k), progress=progress)
        return to_table(rows), {"steps": int(rows["steps"][0]), "seconds": float(rows["seconds"][0])}
