"""Bit helpers for numba kernels and the queens' bitboards.

A board of ``n * n`` squares is a bitboard of ``W = ceil(n*n / 64)`` uint64 words:
square ``s = r * n + c`` is bit ``s % 64`` of word ``s // 64`` (one word for n <= 8).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM ``ctpop``)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM ``cttz``)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(nogil=True, cache=True)
def pop_lowest(bits, d):
    """Remove and return the lowest square of the bitboard ``bits[d]`` (uint64[.., W]), or -1."""
    for w in range(bits.shape[1]):
        if bits[d, w] != np.uint64(0):
            q = 64 * w + np.int64(lowbit_index(bits[d, w]))
            bits[d, w] &= bits[d, w] - np.uint64(1)
            return q
    return -1


@njit(nogil=True, cache=True)
def keep_largest(top, r, g):
    """Insert ``g`` into ``top[:r]``, kept in decreasing order, if it beats ``top[r - 1]``.

    Called on every value of a scan, it leaves the scan's ``r`` largest values in ``top``.
    """
    if g > top[r - 1]:
        i = r - 1
        while i > 0 and top[i - 1] < g:
            top[i] = top[i - 1]
            i -= 1
        top[i] = g


@njit(nogil=True, cache=True)
def bit_stats(x):
    """``(popcount, lowest set bit index)`` of a uint64; a compiled probe for tests."""
    return popcount(x), lowbit_index(x)


def words(n: int) -> int:
    """Number of uint64 words in an ``n x n`` bitboard."""
    return (n * n + 63) // 64


def to_bits(squares, n: int) -> np.ndarray:
    """``uint64[W]`` bitboard of the given square indices."""
    out = np.zeros(words(n), dtype=np.uint64)
    for s in squares:
        out[s // 64] |= np.uint64(1) << np.uint64(s % 64)
    return out


def from_bits(bits: np.ndarray) -> list[int]:
    """Square indices of the set bits of a ``uint64[W]`` bitboard, ascending."""
    out = []
    for w, word in enumerate(bits.tolist()):
        while word:
            low = word & -word
            out.append(64 * w + low.bit_length() - 1)
            word ^= low
    return out


@lru_cache(maxsize=64)
def queen_cover(n: int) -> np.ndarray:
    """``uint64[n*n, W]``: squares covered by a queen on each square, its own included.

    A queen covers its row, column and both diagonals; nothing blocks (docs/conventions.md).
    Covering is symmetric: ``a`` covers ``b`` exactly when ``b`` covers ``a``.
    """
    r, c = np.divmod(np.arange(n * n), n)
    same = (
        (r[:, None] == r[None, :])
        | (c[:, None] == c[None, :])
        | ((r - c)[:, None] == (r - c)[None, :])
        | ((r + c)[:, None] == (r + c)[None, :])
    )
    table = np.zeros((n * n, words(n)), dtype=np.uint64)
    for s in range(n * n):
        table[s] = to_bits(np.flatnonzero(same[s]), n)
    table.flags.writeable = False
    return table


def full_board(n: int) -> np.ndarray:
    """``uint64[W]`` with every square of the ``n x n`` board set."""
    return to_bits(range(n * n), n)
