"""Warnsdorff runs under every tie-break rule: one numba kernel, batch and single runs.

Rules (:mod:`knight.engine.tiebreak`, docs/conventions.md "Tie-break rules"): ``fixed``,
``pohl``, ``roth``, ``corner`` (a key narrows the least-degree tie, then the tie order
decides), ``random`` (a uniform draw among the tie, candidates listed by move number),
``random-order`` (attempts of ``fixed`` under uniformly drawn orders, stopping at the
first complete tour or after ``retries`` attempts; a row reports the last attempt) and
``squirrel-cull`` (:mod:`knight.engine.squirrel_cull`), ``pohl-random`` and ``roth-random``
(the key of ``pohl`` or ``roth``, then a uniform draw among what is left). Random draws come from
:mod:`knight.engine.rng`, keyed by ``(seed, rows, cols, start, trial[, attempt])``, so a row
does not depend on how starts and trials are split into calls. A step is the engine's
one step, :func:`knight.engine.step.enter`. Brute force over (start, tie order) pairs,
the independent check of the tie tree, is :func:`run_pairs` (:func:`pair_outcomes`) for
every rule of a tie order, ``fixed`` included.

Memory: the kernel keeps one padded board of int8 degrees, ``(rows + 4) * (cols + 4)``
bytes (a 2-square margin removes bounds checks; for squirrel-cull from
:data:`knight.engine.layout.TILED_ROWS` rows, in tiles of 8 x 8 cells rounded up to whole
tiles: :func:`in_tiles`), plus one copy of the initial degrees
when a call makes more than one walk, a second degree board when its runs go two at a
time (:func:`_walk_two`, :func:`board_bytes`), one byte a square more for ``roth`` and
``roth-random`` (each square's class of Roth's key,
:func:`knight.engine.tiebreak.roth_classes`), and the path (4 or 8 bytes a square) only
for :func:`run`. There is no neighbour table: initial degrees are computed
arithmetically. Kernels release the GIL.
"""

from __future__ import annotations

from numbers import Integral
from typing import NamedTuple

import numba as nb
import numpy as np

from knight.core.board import MOVES, Board
from knight.core.checks import int_arg
from knight.core.orders import N_ORDERS, all_orders, check_ranks, order_string, parse_order
from knight.core.orders import rank as order_rank
from knight.core.tour import Tour
from knight.engine.layout import (
    BLOCKED,
    Outcomes,
    cell_count,
    place_row,
    record_row,
    tile_cols,
    tile_steps,
    tiled,
    tiled_cell,
    tiled_coords,
)
from knight.engine.rng import below, fold, run_key
from knight.engine.rule_registry import REGISTRY
from knight.engine.squirrel_cull import check_board, schedule
from knight.engine.step import LEVEL, enter, ranked_steps, steps_of
from knight.engine.tiebreak import (
    ATTEMPTS,
    DRAWS,
    FIXED,
    KEY_OF,
    LIMITS,
    ORDER_RULES,
    ROTH,
    RULES,
    check_setting,
    narrow,
    roth_classes,
    rule_code,
)

#: Degrees below ``LIMIT`` belong to unvisited board squares (the ``limit`` of
#: :func:`knight.engine.tiebreak.narrow`).
LIMIT = 9
#: Population count of a byte, and index of its lowest set bit (0 for 0).
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
_LOWBIT = np.array([(i & -i).bit_length() - 1 if i else 0 for i in range(256)], dtype=np.int64)
MAX_RETRIES = LIMITS["retries"][1]
_DR = MOVES[:, 0].copy()
_DC = MOVES[:, 1].copy()


@nb.njit(nogil=True, cache=True)
def _border_degree(r, c, rows, cols):
    n = 0
    for k in range(8):
        rr = r + _DR[k]
        cc = c + _DC[k]
        if rr >= 0 and rr < rows and cc >= 0 and cc < cols:
            n += 1
    return n


@nb.njit(nogil=True, cache=True)
def _degree_line(line, r, rows, cols):
    """Board row ``r`` of the initial degrees into the padded ``line`` (margins kept)."""
    if r >= 2 and r < rows - 2:
        line[4:cols] = 8
        for c in range(min(2, cols)):
            line[c + 2] = _border_degree(r, c, rows, cols)
        for c in range(max(2, cols - 2), cols):
            line[c + 2] = _border_degree(r, c, rows, cols)
    else:
        for c in range(cols):
            line[c + 2] = _border_degree(r, c, rows, cols)


@nb.njit(nogil=True, cache=True)
def fill_degrees(deg, rows, cols, tc):
    """Fill the padded int8 board ``deg`` (row by row when ``tc`` is 0, else in tiles of
    ``tc`` across: :mod:`knight.engine.layout`): each square's number of on-board knight
    moves, ``BLOCKED`` elsewhere. Squares two or more away from every edge have 8; in
    tiles, every band of eight rows that holds only such rows is one copy of the first."""
    deg[:] = BLOCKED
    width = cols + 4
    if tc == 0:
        for r in range(rows):
            _degree_line(deg[(r + 2) * width : (r + 3) * width], r, rows, cols)  # in place
        return
    line = np.full(width, BLOCKED, np.int8)
    band = tc * 64
    first = -1  # the first band of interior rows only, copied to the others
    for t in range((rows + 11) >> 3):
        lo, hi = t * 8 - 2, t * 8 + 6  # the board rows of band t
        if lo >= 2 and hi <= rows - 2 and first >= 0:
            deg[t * band : (t + 1) * band] = deg[first * band : (first + 1) * band]
            continue
        for r in range(max(lo, 0), min(hi, rows)):
            _degree_line(line, r, rows, cols)
            place_row(deg, r + 2, line, tc)
        if lo >= 2 and hi <= rows - 2:
            first = t


