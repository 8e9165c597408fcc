"""A file of dominating sets of queens, checked on its own: no search is run.

The file (``knight queens dominate N K --sets FILE.csv`` writes one) is plain CSV: a
header ``n,r1,c1,r2,c2,...,rk,ck`` and one row per set, the board side ``n`` then the
set's queens as 1-based ``(row, column)`` pairs, in any order. For example the 4 sets
of 3 queens dominating the 6x6 board form one class::

    n,r1,c1,r2,c2,r3,c3
    6,1,1,4,4,5,3
    ...

:func:`verify_sets` checks that every set has ``gamma(n)`` queens on distinct squares
of the board and covers every square (a queen covers its square, its row, column and
both diagonals, nothing blocks), that no set comes twice, and that the file is a
union of whole symmetry classes: each image of each set under the 8 symmetries of the
square is in the file. It returns the classes, each with its number of sets. The
first fault stops it with :class:`SetsError`, whose message names the file's line.

The checks use nothing of the search (plain numpy on rows and columns), so a file
verifies without trusting the code that wrote it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "sets.csv"
>>> write_sets(path, 4, [[0, 10], [5, 15], [3, 9], [6, 12]])  # 2 queens on 4x4: one class
>>> verify_file(path).classes
[((0, 10), 4)]
>>> write_sets(path, 4, [[0, 10], [5, 15], [3, 9]])  # one set of the class left out
>>> verify_file(path)
Traceback (most recent call last):
...
knight.queens.verify.SetsError: ...sets.csv: line 2: its image (2,3) (4,1) under the three-quarter turn ...
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knight.core.io import atomic_path
from knight.core.published import gamma

#: The 8 symmetries of the n x n board as maps of 0-based (row, col), with their names.
SYMMETRIES = (
    ("identity", lambda r, c, m: (r, c)),
    ("quarter turn", lambda r, c, m: (c, m - r)),
    ("half turn", lambda r, c, m: (m - r, m - c)),
    ("three-quarter turn", lambda r, c, m: (m - c, r)),
    ("mirror left-right", lambda r, c, m: (r, m - c)),
    ("mirror top-bottom", lambda r, c, m: (m - r, c)),
    ("mirror in the main diagonal", lambda r, c, m: (c, r)),
    ("mirror in the anti-diagonal", lambda r, c, m: (m - c, m - r)),
)


class SetsError(ValueError):
    """The file does not verify; the message names the file and its line."""


@dataclass
class Verified:
    """What a file that verifies holds: ``n``, ``k``, its ``sets`` (int64[m, k], sorted
    0-based squares ``r*n + c``, in file order) and its ``classes``: one ``(smallest
    member, number of sets)`` per class, by smallest member."""

    n: int
    k: int
    sets: np.ndarray
    classes: list[tuple[tuple[int, ...], int]]

    def sizes(self) -> dict[int, int]:
        """``{sets in a class: number of such classes}``, largest classes first."""
        out: dict[int, int] = {}
        for _, size in self.classes:
            out[size] = out.get(size, 0) + 1
        return dict(sorted(out.items(), reverse=True))


def cells(n: int, squares) -> str:
    """``(r,c) (r,c) ...``: 1-based cells of squares ``r*n + c``."""
    return " ".join(f"({s // n + 1},{s % n + 1})" for s in squares)


def write_sets(path: str | os.PathLike, n: int, sets) -> None:
    """Write the sets (rows of 0-based squares ``r*n + c``) in the file format above,
    atomically; rows in the order given."""
    sets = np.asarray(sets, dtype=np.int64)
    k = sets.shape[1] if sets.ndim == 2 else 0
    header = ",".join(["n"] + [f"{a}{i}" for i in range(1, k + 1) for a in ("r", "c")])
    lines = [header]
    for row in sets:
        r, c = np.divmod(np.sort(row), n)
        lines.append(",".join([str(n)] + [f"{a + 1},{b + 1}" for a, b in zip(r.tolist(), c.tolist())]))
    with atomic_path(Path(path)) as tmp:
        tmp.write_text("\n".join(lines) + "\n")


def read_sets(path: str | os.PathLike) -> tuple[int, int, np.ndarray, list[int]]:
    """``(n, k, squares int64[m, k] as given, line numbers)`` of a sets file; a row that
    is not ``n`` and ``k`` pairs of integers within the board raises :class:`SetsError`."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise SetsError(f"{path}: cannot be read ({exc})") from None
    lines = text.splitlines()
    if not lines:
        raise SetsError(f"{path}: empty (a header n,r1,c1,... then one row per set)")
    header = [h.strip() for h in lines[0].split(",")]
    k = (len(header) - 1) // 2
    want = ["n"] + [f"{a}{i}" for i in range(1, k + 1) for a in ("r", "c")]
    if header != want or k < 1:
        raise SetsError(f"{path}: line 1: header {lines[0]!r} is not n,r1,c1,...,rk,ck")
    n = None
    rows, numbers = [], []
    for no, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        where = f"{path}: line {no}"
        try:
            values = [int(f) for f in fields]
        except ValueError:
            raise SetsError(f"{where}: {line!r} is not a row of integers") from None
        if len(values) != len(want):
            queens = (len(values) - 1) / 2
            raise SetsError(f"{where}: {queens:g} queens, not the header's {k}")
        if n is None:
            n = values[0]
            if n < 1:
                raise SetsError(f"{where}: board side {n} is not positive")
        elif values[0] != n:
            raise SetsError(f"{where}: board side {values[0]}, not the {n} of the first row")
        r, c = np.asarray(values[1::2]) - 1, np.asarray(values[2::2]) - 1
        if (r < 0).any() or (r >= n).any() or (c < 0).any() or (c >= n).any():
            raise SetsError(f"{where}: a queen off the {n}x{n} board (rows and columns are 1..{n})")
        rows.append(r * n + c)
        numbers.append(no)
    if n is None:
        raise SetsError(f"{path}: no sets (a header and no rows)")
    return n, k, np.asarray(rows, dtype=np.int64), numbers


