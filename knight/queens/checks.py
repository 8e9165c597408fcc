"""Validation of the queens' parameters: bad values stop early with a clear message."""

from __future__ import annotations

from knight.core.checks import integer as _int

#: Largest board side the N-queens kernel handles (bitmasks of one uint64 word).
MAX_PLACE_N = 32
#: Largest board side the domination search accepts (squares fit int32, sets stay small).
MAX_DOMINATE_N = 64


def check_n(n, *, limit: int) -> int:
    """Board side ``n`` as an int, 1 <= n <= limit."""
    n = _int("n", n)
    if n < 1:
        raise ValueError(f"board side n must be at least 1, got n={n}")
    if n > limit:
        raise ValueError(f"board side n={n} is above the supported maximum {limit}")
    return n


def check_k(k, n: int) -> int:
    """Number of queens ``k`` as an int, 1 <= k <= n*n."""
    k = _int("k", k)
    if k < 1:
        raise ValueError(f"number of queens k must be at least 1, got k={k}")
    if k > n * n:
        raise ValueError(f"k={k} queens do not fit on the {n}x{n} board ({n * n} squares)")
    return k


def check_workers(workers) -> int:
    """Dask worker count as an int >= 1."""
    workers = _int("workers", workers)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got workers={workers}")
    return workers


def check_tasks(tasks) -> int:
    """Number of tasks a search is split into, >= 1."""
    tasks = _int("tasks", tasks)
    if tasks < 1:
        raise ValueError(f"tasks must be at least 1, got tasks={tasks}")
    return tasks
