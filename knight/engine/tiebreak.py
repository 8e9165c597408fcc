"""Tie-break rules: their names and the numba step that narrows a tie by a rule's key.

Every rule is Warnsdorff's rule (least degree first); rules differ only in how they
choose among the tied set T of candidates sharing the least degree
(docs/conventions.md, "Tie-break rules"):

- ``fixed``: the tie order decides;
- ``pohl``, ``roth``, ``corner``: a key narrows T first (smallest Pohl score, largest
  squared distance from the centre, smallest squared distance to the nearest corner),
  then the tie order decides among what is left;
- ``random``: a uniform draw among T; ``random-order``: attempts of ``fixed``, each
  under a uniformly drawn order; ``squirrel-cull``: fixed orders switched along the tour;
- ``pohl-random``, ``roth-random``: the key of ``pohl`` or ``roth`` narrows T, then a
  uniform draw decides among what is left.

Kernels work on the padded layout of :func:`knight.engine.layout.padded` (a 2-square
margin, ``width = cols + 4``): padded index ``p`` is board square
``(p // width - 2, p % width - 2)``; visited and margin squares hold a degree of at
least ``limit``; :func:`narrow` also takes the rule kernel's tiled layout (same module).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from knight.core.board import MOVES
from knight.engine.layout import place_row, tile_cols, tiled_coords
from knight.engine.rule_registry import (  # noqa: F401  (the settings' defaults, importable here)
    DEFAULT_ORDER,
    DEFAULT_RETRIES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    REGISTRY,
    kernel_tables,
    names,
    rule,
)

#: Rule names, in the order of their integer codes (:data:`REGISTRY`).
RULES = names()
#: Codes of the rules the kernels name (a rule's key, random-order's attempts, squirrel-cull's layout).
FIXED = rule("fixed").code
POHL = rule("pohl").code
ROTH = rule("roth").code
CORNER = rule("corner").code
RANDOM = rule("random").code
RANDOM_ORDER = rule("random-order").code
SQUIRREL_CULL = rule("squirrel-cull").code
POHL_RANDOM = rule("pohl-random").code
ROTH_RANDOM = rule("roth-random").code
#: By rule code: the code of the rule whose key narrows a tie (-1: none), whether a draw
#: decides what the key leaves, whether runs are attempts under drawn orders.
KEY_OF, DRAWS, ATTEMPTS = kernel_tables()
#: Rules whose residual ties are broken by a tie order (the tie-tree engine sweeps them).
ORDER_RULES = names(takes_orders=True)
#: Rules that draw random numbers (rows carry a trial number).
RANDOM_RULES = names(random=True)
#: Ranges of the settings: seed and trial key the counter-based generator (64 and 32
#: bits, docs/conventions.md "Random choices"); attempts are counted in 16 bits.
LIMITS = {"seed": (0, 2**64 - 1), "trial": (0, 2**32 - 1), "trials": (1, 2**32), "retries": (1, 2**16 - 1)}


def check_setting(name: str, value, *, label: str | None = None) -> int:
    """``value`` of the rule setting ``name`` (``seed``, ``trial``, ``trials``,
    ``retries``) as an int within :data:`LIMITS`; ``ValueError`` naming ``label`` (default
    ``name``, e.g. ``--seed`` on the command line) and the value otherwise."""
    from knight.core.checks import int_arg

    return int_arg(label or name, value, *LIMITS[name])


def rule_code(name: str) -> int:
    """Integer code of a rule name; ``ValueError`` naming the rules for an unknown one."""
    return rule(name).code


@nb.njit(nogil=True, cache=True)
def _key(rule, deg, p, r, c, offsets, tiles, rows, cols, limit):
    """Key of the candidate at cell ``p``, board row ``r``, column ``c`` under the key of
    rule ``rule`` (smaller wins): a rule's key is written here, one branch each
    (:func:`narrow` computes ``roth``'s itself). ``offsets`` and ``tiles`` as in
    :func:`narrow`."""
    if rule == POHL:
        score = 0
        for j in range(8):
            if tiles is None:
                d = deg[p + offsets[j]]
            else:
                d = deg[p + tiles[(p & 63) * 8 + j]]
            if d < limit:
                score += d
        return score
    if rule == CORNER:  # squared distance to the nearest corner
        dr = min(r, rows - 1 - r)
        dc = min(c, cols - 1 - c)
        return dr * dr + dc * dc
    return 0


#: (row, column) step of each move, 0-based (docs/conventions.md).
_DR = MOVES[:, 0].copy()
_DC = MOVES[:, 1].copy()


def _difference_directions():
    """The 12 primitive directions (x, y) of the differences of two moves, with y > 0 or
    (y == 0 and x > 0): Roth's key compares two candidates by the sign of a x + b y."""
    from math import gcd

    seen = set()
    for i in range(8):
        for j in range(8):
            x, y = int(_DR[i] - _DR[j]), int(_DC[i] - _DC[j])
            if (x, y) == (0, 0):
                continue
            g = gcd(abs(x), abs(y))
            x, y = x // g, y // g
            if y < 0 or (y == 0 and x < 0):
                x, y = -x, -y
            seen.add((x, y))
    return np.array(sorted(seen), dtype=np.int64)


_DIRS = _difference_directions()
#: Distinct sign patterns of Roth's comparisons, at most (3 ** 12 keys).
_N_KEYS = 3 ** len(_DIRS)


@nb.njit(nogil=True, cache=True)
def _roth_narrow(a, b, mask):
    """The moves of ``mask`` whose candidates lie farthest from the centre, for a knight
    whose square is at doubled offset (a, b) from the centre. The candidate's doubled
    offset is (a + 2 dr, b + 2 dc), its square a^2 + b^2 + 4 (a dr + b dc) + 20 (dr^2 +
    dc^2 = 5 for every move): the farthest are those of the largest a dr + b dc."""
    top = -(1 << 40)
    out = 0
    for m in range(8):
        if (mask >> m) & 1:
            v = a * _DR[m] + b * _DC[m]
            if v > top:
                top = v
                out = 1 << m
            elif v == top:
                out |= 1 << m
    return out


@nb.njit(nogil=True, cache=True)
def narrow(rule, mask, deg, cur, offsets, width, rows, cols, limit, tiles):
    """The moves of ``mask`` (bit ``m``: move ``m``, 0-based, ties at the least degree)
    whose candidates have the best key of rule ``rule`` (:data:`KEY_OF`); ``mask`` itself
    for a rule without a key. ``cur`` is the knight's cell, already marked visited. Row by row
    (``tiles`` is ``None``), ``offsets`` gives the step of each move and ``width`` the
    padded row; in tiles (:mod:`knight.engine.layout`), ``tiles`` is
    :func:`knight.engine.layout.tile_steps`. The knight's row and column are found once,
    the candidates' by the moves' steps."""
    rule = KEY_OF[rule]
    if rule < 0:
        return mask
    if tiles is None:
        r0 = cur // width - 2
        c0 = cur - (r0 + 2) * width - 2
    else:
        pr, pc = tiled_coords(cur, tile_cols(cols))
        r0, c0 = pr - 2, pc - 2
    if rule == ROTH:
        # Computed here, once for the mask, rather than by a key per candidate: the
        # knight's offset from the centre is shared by all of them.
        return _roth_narrow(2 * r0 - rows + 1, 2 * c0 - cols + 1, mask)
    best = 1 << 40
    out = 0
    for m in range(8):
        if (mask >> m) & 1:
            p = cur + offsets[m] if tiles is None else cur + tiles[(cur & 63) * 8 + m]
            k = _key(rule, deg, p, r0 + _DR[m], c0 + _DC[m], offsets, tiles, rows, cols, limit)
            if k < best:
                best = k
                out = 1 << m
            elif k == best:
                out |= 1 << m
    return out


@nb.njit(nogil=True, cache=True)
def _class_of(a, b, ids, table):
    """Class of the doubled centre offset (a, b): its sign pattern over :data:`_DIRS`,
    numbered on first sight; a new class gets its row of ``table``."""
    key = 0
    for i in range(_DIRS.shape[0]):
        f = a * _DIRS[i, 0] + b * _DIRS[i, 1]
        key = key * 3 + (0 if f < 0 else 1 if f == 0 else 2)
    k = ids[key]
    if k < 0:
        k = ids[_N_KEYS]
        ids[_N_KEYS] = k + 1
        ids[key] = k
        for mask in range(256):
            table[k, mask] = _roth_narrow(a, b, mask)
    return k


@nb.njit(nogil=True, cache=True)
def roth_classes(rows, cols, cls, tc):
    """Roth's key as look-ups: ``cls`` (int8, zeros, the padded layout row by row when
    ``tc`` is 0, else in tiles of ``tc`` across: :mod:`knight.engine.layout`) receives each
    board square's class; returns ``table`` (uint8[classes, 256]) with ``table[cls[p],
    mask]`` equal to :func:`narrow` of rule ``roth`` at cell ``p``. A class is the sign
    pattern of the 12 comparisons of Roth's key (at most 49 occur: 24 sectors around the
    centre, the 24 rays between them, the centre); along a row it changes at most 24
    times, so the classes are filled in runs."""
    ids = np.full(_N_KEYS + 1, -1, np.int16)
    ids[_N_KEYS] = 0
    table = np.zeros((64, 256), np.uint8)
    line = np.zeros(cols + 4, np.int8)
    nd = _DIRS.shape[0]
    cuts = np.empty(2 * nd + 2, np.int64)
    for r in range(rows):
        a = 2 * r - rows + 1
        # Where each comparison's sign may change along the row: f = a x + (2c - cols + 1) y
        # (y > 0) is >= 0 from column ceil(n / 2y) and > 0 from floor(n / 2y) + 1,
        # n = (cols - 1) y - a x. Comparisons with y == 0 keep one sign along the row.
        cuts[0], cuts[1] = 0, cols
        k = 2
        for i in range(nd):
            y = _DIRS[i, 1]
            if y > 0:
                n = (cols - 1) * y - a * _DIRS[i, 0]
                lo = -((-n) // (2 * y))
                hi = n // (2 * y) + 1
                cuts[k] = min(max(lo, 0), cols)
                cuts[k + 1] = min(max(hi, 0), cols)
                k += 2
        edges = np.sort(cuts[:k])
        for j in range(k - 1):
            s, e = edges[j], edges[j + 1]
            if s < e:
                line[2 + s : 2 + e] = _class_of(a, 2 * s - cols + 1, ids, table)
        place_row(cls, r + 2, line, tc)
    return table[: ids[_N_KEYS]].copy()