def _covers_board(n: int, sets: np.ndarray) -> np.ndarray:
    """bool[m]: the set's queens cover every square (by rows, columns and diagonals)."""
    r, c = np.divmod(sets, n)  # [m, k]
    m = len(sets)
    rows = np.zeros((m, n), bool)
    cols = np.zeros((m, n), bool)
    diff = np.zeros((m, 2 * n - 1), bool)
    summ = np.zeros((m, 2 * n - 1), bool)
    at = np.arange(m)[:, None]
    rows[at, r] = True
    cols[at, c] = True
    diff[at, r - c + n - 1] = True
    summ[at, r + c] = True
    R, C = np.divmod(np.arange(n * n), n)
    out = np.ones(m, bool)
    for start in range(0, m, 4096):  # squares of each set in chunks, to bound memory
        s = slice(start, start + 4096)
        hit = rows[s][:, R] | cols[s][:, C] | diff[s][:, R - C + n - 1] | summ[s][:, R + C]
        out[s] = hit.all(axis=1)
    return out


def verify_sets(n: int, sets, numbers=None, *, k: int | None = None, name: str = "sets") -> Verified:
    """Check sets of queens (rows of 0-based squares ``r*n + c``) as described in the
    module docstring; ``k`` defaults to gamma(n). ``numbers``: the file line of each row,
    for the messages (default: row ``i`` is line ``i + 2``, after a header)."""
    sets = np.asarray(sets, dtype=np.int64)
    numbers = list(range(2, len(sets) + 2)) if numbers is None else list(numbers)
    if k is None:
        k = gamma(n)
        if k is None:
            raise SetsError(f"{name}: gamma({n}) is not known here; give the number of queens (--k)")
    if sets.ndim != 2 or len(sets) == 0:
        raise SetsError(f"{name}: no sets")
    sets = np.sort(sets, axis=1)
    for i in range(len(sets)):
        distinct = len(np.unique(sets[i]))
        if distinct != sets.shape[1]:
            raise SetsError(f"{name}: line {numbers[i]}: a square holds two queens ({distinct} distinct squares)")
    if sets.shape[1] != k:
        raise SetsError(f"{name}: line {numbers[0]}: {sets.shape[1]} queens, not gamma({n}) = {k}")
    bad = np.flatnonzero(~_covers_board(n, sets))
    if len(bad):
        i = int(bad[0])
        raise SetsError(f"{name}: line {numbers[i]}: {cells(n, sets[i])} leaves squares of the board uncovered")
    seen: dict[tuple[int, ...], int] = {}
    for i, row in enumerate(sets.tolist()):
        key = tuple(row)
        if key in seen:
            raise SetsError(f"{name}: line {numbers[i]}: the same set as line {numbers[seen[key]]}")
        seen[key] = i
    m = n - 1
    r, c = np.divmod(sets, n)
    images = []
    for label, g in SYMMETRIES:
        gr, gc = g(r, c, m)
        images.append((label, np.sort(gr * n + gc, axis=1)))
    classes = []
    done = np.zeros(len(sets), bool)
    for i in range(len(sets)):
        members = set()
        for label, img in images:
            key = tuple(img[i].tolist())
            if key not in seen:
                raise SetsError(
                    f"{name}: line {numbers[i]}: its image {cells(n, key)} under the {label} is not in the file "
                    "(the file is not a union of whole classes)"
                )
            members.add(key)
        if not done[i]:
            for key in members:
                done[seen[key]] = True
            classes.append((min(members), len(members)))
    classes.sort()
    return Verified(n, k, sets, classes)


def verify_file(path: str | os.PathLike, *, k: int | None = None) -> Verified:
    """:func:`read_sets` then :func:`verify_sets`; every message names ``path`` and its line."""
    n, _, sets, numbers = read_sets(path)
    return verify_sets(n, sets, numbers, k=k, name=str(path))
