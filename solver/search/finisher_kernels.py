"""The finisher's compiled scans (`macros.py`, `setups.py`), in a module of their own: the kernels'
cache folder is named by the sources of the modules that define kernels, so the finisher's Python
changes compile nothing."""

from __future__ import annotations

import numpy as np

from solver.search import njit

UNREACHED = -1  # a setup table's first move of a tuple not reached


@njit(nogil=True)
def slots_moved(effects, inverses, x, x_inverse, slot_of_code, limit):
    """Slots moved by [x, y] for each y (row of `effects`), counted up to limit + 1; a slot's codes
    are contiguous."""
    out = np.zeros(effects.shape[0], dtype=np.int32)
    for j in range(effects.shape[0]):
        moved, last = 0, -1
        for c in range(effects.shape[1]):
            if inverses[j, x_inverse[effects[j, x[c]]]] != c and slot_of_code[c] != last:
                moved += 1
                last = slot_of_code[c]
                if moved > limit:
                    break
        out[j] = moved
    return out


@njit(nogil=True)
def grow_setups(inverse, n, length, first, next_, queue, start, end):
    """One depth of the BFS: every tuple one inverse move from queue[start:end] and not reached
    yet gets its first move and next tuple, and is queued. Returns the next depth's span."""
    top = end
    digits = np.empty(length, dtype=np.int64)
    for q in range(start, end):
        t = queue[q]
        rest = t
        for i in range(length - 1, -1, -1):
            digits[i] = rest % n
            rest //= n
        for m in range(inverse.shape[0]):
            before = 0
            for i in range(length):
                before = before * n + inverse[m, digits[i]]
            if first[before] == UNREACHED:
                first[before] = m
                next_[before] = t
                queue[top] = before
                top += 1
    return end, top
