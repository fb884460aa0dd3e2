"""Pruning tables: exact distances (in moves of a phase) from the goal of a projection of the cube,
one byte per entry, built by breadth-first search.

The two big tables are reduced by the 16 U-D symmetries: an entry is (class of the outer coordinate,
inner coordinate seen through the symmetry that takes the outer coordinate to its class's
representative). Phase 1: outer = flipslice, inner = twist. Phase 2: outer = corners, inner = ud_edges.
The search goes forward from the goal while the frontier is small and backward (each empty entry looks
for a neighbour on the last level) once most entries are filled. Iterating class by class keeps the
inner coordinate's neighbours inside one small block of the table.
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

UNSEEN = 255


@njit(cache=True, nogil=True)
def _set_with_stabiliser(depth, base, inner, stab, inner_conj_t, value):
    """Set an entry and the entries that are the same cube seen through a symmetry fixing the
    representative; returns how many were newly set."""
    count = 0
    if depth[base + inner] == UNSEEN:
        depth[base + inner] = value
        count += 1
    if stab != 1:
        for k in range(1, 16):
            if (stab >> k) & 1:
                j = base + inner_conj_t[k, inner]
                if depth[j] == UNSEEN:
                    depth[j] = value
                    count += 1
    return count


@njit(cache=True, nogil=True)
def fill_symmetric(depth, n_inner, rep_move, klass, sym, stabiliser, inner_move_t, inner_conj_t, goal_class, stop):
    """BFS over (class, inner) entries (left part-filled when stop[0] is raised). rep_move[c, k]: outer coordinate after move k from class c's
    representative; inner_move_t[k, i]: inner coordinate after move k; inner_conj_t[s, i]: inner
    coordinate seen through symmetry s."""
    n_classes, n_moves = rep_move.shape
    total = n_classes * n_inner
    depth[:] = UNSEEN
    filled = _set_with_stabiliser(depth, goal_class * n_inner, 0, stabiliser[goal_class], inner_conj_t, 0)
    frontier = filled
    next_class = np.empty(n_moves, np.int64)
    next_sym = np.empty(n_moves, np.int64)
    d = 0
    while filled < total and frontier > 0:
        backward = frontier * 4 > total - filled
        frontier = 0
        for c in range(n_classes):
            if stop[0]:
                return
            for k in range(n_moves):
                outer = rep_move[c, k]
                next_class[k] = klass[outer]
                next_sym[k] = sym[outer]
            base = c * n_inner
            for i in range(n_inner):
                v = depth[base + i]
                if backward:
                    if v != UNSEEN:
                        continue
                    for k in range(n_moves):
                        j = next_class[k] * n_inner + inner_conj_t[next_sym[k], inner_move_t[k, i]]
                        if depth[j] == d:
                            depth[base + i] = d + 1
                            frontier += 1
                            break
                elif v == d:
                    for k in range(n_moves):
                        target = next_class[k]
                        inner = inner_conj_t[next_sym[k], inner_move_t[k, i]]
                        if depth[target * n_inner + inner] == UNSEEN:
                            frontier += _set_with_stabiliser(depth, target * n_inner, inner, stabiliser[target],
                                                             inner_conj_t, d + 1)
        filled += frontier
        d += 1


@njit(cache=True, nogil=True)
def fill_product(depth, move_a, move_b, stop):
    """BFS over pairs (a, b) of two coordinates, entry a * len(b) + b, goal (0, 0) (left
    part-filled when stop[0] is raised);
    move_a[a, k], move_b[b, k]: the coordinates after move k."""
    n_b = move_b.shape[0]
    n_moves = move_a.shape[1]
    depth[:] = UNSEEN
    depth[0] = 0
    filled = 1
    d = 0
    while filled < depth.shape[0]:
        count = 0
        for e in range(depth.shape[0]):
            if e & 0xFFFF == 0 and stop[0]:
                return
            if depth[e] != d:
                continue
            a = e // n_b
            b = e % n_b
            for k in range(n_moves):
                f = move_a[a, k] * n_b + move_b[b, k]
                if depth[f] == UNSEEN:
                    depth[f] = d + 1
                    count += 1
        if count == 0:
            break
        filled += count
        d += 1
