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

Kernels work on the padded layout of :func:`knight.core.layout.padded` (a 2-square
margin, ``width = cols + 4``): padded index ``p`` is board square
``(p // width - 2, p % width - 2)``; visited and margin squares hold a degree of at
least ``limit``.
"""

from __future__ import annotations

import numba as nb

from knight.core.board import MOVES

#: Rule names, in the order of their integer codes.
RULES = ("fixed", "pohl", "roth", "corner", "random", "random-order", "squirrel-cull", "pohl-random", "roth-random")
FIXED, POHL, ROTH, CORNER, RANDOM, RANDOM_ORDER, SQUIRREL_CULL, POHL_RANDOM, ROTH_RANDOM = range(len(RULES))
#: Rules whose residual ties are broken by a tie order (the tie-tree engine sweeps them).
ORDER_RULES = ("fixed", "pohl", "roth", "corner")
#: Rules that draw random numbers (rows carry a trial number).
RANDOM_RULES = ("random", "random-order", "pohl-random", "roth-random")

#: Defaults of the rules' settings: the tie order after a rule's key, the generator's seed,
#: runs per start of a random rule, random-order's attempts at most. The config schema,
#: the command line and the Python API take these (a test checks the schema's).
DEFAULT_ORDER = "12345678"
DEFAULT_SEED = 1
DEFAULT_TRIALS = 100
DEFAULT_RETRIES = 10
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
    try:
        return RULES.index(name)
    except ValueError:
        raise ValueError(f"rule {name!r} is not one of {', '.join(RULES)}") from None


@nb.njit(nogil=True, cache=True)
def _key(rule, deg, p, r, c, offsets, rows, cols, limit):
    """Key of the candidate at padded index ``p``, board row ``r``, column ``c`` under
    ``pohl`` or ``corner`` (smaller wins); :func:`narrow` computes ``roth``'s itself."""
    if rule == POHL:
        score = 0
        for j in range(8):
            d = deg[p + offsets[j]]
            if d < limit:
                score += d
        return score
    # CORNER: squared distance to the nearest corner.
    dr = min(r, rows - 1 - r)
    dc = min(c, cols - 1 - c)
    return dr * dr + dc * dc


#: (row, column) step of each move, 0-based (docs/conventions.md).
_DR = MOVES[:, 0].copy()
_DC = MOVES[:, 1].copy()


@nb.njit(nogil=True, cache=True)
def narrow(rule, mask, deg, cur, offsets, width, rows, cols, limit):
    """The moves of ``mask`` (bit ``m``: move ``m``, 0-based, ties at the least degree)
    whose candidates have the best key under ``rule``; ``mask`` itself for rules
    without a key. ``cur`` is the knight's padded square, already marked visited; its
    row and column are found once (one division), the candidates' by the moves' steps."""
    if rule != POHL and rule != ROTH and rule != CORNER:
        return mask
    r0 = cur // width - 2
    c0 = cur - (r0 + 2) * width - 2
    if rule == ROTH:
        # The candidate's doubled offset from the centre is (a + 2 dr, b + 2 dc), its square
        # a^2 + b^2 + 4 (a dr + b dc) + 20 (dr^2 + dc^2 = 5 for every move): the farthest
        # candidates are those of the largest a dr + b dc (1.14x the knight steps a second
        # of a roth run on 1999 x 1999 against calling a key function per candidate).
        a = 2 * r0 - rows + 1
        b = 2 * c0 - cols + 1
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
    best = 1 << 40
    out = 0
    for m in range(8):
        if (mask >> m) & 1:
            k = _key(rule, deg, cur + offsets[m], r0 + _DR[m], c0 + _DC[m], offsets, rows, cols, limit)
            if k < best:
                best = k
                out = 1 << m
            elif k == best:
                out |= 1 << m
    return out