class Schedule(NamedTuple):
    """The tie orders of a walk: ``orders`` (uint8[k, 8], 0-based moves in priority order)
    and ``switches`` (int64[k], cell of the board's layout or -1). Order ``j`` applies until the knight
    stands on ``switches[j]``; then order ``j + 1`` applies from the move out of that square
    on. Every rule but squirrel-cull has one order and no switch."""

    orders: np.ndarray
    switches: np.ndarray


class Rule(NamedTuple):
    """A rule as :func:`run_batch` runs it: ``code`` (:mod:`knight.engine.tiebreak`), its
    :class:`Schedule` (ignored by random-order), ``order_table`` (uint8[40320, 8], the
    orders random-order draws), ``seed`` (uint64) and ``retries`` (random-order's most
    attempts)."""

    code: int
    schedule: Schedule
    order_table: np.ndarray
    seed: np.uint64
    retries: int


class Cells(NamedTuple):
    """The board storage of :func:`run_batch` and :func:`run_pairs`, in one layout
    (:mod:`knight.engine.layout`; :func:`board_cells` allocates it): ``deg`` (int8 scratch
    degrees), ``classes`` (int8, Roth's class of each cell for rules roth and
    roth-random, else empty), ``tiles`` (empty row by row, else
    :func:`knight.engine.layout.tile_steps`) and ``second`` (int8 degrees of a second run
    walked beside the first, :func:`_walk_two`, else empty). Allocated by numpy, so that
    large boards get the operating system's huge pages (numba's own arrays do not)."""

    deg: np.ndarray
    classes: np.ndarray
    tiles: np.ndarray
    second: np.ndarray


@nb.njit(nogil=True, cache=True)
def _set_order(order, offsets, choice):
    """Put ``order`` (0-based moves, priority first) in force: ``choice`` (int64[256])
    receives the padded step of the move each bitmask's candidates rank first (0 for the
    empty mask), so that breaking a tie by the order is one look-up, without a branch."""
    prio = np.empty(8, np.int64)
    for i in range(8):
        prio[order[i]] = i
    # first[mask]: the move of mask ranked first, from the mask without its lowest bit.
    first = np.empty(256, np.int64)
    first[0] = 8
    choice[0] = 0
    for mask in range(1, 256):
        low = _LOWBIT[mask]
        rest = first[mask & (mask - 1)]
        m = low if rest == 8 or prio[low] < prio[rest] else rest
        first[mask] = m
        choice[mask] = offsets[m]


@nb.njit(nogil=True, cache=True)
def _draw(mask, offsets, key, draws):
    """A uniform draw among the moves of ``mask`` (listed by move number): (its padded
    step, draws made so far)."""
    cnt = _POPCOUNT[mask]
    j = np.int64(0)
    if cnt > 1:
        drawn_j, draws = below(key, draws, np.uint64(cnt))
        j = np.int64(drawn_j)
    for m in range(8):
        if (mask >> m) & 1:
            if j == 0:
                return offsets[m], draws
            j -= 1
    return 0, draws


@nb.njit(nogil=True, cache=True)
def _by_order(code):
    """Whether the tie order alone breaks the ties of the rule of code ``code`` (no key,
    no draw: fixed, squirrel-cull; random-order's attempts run as fixed): :func:`_walk`
    then takes the eight steps in the order's priority, and the first candidate is the move."""
    return KEY_OF[code] < 0 and not DRAWS[code] and not ATTEMPTS[code]


@nb.njit(nogil=True, cache=True)
def _in_force(code, order, offsets, ranked, choice):
    """Put ``order`` (0-based moves, priority first) in force for the rule of code
    ``code``: by :func:`_by_order`, ``ranked`` receives the steps in the order's priority
    (:func:`knight.engine.step.ranked_steps`, eight look-ups); for the other rules, which
    step in move order, ``choice`` receives the move each bitmask ranks first
    (:func:`_set_order`, for the moves a key leaves tied)."""
    if _by_order(code):
        ranked_steps(order, offsets, ranked)
    else:
        _set_order(order, offsets, choice)


@nb.njit(nogil=True, cache=True)
def _new_walker(deg, offsets, roth, schedule, key):
    """A walker of :func:`_walk` on the degrees ``deg``, with scratch of its own for the
    order in force."""
    return (deg, offsets, np.empty(8, np.int64), np.empty(256, np.int64), roth, schedule, key)


@nb.njit(nogil=True, cache=True, inline="always")
def _begin(p0, path):
    """The state of a run from cell ``p0`` (put in ``path`` when non-empty) that
    :func:`_walk` continues: (cell to enter, squares visited, residual tie points, stage
    of the schedule, random draws made)."""
    if path.shape[0] > 0:
        path[0] = p0
    return np.int64(p0), np.int64(1), np.int64(0), np.int64(0), np.uint64(0)


@nb.njit(nogil=True, cache=True)
def _tile_steps(tiles, b, ranked):
    """The steps of the moves ``ranked`` from a tiled cell whose row of ``tiles`` starts
    at ``b`` (:func:`knight.engine.layout.tile_steps`)."""
    return (
        tiles[b + ranked[0]],
        tiles[b + ranked[1]],
        tiles[b + ranked[2]],
        tiles[b + ranked[3]],
        tiles[b + ranked[4]],
        tiles[b + ranked[5]],
        tiles[b + ranked[6]],
        tiles[b + ranked[7]],
    )


