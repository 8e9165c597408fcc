"""Tie orders: permutations of the eight moves, as strings, ranks and tables.

An order is written as an 8-digit string, highest priority first (``"31245678"``
prefers move 3, then 1, ...). Its rank is its position among the 40,320 strings in
lexicographic order: ``"12345678"`` is 0 and ``"87654321"`` is 40,319.
Internally an order is a ``uint8[8]`` array of 0-based moves in priority order.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np

N_MOVES = 8
N_ORDERS = 40320
_FACT = [1, 1, 2, 6, 24, 120, 720, 5040, 40320]
#: ``LEHMER_WEIGHTS[i]``: (7 - i)!, the weight of position ``i`` of an order in its rank.
LEHMER_WEIGHTS = np.array([_FACT[N_MOVES - 1 - i] for i in range(N_MOVES)], dtype=np.int64)
LEHMER_WEIGHTS.flags.writeable = False
_DIGITS = frozenset("12345678")


def parse_order(text: str) -> np.ndarray:
    """``uint8[8]`` 0-based moves of an order string; rejects non-permutations."""
    s = str(text).strip()
    if len(s) != N_MOVES or set(s) != _DIGITS:
        raise ValueError(f"order {text!r} is not a permutation of 12345678")
    return np.array([int(ch) - 1 for ch in s], dtype=np.uint8)


def order_string(moves) -> str:
    """Order string of 0-based moves in priority order."""
    return "".join(str(int(m) + 1) for m in moves)


def rank(order) -> int:
    """Lexicographic rank of an order (string, or 0-based moves)."""
    moves = parse_order(order) if isinstance(order, str) else [int(m) for m in order]
    left = list(range(N_MOVES))
    r = 0
    for i, m in enumerate(moves):
        pos = left.index(m)
        r += pos * _FACT[N_MOVES - 1 - i]
        left.pop(pos)
    return r


def check_ranks(ranks, name: str = "order rank") -> np.ndarray:
    """``ranks`` (one or many) as int64, each a rank of 0..40,319; ``ValueError`` naming
    ``name`` and the first rank outside. The one check of a rank's range: the public
    functions that take ranks call it, the kernels behind them trust it.

    >>> check_ranks(40320)
    Traceback (most recent call last):
    ValueError: order rank 40320 is outside 0..40319
    """
    arr = np.asarray(ranks)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}s must be integers, got {ranks!r}")
    arr = arr.astype(np.int64)
    bad = (arr < 0) | (arr >= N_ORDERS)
    if bad.any():
        raise ValueError(f"{name} {int(arr[bad].flat[0])} is outside 0..{N_ORDERS - 1}")
    return arr


def unrank(r: int) -> str:
    """Order string of rank ``r`` (0 <= r < 40,320)."""
    r = int(check_ranks(r))
    left = list(range(N_MOVES))
    out = []
    for i in range(N_MOVES):
        q, r = divmod(r, _FACT[N_MOVES - 1 - i])
        out.append(left.pop(q))
    return order_string(out)


@lru_cache(maxsize=1)
def all_orders() -> np.ndarray:
    """``uint8[40320, 8]``: every order's 0-based moves, row = rank."""
    table = np.array(list(permutations(range(N_MOVES))), dtype=np.uint8)
    table.flags.writeable = False
    return table


@lru_cache(maxsize=1)
def priorities() -> np.ndarray:
    """``uint8[40320, 8]``: ``p[rank, m]`` = position of move ``m`` in that order (0 = first)."""
    orders = all_orders()
    prio = np.empty_like(orders)
    np.put_along_axis(prio, orders.astype(np.int64), np.arange(N_MOVES, dtype=np.uint8)[None, :], axis=1)
    prio.flags.writeable = False
    return prio


@lru_cache(maxsize=1)
def order_strings() -> np.ndarray:
    """Every order string, indexed by rank (numpy unicode array)."""
    return np.array(["".join(map(str, p)) for p in permutations(range(1, N_MOVES + 1))])


def ranks_of(moves: np.ndarray) -> np.ndarray:
    """Vectorised rank of ``moves[k, 8]`` (0-based moves) -> ``int64[k]``."""
    moves = np.asarray(moves, dtype=np.int64)
    smaller_later = (moves[:, :, None] > moves[:, None, :]) & np.triu(np.ones((N_MOVES, N_MOVES), dtype=bool), 1)[None]
    lehmer = smaller_later.sum(axis=2)
    return lehmer @ LEHMER_WEIGHTS
