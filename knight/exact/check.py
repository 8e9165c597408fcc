"""Vectorised tour check used by the library and the pipeline (tests use their own)."""

from __future__ import annotations

import numpy as np


def tour_problem(rows: int, cols: int, path, *, closed: bool) -> str | None:
    """Why a path is not a knight's tour of a board, or None when it is one.

    A tour visits every square once, each step is a knight move, and when ``closed`` the
    last square is a knight move from the first.

    Parameters
    ----------
    rows, cols : int
        The board's sides.
    path : ArrayLike of int
        Square indices ``row * cols + col`` in the order walked.
    closed : bool
        The tour must close.

    Returns
    -------
    str or None
        The first problem found, in words; None for a tour.

    Examples
    --------
    >>> tour_problem(3, 4, [0, 6, 8, 1], closed=False)
    'path has 4 squares, board has 12'
    """
    p = np.asarray(path, dtype=np.int64)
    n = rows * cols
    if p.ndim != 1 or p.size != n:
        return f"path has {p.size} squares, board has {n}"
    if p.min() < 0 or p.max() >= n:
        return "path leaves the board"
    if np.bincount(p, minlength=n).max() != 1:
        return "a square is visited twice"
    r, c = np.divmod(p, cols)
    if closed:
        r, c = np.append(r, r[0]), np.append(c, c[0])
    dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
    bad = np.flatnonzero(~(((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))))
    if bad.size:
        i = int(bad[0])
        return f"step {i + 1} -> {i + 2} is not a knight move"
    return None
