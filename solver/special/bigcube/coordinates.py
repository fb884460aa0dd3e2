"""Coordinates of a phase's pieces and their pruning tables, for the phase searches of ida.py.

A coordinate numbers the arrangements of labels on some piece positions that the phase's turns
keep among themselves: which places hold the pieces of a set (labels 0 and 1: C(n, k) values), or
which place holds each of a few marked pieces (8 * 7 * 6 * 5 = 1,680 for four on eight places), or a
whole permutation (8! = 40,320). A turn moves the labels with its positions and may rename them
(`relabel`: a label that names a place of another orbit, as "the slot of this wing's middle edge").
The rank runs label by label over the places the labels before did not take, each a combination
in colex order, so every value in 0 .. size - 1 is an arrangement. A turn's effect on a coordinate is
a move table (size x turns), built once per table by unranking every value.

A pruning table is the exact distance (in the phase's turns, closed under inverses) of every
pair of two coordinates' values (or of one coordinate) to a set of goal pairs, by breadth-first
search layer by layer (`_layer`), as uint8 (UNSEEN where no turn sequence leads).
"""

from __future__ import annotations

from math import comb

import numpy as np

from solver import deadline
from solver.compiled import njit

UNSEEN = 255
_BINOMIAL = np.array([[comb(n, k) for k in range(25)] for n in range(25)], dtype=np.int64)


def arrangement(counts, dest: np.ndarray, relabel: np.ndarray | None = None) -> np.ndarray:
    """The move table (values x turns) of `counts[l]` labels l on len(dest[0]) positions, turn t
    taking the label at position p to dest[t, p] (renamed by relabel[t] when given)."""
    counts = np.asarray(counts, dtype=np.int64)
    if relabel is None:
        relabel = np.tile(np.arange(len(counts)), (len(dest), 1))
    return _move_table(counts, np.asarray(dest, dtype=np.int64), np.asarray(relabel, dtype=np.int64), _BINOMIAL)


def rank(counts, labels) -> int:
    """The value of an arrangement of labels (as `arrangement`'s)."""
    return int(_rank(np.asarray(labels, dtype=np.int64), np.asarray(counts, dtype=np.int64), _BINOMIAL))


def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The move table of the pair (a value, b value) as one coordinate a * |b| + b."""
    return (a[:, None, :].astype(np.int64) * len(b) + b[None, :, :]).reshape(-1, a.shape[1]).astype(np.int32)


def distances(a: np.ndarray, b: np.ndarray | None, goals, shared: int = 0) -> np.ndarray:
    """Exact distances of every pair (value of a, value of b) to the `goals` (pair indices
    a * width + b), over move tables a and b of the same turns (b None: a alone). With `shared`,
    b's values also carry a's leading part (a // shared, as `relative` coordinates of the same
    middle edges do): b's table is over (a // shared) * width + b and its values are taken
    modulo width = shared."""
    if b is None:
        b = np.zeros((1, a.shape[1]), dtype=np.int32)
    width = shared or len(b)
    dist = np.full(len(a) * width, UNSEEN, dtype=np.uint8)
    dist[np.asarray(goals, dtype=np.int64)] = 0
    depth = 0
    while _layer(dist, a, b, width, shared, depth):
        depth += 1
        deadline.check()  # built on the first solve, under its budget
    return dist


@njit(cache=True, nogil=True)
def _layer(dist, a, b, width, shared, depth):
    """Mark depth + 1 on every unseen pair one turn from a pair at `depth`; how many were. Row by
    row: a turn's writes from one row land in one row."""
    found = 0
    for row in range(len(a)):
        lead = row // shared * width if shared else 0
        for col in range(width):
            if dist[row * width + col] != depth:
                continue
            for t in range(a.shape[1]):
                child = np.int64(a[row, t]) * width + b[lead + col, t] % width
                if dist[child] == 255:
                    dist[child] = depth + 1
                    found += 1
    return found


