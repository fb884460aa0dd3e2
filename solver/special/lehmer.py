"""Lehmer ranks: the permutations of 0..n-1 numbered 0..n!-1 in lexicographic order, for the
specialised solvers' complete tables (cube3 coordinates, optimal Loopover)."""

from __future__ import annotations

import numpy as np
from solver.compiled import njit


@njit(cache=True, nogil=True)
def rank_permutation(values, n):
    """Lehmer rank of the order of values[0..n) (n distinct numbers): for each place, how many
    later values are smaller, read as digits of the factorial number system."""
    rank = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if values[j] < values[i]:
                smaller += 1
        rank = rank * (n - i) + smaller
    return rank


@njit(cache=True, nogil=True)
def unrank_permutation(rank, n, out):
    """out[0..n) = the permutation of 0..n-1 with that Lehmer rank."""
    digits = np.empty(n, np.int64)
    for i in range(n - 1, -1, -1):
        digits[i] = rank % (n - i)
        rank //= n - i
    used = np.zeros(n, np.bool_)
    for i in range(n):
        smaller = digits[i]
        for v in range(n):
            if not used[v]:
                if smaller == 0:
                    out[i] = v
                    used[v] = True
                    break
                smaller -= 1
