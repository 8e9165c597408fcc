"""The rows of one start orbit x a list of tie orders, by either engine.

- ``brute``: every (start, order) pair walked (:func:`knight.engine.brute.brute_orbit`);
- ``tree``: the tie tree (:func:`knight.engine.tree.tree_orbit`), which walks each
  distinct path once and derives mirror-image starts by symmetry.

Both give the same rows; the sweep stage (:mod:`knight.sweep`) plans which orbits run.
"""

from __future__ import annotations

import numpy as np

from knight.core.board import Board
from knight.core.checks import SettingError, choice_arg

#: The engines, and the one a sweep uses unless told.
ENGINES = ("brute", "tree")
DEFAULT_ENGINE = "tree"


def check_engine(value) -> str:
    """``value`` if it names an engine: the one check of an engine, wherever one is given
    (a sweep, its config section, the command line, :func:`knight.sweep.run`).

    >>> check_engine("brute")
    'brute'
    >>> check_engine("fast")
    Traceback (most recent call last):
    knight.core.checks.SettingError: engine 'fast' is not one of brute, tree
    """
    try:
        return choice_arg("engine", value, ENGINES)
    except ValueError as exc:
        raise SettingError("engine", str(exc)) from None


def orbit_rows(
    board: Board, starts: np.ndarray, ranks: np.ndarray, engine: str, rule: str = "fixed"
) -> dict[str, np.ndarray]:
    """Rows (sorted by start, then order) for the starts of one orbit under ``engine``.

    Also returns ``steps`` (knight steps walked, one-element array) for benchmarks.
    """
    # The kernels are imported here: their modules compile when imported (fixed
    # signatures), and planning a sweep must compile nothing.
    if check_engine(engine) == "brute":
        from knight.engine.brute import brute_orbit

        return brute_orbit(board, starts, ranks, rule)
    from knight.engine.tree import tree_orbit

    return tree_orbit(board, starts, ranks, rule=rule)


__all__ = ["DEFAULT_ENGINE", "ENGINES", "check_engine", "orbit_rows"]