def relative(slots: np.ndarray, places: np.ndarray) -> np.ndarray:
    """The move table of four marked middle edges among 8 slots and their wings on 8 wing places:
    which slots hold the middle edges (70 values) times, for each place, none or which of them
    (1 .. 4 by slot order) its wing belongs to (1,680): 117,600 values, slots * 1680 + wings.
    `slots` and `places` (turns, 8): where each turn takes each slot and each place."""
    return _relative(np.asarray(slots, dtype=np.int64), np.asarray(places, dtype=np.int64), _BINOMIAL)


@njit(cache=True, nogil=True)
def _relative(slots, places, binomial):
    halves = np.array([4, 4], dtype=np.int64)
    marks = np.array([4, 1, 1, 1, 1], dtype=np.int64)
    table = np.empty((70 * 1680, len(slots)), dtype=np.int32)
    held = np.zeros(8, dtype=np.int64)
    labels = np.zeros(8, dtype=np.int64)
    moved_held = np.zeros(8, dtype=np.int64)
    moved = np.zeros(8, dtype=np.int64)
    rename = np.zeros(5, dtype=np.int64)
    for m in range(70):
        _unrank(m, halves, binomial, held)
        for w in range(1680):
            _unrank(w, marks, binomial, labels)
            for t in range(len(slots)):
                moved_held[:] = 0
                for s in range(8):
                    if held[s]:
                        moved_held[slots[t, s]] = 1
                r = 0
                for s in range(8):  # old rank by slot order -> new rank by the new slot order
                    if held[s]:
                        r += 1
                        rename[r] = 1
                        for u in range(slots[t, s]):
                            rename[r] += moved_held[u]
                for p in range(8):
                    moved[places[t, p]] = rename[labels[p]] if labels[p] else 0
                table[m * 1680 + w, t] = _rank(moved_held, halves, binomial) * 1680 + _rank(moved, marks, binomial)
    return table


@njit(cache=True, nogil=True)
def _rank(labels, counts, binomial):
    n = len(labels)
    taken = np.zeros(n, dtype=np.bool_)
    value = 0
    free = n
    for label in range(1, len(counts)):
        r = 0
        i = 0
        k = 0
        for p in range(n):
            if taken[p]:
                continue
            if labels[p] == label:
                k += 1
                r += binomial[i, k]
                taken[p] = True
            i += 1
        value = value * binomial[free, counts[label]] + r
        free -= counts[label]
    return value


@njit(cache=True, nogil=True)
def _unrank(value, counts, binomial, labels):
    n = len(labels)
    ranks = np.zeros(len(counts), dtype=np.int64)
    free = np.zeros(len(counts), dtype=np.int64)
    left = n
    for label in range(1, len(counts)):
        free[label] = left
        left -= counts[label]
    for label in range(len(counts) - 1, 0, -1):
        radix = binomial[free[label], counts[label]]
        ranks[label] = value % radix
        value //= radix
    taken = np.zeros(n, dtype=np.bool_)
    labels[:] = 0
    chosen = np.zeros(n, dtype=np.bool_)
    for label in range(1, len(counts)):
        r = ranks[label]
        chosen[:] = False
        for j in range(counts[label], 0, -1):  # colex: the largest compact index i with C(i, j) <= r
            i = j - 1
            while binomial[i + 1, j] <= r:
                i += 1
            r -= binomial[i, j]
            chosen[i] = True
        i = 0
        for p in range(n):
            if taken[p]:
                continue
            if chosen[i]:
                labels[p] = label
                taken[p] = True
            i += 1


@njit(cache=True, nogil=True)
def _move_table(counts, dest, relabel, binomial):
    size = 1
    free = len(dest[0])
    for label in range(1, len(counts)):
        size *= binomial[free, counts[label]]
        free -= counts[label]
    table = np.empty((size, len(dest)), dtype=np.int32)
    labels = np.zeros(len(dest[0]), dtype=np.int64)
    moved = np.zeros(len(dest[0]), dtype=np.int64)
    for value in range(size):
        _unrank(value, counts, binomial, labels)
        for t in range(len(dest)):
            for p in range(len(labels)):
                moved[dest[t, p]] = relabel[t, labels[p]]
            table[value, t] = _rank(moved, counts, binomial)
    return table