@nb.njit(nogil=True, cache=True)
def _walk(code, walker, tiles, rows, cols, path, state):
    """A run of the rule of code ``code`` from its ``state`` (:func:`_begin`, or where
    :func:`_walk_two` left it) to its end, on a board of ``rows x cols`` squares.
    ``walker`` is (``deg``: the degrees, left dirty; ``offsets``: int64[8], the step of
    each move, or ``0..7`` in tiles, where moves stand for steps; ``ranked``: int64[8]
    and ``choice``: int64[256], scratch for the order in force, :func:`_in_force`;
    ``roth``: Roth's key as look-ups, :func:`_roth_key`; the :class:`Schedule`; ``key``:
    the random stream). ``tiles`` is ``None`` row by row, else
    :func:`knight.engine.layout.tile_steps`. ``path`` receives the cells when non-empty.
    Returns (squares visited, residual tie points, last cell).

    A step is :func:`knight.engine.step.enter`. Under fixed and squirrel-cull it is given
    the steps in the order's priority, so its lowest candidate is the move; under the
    other rules in move order, then Roth's key is a look-up (on every step, branch-free)
    and the order in force another (``choice``); pohl, corner and the drawing rules
    branch on a tie.
    """
    deg, offsets, ranked, choice, roth, schedule, key = walker
    store = path.shape[0] > 0
    cur, n, ties, stage, draws = state
    plain = _by_order(code)
    if not plain:
        ranked = offsets  # the steps in move order
    _in_force(code, schedule.orders[stage], offsets, ranked, choice)
    switch = schedule.switches[stage]
    drawn = DRAWS[code]
    keyed = KEY_OF[code]  # the rule whose key narrows a tie (``key`` is the random stream)
    by_key = keyed == ROTH  # Roth's key by look-ups, on every step
    narrowing = keyed >= 0 and keyed != ROTH  # another key: narrow() on a tie
    special = narrowing or drawn
    cls, table = roth
    steps = steps_of(ranked)
    b = 0
    while True:
        if cur == switch:
            stage += 1
            _in_force(code, schedule.orders[stage], offsets, ranked, choice)
            switch = schedule.switches[stage]
            steps = steps_of(ranked)
        if tiles is not None:
            b = (cur & 63) * 8
            steps = _tile_steps(tiles, b, ranked)
        mask, low = enter(deg, cur, steps, LEVEL)
        if mask == 0:
            break
        if plain:
            step = ranked[low]  # the first candidate in the order's priority
        else:
            if by_key:
                mask = table[cls[np.uint64(cur)], mask]  # a single move maps to itself
            step = choice[mask]  # the only candidate, or the tie's first by the order
            if special and mask & (mask - 1):  # a tie at the least degree: key, then draw
                if narrowing:
                    mask = narrow(keyed, mask, deg, cur, offsets, cols + 4, rows, cols, LIMIT, tiles)
                if drawn:
                    step, draws = _draw(mask, offsets, key, draws)
                else:
                    step = choice[mask]
        ties += (mask & (mask - 1)) != 0
        if tiles is None:
            cur += step
        else:
            cur += tiles[b + step]
        if store:
            path[n] = cur
        n += 1
    return n, ties, cur


@nb.njit(nogil=True, cache=True)
def _walk_two(code, one, two, tiles_a, tiles_b, state_a, state_b):
    """Two runs of the rule of code ``code`` (fixed, roth, squirrel-cull, random or
    roth-random), a step of each in turn, until one ends: their states after it
    (:func:`_begin`), and whether each has ended. ``one`` and ``two`` are walkers and
    ``tiles_a``, ``tiles_b`` their ``tiles``, as in :func:`_walk` (both ``None`` or
    neither).

    The two runs do not depend on each other, so the processor overlaps the latency of
    one step's loads and look-ups with the other's (docs/development.md, "The rule
    kernel"; the gain: docs/performance.md). Each run's step is :func:`_walk`'s, written
    out here for each: as a function shared by the three loops and inlined by numba, it
    made numba count references to the walker's arrays at every step, several times
    slower. An ended run's last step moves nothing.
    """
    plain = _by_order(code)
    drawn = DRAWS[code]
    by_key = KEY_OF[code] == ROTH
    deg_a, offs_a, ranked_a, choice_a, roth_a, sched_a, key_a = one
    deg_b, offs_b, ranked_b, choice_b, roth_b, sched_b, key_b = two
    if not plain:  # the steps in move order
        ranked_a, ranked_b = offs_a, offs_b
    cls_a, table_a = roth_a
    cls_b, table_b = roth_b
    cur_a, n_a, ties_a, stage_a, draws_a = state_a
    cur_b, n_b, ties_b, stage_b, draws_b = state_b
    _in_force(code, sched_a.orders[stage_a], offs_a, ranked_a, choice_a)
    _in_force(code, sched_b.orders[stage_b], offs_b, ranked_b, choice_b)
    switch_a = sched_a.switches[stage_a]
    switch_b = sched_b.switches[stage_b]
    steps_a = steps_of(ranked_a)
    steps_b = steps_of(ranked_b)
    b_a = b_b = 0
    end_a = end_b = False
    while not (end_a or end_b):
        if cur_a == switch_a:
            stage_a += 1
            _in_force(code, sched_a.orders[stage_a], offs_a, ranked_a, choice_a)
            switch_a = sched_a.switches[stage_a]
            steps_a = steps_of(ranked_a)
        if tiles_a is not None:
            b_a = (cur_a & 63) * 8
            steps_a = _tile_steps(tiles_a, b_a, ranked_a)
        mask, low = enter(deg_a, cur_a, steps_a, LEVEL)
        end_a = mask == 0
        if plain:
            step = ranked_a[low]
        else:
            if by_key:
                mask = table_a[cls_a[np.uint64(cur_a)], mask]
            step = choice_a[mask]
            if drawn and mask & (mask - 1):
                step, draws_a = _draw(mask, offs_a, key_a, draws_a)
        ties_a += (mask & (mask - 1)) != 0
        if tiles_a is not None:
            step = tiles_a[b_a + step]
        cur_a += 0 if end_a else step
        n_a += not end_a
        if cur_b == switch_b:
            stage_b += 1
            _in_force(code, sched_b.orders[stage_b], offs_b, ranked_b, choice_b)
            switch_b = sched_b.switches[stage_b]
            steps_b = steps_of(ranked_b)
        if tiles_b is not None:
            b_b = (cur_b & 63) * 8
            steps_b = _tile_steps(tiles_b, b_b, ranked_b)
        mask, low = enter(deg_b, cur_b, steps_b, LEVEL)
        end_b = mask == 0
        if plain:
            step = ranked_b[low]
        else:
            if by_key:
                mask = table_b[cls_b[np.uint64(cur_b)], mask]
            step = choice_b[mask]
            if drawn and mask & (mask - 1):
                step, draws_b = _draw(mask, offs_b, key_b, draws_b)
        ties_b += (mask & (mask - 1)) != 0
        if tiles_b is not None:
            step = tiles_b[b_b + step]
        cur_b += 0 if end_b else step
        n_b += not end_b
    return (cur_a, n_a, ties_a, stage_a, draws_a), (cur_b, n_b, ties_b, stage_b, draws_b), end_a, end_b


