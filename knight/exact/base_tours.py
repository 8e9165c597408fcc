"""Base closed tours for the constructions, kept as step-number grids in ``knight/data``.

* ``seed_base_tours.json``: the structured tours printed in seed 004 (6x6, 6x8, 8x8,
  8x10, 10x10, 10x12; other orientations are transposes). *Structured* (Parberry) means
  that in every corner the tour holds both moves ``(0,2)-(1,0)`` and ``(2,0)-(0,1)``
  (coordinates from that corner), which the seed's centre join relies on.
* ``generated_base_tours.json``: tours the seed lacks, found once by the backtracking
  kernel (``python -m knight.exact.base_tours`` rewrites the file).

The grid construction needs *joinable* blocks: square ``(1,1)`` (0-based, from the
top-left corner) is joined in the tour to ``(3,0)`` and ``(0,3)``.
A tour is returned as ``int32[m*n]`` local square indices ``r*n + c`` in tour order.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from knight.core.board import Board

#: The package's data files (shipped inside the package: pyproject.toml's package-data).
DATA = Path(__file__).resolve().parents[1] / "data"

SEED_FILE = "seed_base_tours.json"
GENERATED_FILE = "generated_base_tours.json"
#: Block sides used by the grid construction.
PARTS = (6, 8, 10)
#: Block shapes of the grid construction missing from the seed (found by search).
GENERATED_SHAPES = ((6, 10),)


def grid_to_order(grid) -> np.ndarray:
    """Tour order (local square indices) of a step-number grid (steps 1..m*n)."""
    g = np.asarray(grid, dtype=np.int64)
    order = np.empty(g.size, np.int32)
    order[g.ravel() - 1] = np.arange(g.size, dtype=np.int32)
    return order


def order_to_grid(order, rows: int, cols: int) -> np.ndarray:
    """Step-number grid (1-based steps) of a tour order."""
    grid = np.empty(rows * cols, np.int64)
    grid[np.asarray(order)] = np.arange(1, rows * cols + 1)
    return grid.reshape(rows, cols)


@cache
def _load(name: str) -> dict[tuple[int, int], np.ndarray]:
    text = (DATA / name).read_text(encoding="utf-8")
    tours = {}
    for key, grid in json.loads(text)["tours"].items():
        m, n = (int(x) for x in key.split("x"))
        g = np.asarray(grid, dtype=np.int64)
        if g.shape != (m, n) or sorted(g.ravel().tolist()) != list(range(1, m * n + 1)):
            raise ValueError(f"{name}: tour {key} is not a {m}x{n} step grid")
        tours[(m, n)] = g
    return tours


def _oriented(tours: dict, m: int, n: int) -> np.ndarray | None:
    """Step grid for an m x n board from ``tours``, transposing a stored n x m one."""
    if (m, n) in tours:
        return tours[(m, n)]
    if (n, m) in tours:
        return tours[(n, m)].T
    return None


def _edge_set(grid: np.ndarray) -> set[tuple[int, int]]:
    order = grid_to_order(grid)
    nxt = np.roll(order, -1)
    return {(min(a, b), max(a, b)) for a, b in zip(order.tolist(), nxt.tolist())}


def _has(edges, cols, a, b) -> bool:
    p, q = a[0] * cols + a[1], b[0] * cols + b[1]
    return (min(p, q), max(p, q)) in edges


def is_structured(grid) -> bool:
    """True when every corner holds the moves (0,2)-(1,0) and (2,0)-(0,1) seen from it."""
    g = np.asarray(grid)
    m, n = g.shape
    e = _edge_set(g)
    for fr in (False, True):
        for fc in (False, True):
            f = lambda r, c, fr=fr, fc=fc: (m - 1 - r if fr else r, n - 1 - c if fc else c)  # noqa: E731
            if not (_has(e, n, f(0, 2), f(1, 0)) and _has(e, n, f(2, 0), f(0, 1))):
                return False
    return True


def is_joinable(grid) -> bool:
    """True when square (1,1) is joined to (3,0) and (0,3) (top-left corner)."""
    g = np.asarray(grid)
    e = _edge_set(g)
    n = g.shape[1]
    return _has(e, n, (1, 1), (3, 0)) and _has(e, n, (1, 1), (0, 3))


def seed_base(m: int, n: int) -> np.ndarray:
    """Tour order of the seed's structured base tour for an m x n board."""
    grid = _oriented(_load(SEED_FILE), m, n)
    if grid is None:
        raise ValueError(f"seed 004 has no base tour for {m}x{n}")
    return grid_to_order(grid)


@cache
def join_base(m: int, n: int) -> np.ndarray:
    """Tour order of a joinable closed tour of an m x n block (m, n in PARTS).

    Taken from the seed's tours under a symmetry of the rectangle when one fits,
    else from the generated tours.
    """
    for source in (SEED_FILE, GENERATED_FILE):
        grid = _oriented(_load(source), m, n)
        if grid is None:
            continue
        for g in (grid, grid[::-1, ::-1], grid[:, ::-1], grid[::-1, :]):
            if is_joinable(g):
                return grid_to_order(np.ascontiguousarray(g))
    raise ValueError(f"no joinable base tour for a {m}x{n} block")


def joinable_graph(m: int, n: int) -> np.ndarray:
    """Neighbour table of the m x n board in which (1,1) keeps only (3,0) and (0,3).

    Any closed tour of this graph is a joinable closed tour of the board, since a square
    with two neighbours must use both.
    """
    nbr = Board(m, n).neighbours.copy()
    s11, keep = n + 1, {3 * n, 3}
    for k in range(8):
        w = int(nbr[s11, k])
        if w >= 0 and w not in keep:
            nbr[s11, k] = -1
            nbr[w][nbr[w] == s11] = -1
    return nbr


def generate(m: int, n: int, *, limit: int = 50_000_000) -> np.ndarray:
    """Find a joinable closed tour of an m x n block with the backtracking kernel."""
    from knight.exact.backtrack import run_kernel

    found, path, nodes, _ = run_kernel(
        joinable_graph(m, n), n + 1, closed=True, prune="pairs", ordering="warnsdorff", limit=limit
    )
    if not found:
        raise RuntimeError(f"no joinable {m}x{n} tour within {limit} nodes")
    return path


def main() -> None:
    """Regenerate ``knight/data/generated_base_tours.json``."""
    from pathlib import Path

    from knight.core.io import atomic_path

    tours = {}
    for m, n in GENERATED_SHAPES:
        tours[f"{m}x{n}"] = order_to_grid(generate(m, n), m, n).tolist()
    doc = {
        "description": "Joinable closed tours the seed lacks: square (1,1) is joined to (3,0) "
        "and (0,3) (0-based). Found by knight.exact.base_tours.generate (backtracking, "
        "Warnsdorff order, pair pruning, from (1,1) on the board whose square (1,1) keeps "
        "only those two moves). Step-number grids.",
        "tours": tours,
    }
    lines = ["{", f'  "description": {json.dumps(doc["description"])},', '  "tours": {']
    for i, (key, grid) in enumerate(tours.items()):
        rows = ",\n".join("      " + json.dumps(r) for r in grid)
        lines.append(f'    "{key}": [\n{rows}\n    ]' + ("," if i < len(tours) - 1 else ""))
    lines += ["  }", "}"]
    target = Path(__file__).resolve().parent.parent / "data" / GENERATED_FILE
    with atomic_path(target) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
