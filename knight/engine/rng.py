"""Counter-based random numbers for the random tie-break rules.

Every random choice is a pure function of its key, so results do not depend on how
work is split between calls, processes or machines (docs/conventions.md, "Tie-break
rules"). All words are unsigned 64-bit integers; arithmetic wraps modulo 2**64.

- :func:`mix`: SplitMix64's finaliser.
- :func:`stream_key`: the key of one stream, folding the words
  ``(seed, rows, cols, start, trial[, attempt])`` one by one with :func:`fold`.
- :func:`draw`: output ``i`` (0, 1, 2, ...) of a stream.
- :func:`below`: a uniform integer in ``[0, n)`` by rejection: output ``u`` is rejected
  while ``u < 2**64 mod n``; returns the value and the index of the next unused output.

The functions are numba-compiled (``nogil``) and callable from Python with plain
integers ``0 <= x < 2**64``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_ONE = np.uint64(1)


@nb.njit(nb.uint64(nb.uint64), nogil=True, cache=True)
def mix(z):
    """SplitMix64's finaliser of the 64-bit word ``z``."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(nb.uint64(nb.uint64, nb.uint64), nogil=True, cache=True)
def fold(h, w):
    """Fold the word ``w`` into the key ``h``: ``mix(h + GOLDEN + w)``."""
    return mix(h + GOLDEN + w)


@nb.njit(nb.uint64(nb.uint64, nb.uint64, nb.uint64, nb.uint64, nb.uint64), nogil=True, cache=True)
def run_key(seed, rows, cols, start, trial):
    """Key of the stream of run ``(seed, rows, cols, start, trial)``."""
    h = fold(np.uint64(0), seed)
    h = fold(h, rows)
    h = fold(h, cols)
    h = fold(h, start)
    return fold(h, trial)


@nb.njit(nb.uint64(nb.uint64, nb.uint64), nogil=True, cache=True)
def draw(key, i):
    """Output ``i`` (0, 1, 2, ...) of the stream ``key``: ``mix(key + (i + 1) * GOLDEN)``."""
    return mix(key + (i + _ONE) * GOLDEN)


@nb.njit(nb.types.UniTuple(nb.uint64, 2)(nb.uint64, nb.uint64, nb.uint64), nogil=True, cache=True)
def below(key, i, n):
    """Uniform integer in ``[0, n)`` (``n >= 1``) from outputs ``i, i+1, ...`` of stream
    ``key``; returns ``(value, index of the next unused output)``."""
    threshold = (np.uint64(0) - n) % n  # 2**64 mod n
    while True:
        u = draw(key, i)
        i += _ONE
        if u >= threshold:
            return u % n, i


def stream_key(*words: int) -> int:
    """Key of the stream of ``words`` (e.g. seed, rows, cols, start, trial[, attempt])."""
    h = 0
    for w in words:
        h = int(fold(h, w))
    return h


__all__ = ["GOLDEN", "mix", "fold", "run_key", "draw", "below", "stream_key"]