@nb.njit(nogil=True, cache=True)
def _roth_key(code, rows, cols, classes, tc):
    """Roth's key as look-ups for rules roth and roth-random, empty for the others:
    (``classes`` filled with each cell's class, uint8[classes, 256] narrowed masks),
    from :func:`knight.engine.tiebreak.roth_classes` (``tc`` as there)."""
    if KEY_OF[code] != ROTH:
        return classes[:0], np.empty((0, 256), np.uint8)
    return classes, roth_classes(rows, cols, classes, tc)


@nb.njit(nogil=True, cache=True)
def _offsets(cols):
    """The padded index step of each move (int64[8]) on a board of ``cols`` columns."""
    offsets = np.empty(8, np.int64)
    for k in range(8):
        offsets[k] = _DR[k] * (cols + 4) + _DC[k]
    return offsets


@nb.njit(nogil=True, cache=True)
def _cell(s, cols, tiles):
    """The cell of board square ``s`` in the layout of ``tiles`` (:func:`_walk`)."""
    if tiles is None:
        return (s // cols + 2) * (cols + 4) + s % cols + 2
    return tiled_cell(s // cols + 2, s % cols + 2, tile_cols(cols))


@nb.njit(nogil=True, cache=True)
def _padded(p, cols, tiles):
    """The padded index, row by row, of cell ``p`` in the layout of ``tiles``."""
    if tiles is None:
        return p
    pr, pc = tiled_coords(p, tile_cols(cols))
    return pr * (cols + 4) + pc


@nb.njit(nogil=True, cache=True)
def _pairable(code):
    """Whether :func:`_walk_two` runs the rule of code ``code``: no key but Roth's (its
    look-ups; another key's search is :func:`_walk`'s alone), no attempts."""
    return (KEY_OF[code] < 0 or KEY_OF[code] == ROTH) and not ATTEMPTS[code]


@nb.njit(nogil=True, cache=True)
def _finish(code, walker, tiles, rows, cols, state, ended):
    """(squares visited, residual tie points, last cell) of a run that :func:`_walk_two`
    left at ``state``: walked on by :func:`_walk` unless it has ``ended``."""
    if ended:
        return state[1], state[2], state[0]
    return _walk(code, walker, tiles, rows, cols, np.empty(0, np.int32), state)


@nb.njit(nogil=True, cache=True, inline="always")
def _two_rows(code, one, two, tiles, rows, cols, p_a, p_b, out, i):
    """Runs from cells ``p_a`` and ``p_b`` with the walkers ``one`` and ``two`` (their
    degrees filled), side by side (:func:`_walk_two`) and each then to its end, into rows
    ``i`` and ``i + 1`` of ``out``. Returns the knight steps."""
    no_path = np.empty(0, np.int32)
    st_a, st_b, end_a, end_b = _walk_two(code, one, two, tiles, tiles, _begin(p_a, no_path), _begin(p_b, no_path))
    padded_offsets = _offsets(cols)
    n_a, ties, pend = _finish(code, one, tiles, rows, cols, st_a, end_a)
    p, q = _padded(p_a, cols, tiles), _padded(pend, cols, tiles)
    record_row(out, i, n_a, ties, p, q, padded_offsets, cols, rows * cols)
    n_b, ties, pend = _finish(code, two, tiles, rows, cols, st_b, end_b)
    p, q = _padded(p_b, cols, tiles), _padded(pend, cols, tiles)
    record_row(out, i + 1, n_b, ties, p, q, padded_offsets, cols, rows * cols)
    return n_a + n_b - 2


@nb.njit(nogil=True, cache=True)
def run_batch(rule, rows, cols, starts, trials, cells, path, out, attempts_out, order_out):
    """Every pair (``starts[a]``, ``trials[b]``) into row ``a * len(trials) + b``.

    ``rule`` is a :class:`Rule`; ``starts`` are board square indices; ``cells`` the
    board's :class:`Cells`; ``path`` receives the last walk's cells
    (:func:`cells_to_squares`) when non-empty. ``out``
    (:class:`knight.engine.layout.Outcomes`) gets each row's outcome (its last attempt's),
    ``attempts_out`` its attempts and ``order_out`` the drawn rank (random-order only).
    Rows go two at a time (:func:`_walk_two`) when ``cells.second`` is allocated and
    there is no path. Returns the knight steps walked over all runs and attempts.
    """
    if cells.tiles.shape[0]:
        return _run_batch(rule, rows, cols, starts, trials, cells, path, out, attempts_out, order_out, cells.tiles)
    return _run_batch(rule, rows, cols, starts, trials, cells, path, out, attempts_out, order_out, None)


@nb.njit(nogil=True, cache=True)
def _run_batch(rule, rows, cols, starts, trials, cells, path, out, attempts_out, order_out, tiles):
    # Numba settles ``tiles is None`` at compile time: two kernels from one text.
    code, schedule, order_table, seed, retries = rule
    deg = cells.deg
    size = rows * cols
    padded_offsets = _offsets(cols)
    offsets = padded_offsets if tiles is None else np.arange(8, dtype=np.int64)
    tc = 0 if tiles is None else tile_cols(cols)
    ranked, choice = np.empty(8, np.int64), np.empty(256, np.int64)
    roth = _roth_key(code, rows, cols, cells.classes, tc)
    no_switch = np.full(1, -1, np.int64)
    drawn = ATTEMPTS[code]
    nt = trials.shape[0]
    total = starts.shape[0] * nt
    fill_degrees(deg, rows, cols, tc)
    deg0 = deg.copy() if total * (retries if drawn else 1) > 1 else deg[:0]
    steps = 0
    first = 0
    if _pairable(code) and cells.second.shape[0] > 0 and path.shape[0] == 0:
        first = total - total % 2
        ranked2, choice2 = np.empty(8, np.int64), np.empty(256, np.int64)
        for i in range(0, first, 2):
            deg[:] = deg0
            cells.second[:] = deg0
            s_a, s_b = starts[i // nt], starts[(i + 1) // nt]
            key_a = run_key(
                np.uint64(seed), np.uint64(rows), np.uint64(cols), np.uint64(s_a), np.uint64(trials[i % nt])
            )
            t_b = trials[(i + 1) % nt]
            key_b = run_key(np.uint64(seed), np.uint64(rows), np.uint64(cols), np.uint64(s_b), np.uint64(t_b))
            one = (deg, offsets, ranked, choice, roth, schedule, key_a)
            two = (cells.second, offsets, ranked2, choice2, roth, schedule, key_b)
            p_a, p_b = _cell(s_a, cols, tiles), _cell(s_b, cols, tiles)
            steps += _two_rows(code, one, two, tiles, rows, cols, p_a, p_b, out, i)
            attempts_out[i] = attempts_out[i + 1] = 1
    dirty = first > 0
    for row in range(first, total):
        s = starts[row // nt]
        p0 = _cell(s, cols, tiles)
        key = run_key(np.uint64(seed), np.uint64(rows), np.uint64(cols), np.uint64(s), np.uint64(trials[row % nt]))
        attempt = 0
        while True:
            if dirty:
                deg[:] = deg0
            dirty = True
            state = _begin(p0, path)
            if drawn:
                rank, _ = below(fold(key, np.uint64(attempt)), np.uint64(0), np.uint64(40320))
                r = np.int64(rank)
                one = (deg, offsets, ranked, choice, roth, Schedule(order_table[r : r + 1], no_switch), key)
                n, ties, pend = _walk(FIXED, one, tiles, rows, cols, path, state)
                order_out[row] = r
            else:
                walker = (deg, offsets, ranked, choice, roth, schedule, key)
                n, ties, pend = _walk(code, walker, tiles, rows, cols, path, state)
            steps += n - 1
            attempt += 1
            if not drawn or n == size or attempt == retries:
                break
        attempts_out[row] = attempt
        p, q = _padded(p0, cols, tiles), _padded(pend, cols, tiles)
        record_row(out, row, n, ties, p, q, padded_offsets, cols, size)
    return steps


@nb.njit(nogil=True, cache=True)
def run_two_boards(one, two, out):
    """One run on each of two boards, a step of each in turn (:func:`_walk_two`): ``one``
    is (:class:`Rule`, rows, cols, start square, trial, :class:`Cells`) of the run into
    row 0 of ``out`` (:class:`knight.engine.layout.Outcomes`), ``two`` the same for row 1.
    The rules have the same code; the boards are both row by row or both in tiles.
    Returns the knight steps."""
    if one[5].tiles.shape[0]:
        return _run_two_boards(one, two, out, one[5].tiles, two[5].tiles)
    return _run_two_boards(one, two, out, None, None)


@nb.njit(nogil=True, cache=True)
def _walker(run, tiles):
    """(walker of :func:`_walk_two`, its begun state, start cell) of ``run`` (as
    :func:`run_two_boards`'s) on its board, filled here."""
    rule, rows, cols, start, trial, cells = run
    tc = 0 if tiles is None else tile_cols(cols)
    offsets = _offsets(cols) if tiles is None else np.arange(8, dtype=np.int64)
    roth = _roth_key(rule.code, rows, cols, cells.classes, tc)
    fill_degrees(cells.deg, rows, cols, tc)
    p0 = _cell(start, cols, tiles)
    key = run_key(np.uint64(rule.seed), np.uint64(rows), np.uint64(cols), np.uint64(start), np.uint64(trial))
    walker = _new_walker(cells.deg, offsets, roth, rule.schedule, key)
    return walker, _begin(p0, np.empty(0, np.int32)), p0


@nb.njit(nogil=True, cache=True)
def _run_two_boards(one, two, out, tiles_a, tiles_b):
    code = one[0].code
    walker_a, st_a, p_a = _walker(one, tiles_a)
    walker_b, st_b, p_b = _walker(two, tiles_b)
    st_a, st_b, end_a, end_b = _walk_two(code, walker_a, walker_b, tiles_a, tiles_b, st_a, st_b)
    rows, cols = one[1], one[2]
    n_a, ties, pend = _finish(code, walker_a, tiles_a, rows, cols, st_a, end_a)
    p, q = _padded(p_a, cols, tiles_a), _padded(pend, cols, tiles_a)
    record_row(out, 0, n_a, ties, p, q, _offsets(cols), cols, rows * cols)
    rows, cols = two[1], two[2]
    n_b, ties, pend = _finish(code, walker_b, tiles_b, rows, cols, st_b, end_b)
    p, q = _padded(p_b, cols, tiles_b), _padded(pend, cols, tiles_b)
    record_row(out, 1, n_b, ties, p, q, _offsets(cols), cols, rows * cols)
    return n_a + n_b - 2


@nb.njit(nogil=True, cache=True)
def run_pairs(code, rows, cols, starts, ranks, order_table, cells, out):
    """Every pair (``starts[i]``, ``ranks[i]``) into row ``i`` of ``out``
    (:class:`knight.engine.layout.Outcomes`): rule ``code`` (fixed, pohl, roth or corner) with
    the tie order of row ``ranks[i]`` of ``order_table`` (uint8[40320, 8]). ``cells`` as
    in :func:`run_batch` (with ``cells.second``, fixed and roth walk two pairs at a
    time). Returns the knight steps."""
    if cells.tiles.shape[0]:
        return _run_pairs(code, rows, cols, starts, ranks, order_table, cells, out, cells.tiles)
    return _run_pairs(code, rows, cols, starts, ranks, order_table, cells, out, None)


@nb.njit(nogil=True, cache=True)
def _run_pairs(code, rows, cols, starts, ranks, order_table, cells, out, tiles):
    deg = cells.deg
    size = rows * cols
    padded_offsets = _offsets(cols)
    offsets = padded_offsets if tiles is None else np.arange(8, dtype=np.int64)
    tc = 0 if tiles is None else tile_cols(cols)
    roth = _roth_key(code, rows, cols, cells.classes, tc)
    no_path = np.empty(0, np.int32)
    no_switch = np.full(1, -1, np.int64)
    # Each run's order is copied into these (a view of the table would count a reference).
    order, order2 = np.empty((1, 8), np.uint8), np.empty((1, 8), np.uint8)
    one = _new_walker(deg, offsets, roth, Schedule(order, no_switch), np.uint64(0))
    two = _new_walker(cells.second, offsets, roth, Schedule(order2, no_switch), np.uint64(0))
    fill_degrees(deg, rows, cols, tc)
    deg0 = deg.copy()
    steps = 0
    total = starts.shape[0]
    first = 0
    if _pairable(code) and cells.second.shape[0] > 0:
        first = total - total % 2
        for i in range(0, first, 2):
            deg[:] = deg0
            cells.second[:] = deg0
            for k in range(8):
                order[0, k] = order_table[ranks[i], k]
                order2[0, k] = order_table[ranks[i + 1], k]
            p_a, p_b = _cell(starts[i], cols, tiles), _cell(starts[i + 1], cols, tiles)
            steps += _two_rows(code, one, two, tiles, rows, cols, p_a, p_b, out, i)
    for i in range(first, total):
        if i:
            deg[:] = deg0
        p0 = _cell(starts[i], cols, tiles)
        for k in range(8):
            order[0, k] = order_table[ranks[i], k]
        n, ties, pend = _walk(code, one, tiles, rows, cols, no_path, _begin(p0, no_path))
        steps += n - 1
        record_row(out, i, n, ties, _padded(p0, cols, tiles), _padded(pend, cols, tiles), padded_offsets, cols, size)
    return steps


def in_tiles(board: Board, code: int) -> bool:
    """Whether the kernel stores ``board`` in tiles for the rule of code ``code``: for
    squirrel-cull from :data:`knight.engine.layout.TILED_ROWS` rows: Squirrel and Cull's
    orders circle the board, so a row-by-row board outgrows the cache, where tiles keep
    eight rows in a cache line. The other rules' runs gain nothing in tiles and stay row
    by row (``python benchmarks/bench_rules.py --layouts``; docs/performance.md)."""
    return bool(REGISTRY[code].switches_orders) and tiled(board.rows)


def cells_to_squares(cells, cols: int, tiles: bool) -> np.ndarray:
    """Board square indices (int64) of the rule kernel's cells on a board of ``cols``
    columns, row by row or in tiles (``tiles``)."""
    p = np.asarray(cells, dtype=np.int64)
    if not tiles:
        pr, pc = np.divmod(p, cols + 4)
    else:
        pr, pc = tiled_coords.py_func(p, tile_cols(cols))
    return (pr - 2) * cols + pc - 2


def squares_to_cells(squares, cols: int, tiles: bool) -> np.ndarray:
    """The rule kernel's cells (int64) of board square indices: the inverse of
    :func:`cells_to_squares`."""
    r, c = np.divmod(np.asarray(squares, dtype=np.int64), cols)
    if not tiles:
        return (r + 2) * (cols + 4) + c + 2
    return tiled_cell.py_func(r + 2, c + 2, tile_cols(cols))


#: Boards of at least this many squares walk their runs two at a time (:func:`_walk_two`).
#: On smaller ones a run is a few dozen steps, and starting and ending two runs side by
#: side costs more than the overlap gains (``bench_kernel.py --two``; the figures are on
#: the performance page).
TWO_FROM = 64


def _two_at_a_time(board: Board, code: int, runs: int) -> bool:
    """Whether ``runs`` runs of the rule of code ``code`` on ``board`` go two at a time."""
    return runs > 1 and pairs_walk_two(code) and board.size >= TWO_FROM


def board_cells(board: Board, code: int, runs: int = 1) -> Cells:
    """The :class:`Cells` of ``board`` for ``runs`` runs of the rule of code ``code``, in
    the layout of :func:`in_tiles` (uninitialised degrees; the kernels fill them), with
    ``second`` when the runs go two at a time (:func:`pairs_walk_two`, from
    :data:`TWO_FROM` squares)."""
    tiles = in_tiles(board, code)
    n = cell_count(board.rows, board.cols, tiles)
    return Cells(
        np.empty(n, np.int8),
        np.zeros(n if KEY_OF[code] == ROTH else 0, np.int8),
        tile_steps(board.cols) if tiles else np.empty(0, np.int64),
        np.empty(n if _two_at_a_time(board, code, runs) else 0, np.int8),
    )


def board_bytes(board: Board, code: int, runs: int = 1) -> int:
    """Bytes of the board storage (:class:`Cells`, :func:`board_cells`) of a call that
    walks ``runs`` runs (attempts included) of the rule of code ``code`` on ``board``: the
    degrees, their initial copy (more than one run), the second run's degrees (runs two
    at a time) and Roth's classes (roth, roth-random).

    >>> board_bytes(Board(8, 8), rule_code("roth"), runs=10)  # 12 x 12 padded cells, 4 copies
    576
    """
    n = cell_count(board.rows, board.cols, in_tiles(board, code))
    return n * (1 + (runs > 1) + _two_at_a_time(board, code, runs) + int(KEY_OF[code] == ROTH))


def pairs_walk_two(code: int) -> bool:
    """Whether runs of the rule of code ``code`` go two at a time (:func:`_walk_two`):
    fixed, roth, squirrel-cull, random and roth-random. (pohl, corner and pohl-random
    narrow a tie by a search of their own; random-order's attempts end at random.)"""
    return bool(_pairable(code))


# --- Python API -----------------------------------------------------------------
def _order_moves(order) -> np.ndarray:
    if isinstance(order, str):
        return parse_order(order)
    rank = int_arg("order rank", order, 0, N_ORDERS - 1)
    return all_orders()[rank]


def _schedule(board: Board, code: int, order) -> tuple[np.ndarray, np.ndarray, int]:
    """(orders, switches as cells, order rank or -1) of a rule on ``board``."""
    if REGISTRY[code].switches_orders:
        check_board(board.rows, board.cols)
        orders, switches = schedule(board.rows)
        on = switches >= 0
        switches[on] = squares_to_cells(switches[on], board.cols, in_tiles(board, code))
        return orders, switches, -1
    moves = _order_moves(order)
    used = -1 if REGISTRY[code].random else order_rank(moves)
    return np.ascontiguousarray(moves[None, :]), np.full(1, -1, np.int64), used


def _starts(board: Board, starts) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(starts))
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"starts must be square indices (integers), got {starts!r}")
    bad = (arr < 0) | (arr >= board.size)
    if bad.any():
        raise ValueError(f"start {int(arr[bad][0])} is off the {board.name} board")
    return np.ascontiguousarray(arr, dtype=np.uint32)


def _trials(trials) -> np.ndarray:
    if trials is None:
        return np.zeros(1, np.uint32)
    if isinstance(trials, Integral) and not isinstance(trials, bool):
        if trials < 1:
            raise ValueError(f"trials must be at least 1, got {trials}")
        return np.arange(int(trials), dtype=np.uint32)
    arr = np.atleast_1d(np.asarray(trials))
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"trials must be a count or trial numbers, got {trials!r}")
    low, high = LIMITS["trial"]
    if arr.size and (arr.min() < low or arr.max() > high):
        raise ValueError(f"trial numbers must be in {low}..{high}, got {trials!r}")
    return np.ascontiguousarray(arr, dtype=np.uint32)


def _prepare(board, rule, order, seed, retries):
    if not isinstance(board, Board):
        raise ValueError(f"board must be a knight.core.board.Board, got {board!r}")
    code = rule_code(rule)
    seed = check_setting("seed", seed)
    retries = check_setting("retries", retries)
    orders, switches, rank = _schedule(board, code, order)
    return code, seed, retries, orders, switches, rank


def _call(board, code, starts, trials, orders, switches, seed, retries, path):
    n = len(starts) * len(trials)
    run_outcomes = Outcomes.empty(n, np.uint32)
    out = {
        "start": np.repeat(starts, len(trials)),
        "trial": np.tile(trials, len(starts)),
        "attempts": np.empty(n, np.uint16),
        "order": np.empty(n, np.int32),
        **run_outcomes._asdict(),
    }
    if n == 0:
        out["steps"] = np.zeros(1, np.int64)
        return out
    rule = Rule(code, Schedule(orders, switches), all_orders(), np.uint64(seed), retries)
    cells = board_cells(board, code, n if path.size == 0 else 1)
    steps = run_batch(
        rule, board.rows, board.cols, starts, trials, cells, path, run_outcomes, out["attempts"], out["order"]
    )
    out["steps"] = np.array([steps], np.int64)
    return out


def pair_outcomes(board: Board, rule: str, starts, ranks) -> dict[str, np.ndarray]:
    """Outcomes of the pairs (``starts[i]``, ``ranks[i]``): ``rule`` (fixed, pohl, roth,
    corner) under the tie order of rank ``ranks[i]``, as arrays ``visited`` u32, ``end``
    u32, ``complete``, ``closed`` (bool), ``ties`` u16 (residual tie points) indexed like
    the pairs, and ``steps`` (int64[1]). Brute force over (start, order) pairs: the
    independent check of the tie-tree engine."""
    code = rule_code(rule)
    if not REGISTRY[code].takes_orders:
        raise ValueError(f"rule {rule!r}: pairs of (start, tie order) need one of {', '.join(ORDER_RULES)}")
    starts = _starts(board, starts)
    ranks = np.ascontiguousarray(check_ranks(np.atleast_1d(ranks)))
    if ranks.shape != starts.shape:
        raise ValueError("starts and ranks must have the same length")
    out = Outcomes.empty(len(starts))
    steps = 0
    if len(starts):
        steps = run_pairs(
            code, board.rows, board.cols, starts, ranks, all_orders(), board_cells(board, code, len(starts)), out
        )
    return {**out._asdict(), "steps": np.array([steps], np.int64)}


def outcomes(
    board: Board, rule: str, starts, trials=None, *, order="12345678", seed=0, retries=1
) -> dict[str, np.ndarray]:
    """Outcomes of ``rule`` for every start x every trial, start-major.

    ``starts``: board square indices; ``trials``: ``None`` (trial 0), a count ``t``
    (trials ``0..t-1``) or explicit trial numbers. Row ``a * len(trials) + b`` is start
    ``starts[a]``, trial ``trials[b]``; the trial number only matters to random rules
    (with a given seed, a row is the same however the pairs are split into calls).
    ``order`` (string or rank) is the tie order of fixed, pohl, roth and corner (checked
    but unused by the other rules); ``retries`` bounds random-order's attempts.

    Returns numpy arrays indexed like the rows: ``start`` u32, ``trial`` u32,
    ``attempts`` u16, ``order`` int32 (rank of the tie order used: the rule's, the last
    attempt's for random-order, -1 for random and squirrel-cull), ``visited`` u32,
    ``end`` u32 (square index), ``complete``, ``closed`` (bool), ``ties`` u32 (residual
    tie points of the last attempt: steps where two or more candidates were left after
    the rule's own key), and ``steps`` (int64[1]: knight steps over all attempts).
    """
    code, seed, retries, orders, switches, rank = _prepare(board, rule, order, seed, retries)
    starts = _starts(board, starts)
    trials = _trials(trials)
    out = _call(board, code, starts, trials, orders, switches, seed, retries, np.empty(0, np.int32))
    if not ATTEMPTS[code]:
        out["order"][:] = rank
    return out


def two_board_outcomes(boards, rule: str, starts, trials=(0, 0), *, order="12345678", seed=0) -> list[dict]:
    """One run on each of two boards, walked side by side (:func:`_walk_two`): from square
    ``starts[i]`` of ``boards[i]``, trial ``trials[i]``. Returns two dicts, each as
    :func:`outcomes` returns for its board. Rows as from two calls of :func:`outcomes`;
    rules that :func:`pairs_walk_two` refuses, and two boards of different layouts
    (:func:`in_tiles`), are two such calls.

    >>> a, b = two_board_outcomes([Board(5, 5), Board(6, 6)], "squirrel-cull", [0, 0])
    >>> int(a["visited"][0]), bool(b["complete"][0]), int(b["steps"][0])
    (25, True, 35)
    """
    if len(boards) != 2 or len(starts) != 2 or len(trials) != 2:
        raise ValueError("two_board_outcomes takes two boards, two starts and two trials")
    calls = [_prepare(b, rule, order, seed, 1) for b in boards]
    code = calls[0][0]
    if not pairs_walk_two(code) or in_tiles(boards[0], code) != in_tiles(boards[1], code):
        return [outcomes(b, rule, [s], [t], order=order, seed=seed) for b, s, t in zip(boards, starts, trials)]
    ss = [_starts(b, [s]) for b, s in zip(boards, starts)]
    ts = [_trials([t]) for t in trials]
    rules = [Rule(code, Schedule(c[3], c[4]), all_orders(), np.uint64(c[1]), 1) for c in calls]
    out = Outcomes.empty(2, np.uint32)
    runs = [(r, b.rows, b.cols, s[0], t[0], board_cells(b, code)) for r, b, s, t in zip(rules, boards, ss, ts)]
    run_two_boards(*runs, out)
    res = []
    for i in range(2):
        row = {k: v[i : i + 1].copy() for k, v in out._asdict().items()}
        visited = int(row["visited"][0])
        res.append(
            {
                "start": ss[i],
                "trial": ts[i],
                "attempts": np.ones(1, np.uint16),
                "order": np.full(1, calls[i][5], np.int32),
                **row,
                "steps": np.array([visited - 1], np.int64),
            }
        )
    return res


def run(board: Board, start: int, rule: str, *, order="12345678", seed=0, trial=0, retries=1) -> Tour:
    """The run of ``rule`` from square index ``start``, with its path (of the last
    attempt for random-order). ``order`` is the reported tie order: the rule's, the last
    attempt's for random-order, ``None`` for random and squirrel-cull."""
    code, seed, retries, orders, switches, rank = _prepare(board, rule, order, seed, retries)
    starts = _starts(board, [start] if isinstance(start, Integral) else start)
    if len(starts) != 1:
        raise ValueError(f"start must be one square index, got {start!r}")
    trial = check_setting("trial", trial)
    big = cell_count(board.rows, board.cols, in_tiles(board, code)) >= 2**31
    path = np.empty(board.size, np.int64 if big else np.int32)
    out = _call(board, code, starts, np.array([trial], np.uint32), orders, switches, seed, retries, path)
    n = int(out["visited"][0])
    squares = cells_to_squares(path[:n], board.cols, in_tiles(board, code))
    if ATTEMPTS[code]:
        used = order_string(all_orders()[int(out["order"][0])])
    elif not REGISTRY[code].takes_orders:
        used = None
    else:
        used = order_string(orders[0])
    return Tour(
        board, int(starts[0]), used, squares, int(out["ties"][0]), rule=RULES[code], attempts=int(out["attempts"][0])
    )


__all__ = [
    "LIMIT",
    "Rule",
    "Schedule",
    "Cells",
    "cells_to_squares",
    "board_bytes",
    "board_cells",
    "fill_degrees",
    "in_tiles",
    "outcomes",
    "pair_outcomes",
    "run",
    "run_batch",
    "pairs_walk_two",
    "run_pairs",
    "run_two_boards",
    "squares_to_cells",
    "two_board_outcomes",
]
