"""Validation of the queens' parameters, in the one style of :mod:`knight.core.checks`:
a bad value stops early, in one line led by the argument's name."""

from __future__ import annotations

from knight.core.checks import int_arg

#: Largest board side the N-queens kernel handles (bitmasks of one uint64 word).
MAX_PLACE_N = 32
#: Largest board side the domination search accepts (squares fit int32, sets stay small).
MAX_DOMINATE_N = 64


def check_n(n, *, limit: int) -> int:
    """Board side ``n`` as an int, 1 <= n <= limit.

    >>> check_n(40, limit=32)
    Traceback (most recent call last):
    ...
    ValueError: n must be in 1..32, got 40
    """
    return int_arg("n", n, 1, limit)


def check_k(k, n: int) -> int:
    """Number of queens ``k`` as an int, 1 <= k <= n*n.

    >>> check_k(70, 8)
    Traceback (most recent call last):
    ...
    ValueError: k must be at most 64 (the squares of the 8x8 board), got 70
    """
    k = int_arg("k", k, 1)
    if k > n * n:
        raise ValueError(f"k must be at most {n * n} (the squares of the {n}x{n} board), got {k}")
    return k


def check_workers(workers) -> int:
    """Dask worker count as an int >= 1."""
    return int_arg("workers", workers, 1)


def check_tasks(tasks) -> int:
    """Number of tasks a search is split into, >= 1."""
    return int_arg("tasks", tasks, 1)
