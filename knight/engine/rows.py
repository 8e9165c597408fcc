"""The rows of one start orbit x a list of tie orders, by either engine.

- ``brute``: every (start, order) pair walked (:func:`knight.engine.brute.brute_orbit`);
- ``tree``: the tie tree (:func:`knight.engine.tree.tree_orbit`), which walks each
  distinct path once and derives mirror-image starts by symmetry.

Both give the same rows; the sweep stage (:mod:`knight.sweep`) plans which orbits run.
"""

from __future__ import annotations

import numpy as np

from knight.core.board import Board

ENGINES = ("brute", "tree")


def orbit_rows(
    board: Board, starts: np.ndarray, ranks: np.ndarray, engine: str, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows (sorted by start, then order) for the starts of one orbit under ``engine``.

    Also returns ``steps`` (knight steps walked, one-element array) for benchmarks.
    """
    # The kernels are imported here: their modules compile when imported (fixed
    # signatures), and planning a sweep must compile nothing.
    if engine == "brute":
        from knight.engine.brute import brute_orbit

        return brute_orbit(board, starts, ranks, rule)
    if engine == "tree":
        from knight.engine.tree import tree_orbit

        return tree_orbit(board, starts, ranks, rule=rule)
    raise ValueError(f"engine {engine!r} is not one of {', '.join(ENGINES)}")


__all__ = ["ENGINES", "orbit_rows"]
