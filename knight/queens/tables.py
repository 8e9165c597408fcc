"""Solutions as tables people can read: one row per dominating set or placement
(:func:`solutions_frame`), or one row per class of dominating sets (:func:`classes_frame`).

Columns: ``problem`` ("dominate"/"place"), ``n``, ``k``, ``set_id`` (0-based, sets in
lexicographic order of their sorted squares), ``squares`` (list of square indices
``r*n + c``, ascending), ``cells`` (the same squares 1-based as ``(row,col)``),
``class_id`` (set id of the class representative: the orbit member smallest as a
sorted tuple), ``representative`` (the set is its class's representative) and
``orbit`` (number of distinct images under the 8 symmetries).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import polars as pl

from knight.core.io import atomic_path, write_frame
from knight.queens.search import SearchResult
from knight.queens.symmetry import square_images

#: Columns and types of a solutions table.
SCHEMA = {
    "problem": pl.String,
    "n": pl.Int32,
    "k": pl.Int32,
    "set_id": pl.Int64,
    "squares": pl.List(pl.Int32),
    "cells": pl.String,
    "class_id": pl.Int64,
    "representative": pl.Boolean,
    "orbit": pl.Int32,
}


def squares_of(result: SearchResult) -> np.ndarray:
    """The kept sets of a search as squares.

    Parameters
    ----------
    result : knight.queens.SearchResult
        A search's result (:func:`knight.queens.dominate`, :func:`knight.queens.place`, ...).
        Made with ``keep=True``.

    Returns
    -------
    numpy.ndarray
        ``int64[solutions, k]``: the squares ``r * n + c`` of each set, ascending
        (a placement's queen of row r is at ``r * n + sets[r]``).

    Raises
    ------
    ValueError
        The search did not keep its sets.
    """
    if result.sets is None:
        raise ValueError("the search did not keep its solutions (keep=False)")
    sets = np.asarray(result.sets, dtype=np.int64)
    if result.problem == "place":
        sets = np.arange(result.n)[None, :] * result.n + sets
    return sets


def classes_of(sets: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The symmetry class and orbit size of each set.

    Parameters
    ----------
    sets : numpy.ndarray
        ``int[m, k]``: squares of each set, each row ascending, rows sorted; closed under
        the 8 symmetries of the board (the solutions of a symmetric problem are).
    n : int
        Board side.

    Returns
    -------
    class_id : numpy.ndarray
        ``int64[m]``: row index of the smallest member of each row's class.
    orbit : numpy.ndarray
        ``int64[m]``: number of distinct images of each row under the 8 symmetries.

    Raises
    ------
    ValueError
        The sets are not closed under the board's symmetries.
    """
    m, k = sets.shape
    if m == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    images = square_images(n)
    stacked = np.sort(images[:, sets], axis=2).reshape(-1, k)  # [8*m, k], g-major
    uniq, rank = np.unique(stacked, axis=0, return_inverse=True)
    rank = rank.reshape(images.shape[0], m)
    smallest = rank.min(axis=0)
    row_of_rank = np.full(len(uniq), -1, dtype=np.int64)
    row_of_rank[rank[0]] = np.arange(m)
    class_id = row_of_rank[smallest]
    if (class_id < 0).any():
        raise ValueError("solutions are not closed under the board's symmetries")
    orbit = np.array([len(set(col)) for col in rank.T.tolist()], dtype=np.int64)
    return class_id, orbit


def solutions_frame(result: SearchResult) -> pl.DataFrame:
    """One row per kept set of a search, as people read it.

    Parameters
    ----------
    result : knight.queens.SearchResult
        A search's result (:func:`knight.queens.dominate`, :func:`knight.queens.place`, ...).
        Made with ``keep=True``.

    Returns
    -------
    polars.DataFrame
        ``problem, n, k, set_id, squares, cells, class_id, representative, orbit``: the
        columns described in :mod:`knight.queens.tables`, one row per set in lexicographic
        order of its squares.

    Raises
    ------
    ValueError
        The search did not keep its sets.

    See Also
    --------
    classes_frame, write_solutions

    Examples
    --------
    >>> from knight.queens import place
    >>> solutions_frame(place(6, keep=True)).select("set_id", "cells", "orbit").row(0)
    (0, '(1,2) (2,4) (3,6) (4,1) (5,3) (6,5)', 4)
    """
    sets = squares_of(result)
    n, k = result.n, result.k
    order = np.lexsort(sets.T[::-1]) if len(sets) else np.zeros(0, np.int64)
    sets = sets[order]
    class_id, orbit = classes_of(sets, n)
    cells = [" ".join(f"({s // n + 1},{s % n + 1})" for s in row) for row in sets.tolist()]
    return pl.DataFrame(
        {
            "problem": [result.problem] * len(sets),
            "n": np.full(len(sets), n, dtype=np.int32),
            "k": np.full(len(sets), k, dtype=np.int32),
            "set_id": np.arange(len(sets), dtype=np.int64),
            "squares": sets.tolist(),
            "cells": cells,
            "class_id": class_id,
            "representative": class_id == np.arange(len(sets)),
            "orbit": orbit.astype(np.int32),
        },
        schema=SCHEMA,
    )


#: Columns and types of a classes table: one row per class representative.
CLASS_SCHEMA = {
    "problem": pl.String,
    "n": pl.Int32,
    "k": pl.Int32,
    "class_id": pl.Int64,
    "squares": pl.List(pl.Int32),
    "cells": pl.String,
    "orbit": pl.Int32,
}


def classes_frame(result: SearchResult) -> pl.DataFrame:
    """One row per symmetry class of a class search (:func:`knight.queens.dominate`).

    Parameters
    ----------
    result : knight.queens.SearchResult
        A search's result (:func:`knight.queens.dominate`, :func:`knight.queens.place`, ...).
        Of the class search, which gives the representatives.

    Returns
    -------
    polars.DataFrame
        ``problem, n, k``, ``class_id`` (0-based, representatives in lexicographic order),
        ``squares`` (the representative: the class's smallest member as a sorted tuple, as
        in :func:`solutions_frame`), ``cells`` (1-based ``(row,col)``) and ``orbit`` (sets
        in the class; the orbits add up to the solutions).

    Raises
    ------
    ValueError
        The result has no class representatives.
    """
    if result.representatives is None:
        raise ValueError("the search did not produce class representatives")
    reps = np.asarray(result.representatives, dtype=np.int64)
    n = result.n
    cells = [" ".join(f"({s // n + 1},{s % n + 1})" for s in row) for row in reps.tolist()]
    return pl.DataFrame(
        {
            "problem": [result.problem] * len(reps),
            "n": np.full(len(reps), n, dtype=np.int32),
            "k": np.full(len(reps), result.k, dtype=np.int32),
            "class_id": np.arange(len(reps), dtype=np.int64),
            "squares": reps.tolist(),
            "cells": cells,
            "orbit": np.asarray(result.orbits, dtype=np.int32),
        },
        schema=CLASS_SCHEMA,
    )


def write_solutions(frame: pl.DataFrame, path: str | os.PathLike) -> None:
    """Write a solutions or classes table to Parquet, atomically, with a CSV beside it.

    Parameters
    ----------
    frame : polars.DataFrame
        A table of :func:`solutions_frame` or :func:`classes_frame`.
    path : str or os.PathLike
        The Parquet file; the CSV is the same path with suffix ``.csv`` (squares
        space-separated).
    """
    write_frame(frame, path, csv=False)
    flat = frame.with_columns(pl.col("squares").cast(pl.List(pl.String)).list.join(" "))
    with atomic_path(Path(path).with_suffix(".csv")) as tmp:
        flat.write_csv(tmp)
