"""Backtracking knight's-tour search (seeds 001 and 003), iterative and in numba.

The search walks a graph given as a neighbour table ``int32[n, 8]`` (-1 = no move), so
the same kernel serves plain boards and the constrained graphs used to make base tours.
Columns are tried in table order; :func:`backtrack` permutes them by the tie order.

Counters: ``nodes`` is the number of moves made (squares added to the path, the start
excluded); ``backtracks`` the number of moves taken back. A move refused by pruning is
neither. A run that reaches ``limit`` nodes stops and reports ``found = None``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from knight.core.board import Board
from knight.core.orders import parse_order

#: Pruning levels, weakest first: plain search; refuse a move that leaves a square with
#: an entrance but no exit (seed 003, 2); also refuse one that cuts off a pair of such squares.
PRUNE_LEVELS = ("none", "dead-ends", "pairs")
#: Move orderings: least onward degree, ties by the tie order (docs/conventions.md); the same
#: with ties first to the square farthest from the start (keeps the start's surroundings
#: for the end of a closed tour); the tie order alone.
ORDERINGS = ("warnsdorff", "warnsdorff-far", "fixed")

FOUND, EXHAUSTED, GAVE_UP = 0, 1, 2


@njit(nogil=True, cache=True)
def _visit(nbr, deg, visited, s):
    visited[s] = 1
    for k in range(8):
        w = nbr[s, k]
        if w >= 0:
            deg[w] -= 1


@njit(nogil=True, cache=True)
def _unvisit(nbr, deg, visited, s):
    visited[s] = 0
    for k in range(8):
        w = nbr[s, k]
        if w >= 0:
            deg[w] += 1


@njit(nogil=True, cache=True)
def _allowed(nbr, deg, visited, v, left, start, closed, prune):
    """Pruning test after the knight has just moved to ``v`` with ``left`` squares to go."""
    for k in range(8):
        w = nbr[v, k]
        if w < 0 or visited[w]:
            continue
        if deg[w] == 0 and left != 1:
            return False  # w can be entered (from v) but not left: it must be the last square
        if prune >= 2 and deg[w] == 1 and left != 2:
            x = -1
            for j in range(8):
                y = nbr[w, j]
                if y >= 0 and not visited[y]:
                    x = y
                    break
            if deg[x] == 1:
                return False  # {w, x} see only each other: they must be the last two squares
    if closed and left > 0 and deg[start] == 0:
        return False  # no unvisited square left next to the start to close the tour
    return True


@njit(nogil=True, cache=True)
def search_kernel(nbr, start, closed, prune, warnsdorff, bias, limit, path):
    """Depth-first search for a Hamiltonian path (cycle if ``closed``) from ``start``.

    ``nbr``: int32[n, 8] neighbour table, columns in priority order. ``prune``: 0, 1, 2
    (index into PRUNE_LEVELS). ``warnsdorff``: sort moves by (onward degree, ``bias``
    int64[n]), stable, so remaining ties keep column order. ``path``: int32[n] output.
    Returns ``(status, nodes, backtracks)`` with status FOUND, EXHAUSTED or GAVE_UP.
    """
    n = nbr.shape[0]
    visited = np.zeros(n, np.uint8)
    deg = np.zeros(n, np.int32)
    for s in range(n):
        for k in range(8):
            if nbr[s, k] >= 0:
                deg[s] += 1
    cand = np.empty((n, 8), np.int32)
    key = np.empty((n, 8), np.int64)
    ncand = np.zeros(n, np.int32)
    pos = np.zeros(n, np.int32)
    nodes = 0
    backtracks = 0
    path[0] = start
    _visit(nbr, deg, visited, start)
    if n == 1:
        return (EXHAUSTED if closed else FOUND), nodes, backtracks
    d = 0
    gen = True
    while True:
        if gen:  # candidates from path[d], Warnsdorff order is a stable sort by degree
            u = path[d]
            c = 0
            for k in range(8):
                w = nbr[u, k]
                if w >= 0 and not visited[w]:
                    if warnsdorff:
                        kw = np.int64(deg[w]) * 4294967296 + bias[w]
                        i = c
                        while i > 0 and key[d, i - 1] > kw:
                            cand[d, i] = cand[d, i - 1]
                            key[d, i] = key[d, i - 1]
                            i -= 1
                        cand[d, i] = w
                        key[d, i] = kw
                    else:
                        cand[d, c] = w
                    c += 1
            ncand[d] = c
            pos[d] = 0
            gen = False
        if pos[d] < ncand[d]:
            v = cand[d, pos[d]]
            pos[d] += 1
            _visit(nbr, deg, visited, v)
            left = n - 2 - d
            if prune > 0 and not _allowed(nbr, deg, visited, v, left, start, closed, prune):
                _unvisit(nbr, deg, visited, v)
                continue
            if nodes >= limit:
                return GAVE_UP, nodes, backtracks
            nodes += 1
            d += 1
            path[d] = v
            if left == 0:
                if not closed:
                    return FOUND, nodes, backtracks
                for k in range(8):
                    if nbr[v, k] == start:
                        return FOUND, nodes, backtracks
                _unvisit(nbr, deg, visited, v)
                d -= 1
                backtracks += 1
                continue
            gen = True
        else:
            if d == 0:
                return EXHAUSTED, nodes, backtracks
            _unvisit(nbr, deg, visited, path[d])
            d -= 1
            backtracks += 1


@dataclass
class BacktrackResult:
    """The outcome of one backtracking search, with its counters.

    Parameters
    ----------
    rows, cols : int
        The board's sides.
    start : int
        Square index of the start.
    closed : bool
        A closed tour was searched for.
    prune : str
        The pruning level (:data:`PRUNE_LEVELS`).
    ordering : str
        The move ordering: ``"warnsdorff"``, ``"warnsdorff-far"`` or ``"fixed"``.
    found : bool or None
        True: a tour found; False: none exists; None: the node limit was reached first.
    nodes : int
        Moves tried.
    backtracks : int
        Moves taken back.
    seconds : float
        Wall-clock seconds of the search.
    reason : str
        Why the answer came without search (``"colour rule"``, ``"odd board"``), or ``"search"``.
    path : numpy.ndarray
        Square indices in tour order; empty unless found.
    """

    rows: int
    cols: int
    start: int
    closed: bool
    prune: str
    ordering: str
    found: bool | None
    nodes: int
    backtracks: int
    seconds: float
    reason: str = "search"
    path: np.ndarray = field(default_factory=lambda: np.empty(0, np.int32))

    def human_path(self) -> list[list[int]]:
        """The path as people read it.

        Returns
        -------
        list of list of int
            1-based ``[row, col]`` pairs, start first.
        """
        return [[int(s) // self.cols + 1, int(s) % self.cols + 1] for s in self.path]

    def to_json(self) -> dict:
        """The result as ``knight backtrack --json`` prints it.

        Returns
        -------
        dict
            Every field, squares 1-based ``[row, col]``.
        """
        return {
            "rows": self.rows,
            "cols": self.cols,
            "start": [self.start // self.cols + 1, self.start % self.cols + 1],
            "closed": self.closed,
            "prune": self.prune,
            "ordering": self.ordering,
            "found": self.found,
            "reason": self.reason,
            "path": self.human_path(),
            "nodes": self.nodes,
            "backtracks": self.backtracks,
            "seconds": self.seconds,
        }


_WARM = []


def _warm_up() -> None:
    """Load (or compile) the kernel once so that ``seconds`` measures the search only."""
    if not _WARM:
        search_kernel(np.full((1, 8), -1, np.int32), 0, False, 0, True, np.zeros(1, np.int64), 1, np.empty(1, np.int32))
        _WARM.append(True)


def check_options(prune: str, ordering: str, limit: int) -> int:
    """Validate search options; return the prune level index."""
    if prune not in PRUNE_LEVELS:
        raise ValueError(f"prune {prune!r} is not one of {', '.join(PRUNE_LEVELS)}")
    if ordering not in ORDERINGS:
        raise ValueError(f"ordering {ordering!r} is not one of {', '.join(ORDERINGS)}")
    if isinstance(limit, bool) or int(limit) != limit or limit < 1:
        raise ValueError(f"node limit must be a positive integer, got {limit!r}")
    return PRUNE_LEVELS.index(prune)


def run_kernel(
    nbr: np.ndarray,
    start: int,
    *,
    closed: bool,
    prune: str = "pairs",
    ordering: str = "warnsdorff",
    limit: int = 10_000_000,
    bias=None,
):
    """Run the kernel on any neighbour table; returns ``(found, path, nodes, backtracks)``."""
    level = check_options(prune, ordering, limit)
    nbr = np.ascontiguousarray(nbr, dtype=np.int32)
    path = np.empty(nbr.shape[0], np.int32)
    bias = np.zeros(nbr.shape[0], np.int64) if bias is None else np.ascontiguousarray(bias, np.int64)
    status, nodes, backs = search_kernel(
        nbr, int(start), bool(closed), level, ordering != "fixed", bias, int(limit), path
    )
    found = {FOUND: True, EXHAUSTED: False, GAVE_UP: None}[int(status)]
    return found, (path if found else path[:0]).copy(), int(nodes), int(backs)


def backtrack(
    board: Board,
    start: int,
    *,
    closed: bool = False,
    prune: str = "pairs",
    ordering: str = "warnsdorff",
    order: str = "12345678",
    limit: int = 10_000_000,
) -> BacktrackResult:
    """Search a knight's tour of ``board`` from square index ``start``.

    ``closed``: the last square must be a knight move from the start. ``ordering``:
    "warnsdorff" tries moves by least onward degree, ties by ``order`` (a tie-order
    string, docs/conventions.md); "warnsdorff-far" breaks degree ties first towards the square
    farthest from the start (much better for closed tours on large boards); "fixed"
    tries moves in ``order`` alone. Boards with an odd number of squares are answered at
    once for minority-colour starts (an open tour alternates colours, so it starts and
    ends on the majority colour) and for closed tours.
    """
    level = check_options(prune, ordering, limit)
    moves = parse_order(order)
    if not 0 <= int(start) < board.size:
        raise ValueError(f"start square {start} is off the {board.name} board")
    start = int(start)
    r, c = divmod(start, board.cols)
    base = dict(
        rows=board.rows, cols=board.cols, start=start, closed=bool(closed), prune=PRUNE_LEVELS[level], ordering=ordering
    )
    if board.size % 2 == 1 and board.size > 1:
        if closed:
            return BacktrackResult(**base, found=False, nodes=0, backtracks=0, seconds=0.0, reason="odd board")
        if (r + c) % 2 == 1:
            return BacktrackResult(**base, found=False, nodes=0, backtracks=0, seconds=0.0, reason="colour rule")
    nbr = np.ascontiguousarray(board.neighbours[:, moves])
    bias = None
    if ordering == "warnsdorff-far":
        rr, cc = np.divmod(np.arange(board.size, dtype=np.int64), board.cols)
        bias = -((rr - r) ** 2 + (cc - c) ** 2)
    _warm_up()
    t0 = time.perf_counter()
    found, path, nodes, backs = run_kernel(
        nbr, start, closed=closed, prune=prune, ordering=ordering, limit=limit, bias=bias
    )
    seconds = time.perf_counter() - t0
    return BacktrackResult(**base, found=found, nodes=nodes, backtracks=backs, seconds=seconds, path=path)
