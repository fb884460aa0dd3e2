"""The compiled two-phase search (Kociemba): phase 1 brings a cube into the subgroup
H = <U, D, R2, L2, F2, B2> (twist, flip and slice solved), phase 2 solves it inside H. Phase 1 is an
iterative-deepening search over exact distances to H; every phase-1 path of the current length that
ends in H is handed to a phase-2 IDA* limited so that only shorter solutions than the best one so far
are accepted. The driver (solve.py) deepens phase 1 step by step until the budget runs out.

Moves are numbered as in moves.py. Both searches keep an explicit stack (no recursion).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from solver.search.budget import CANCELLED
from solver.special.cube3 import moves, symmetry
from solver.special.cube3.coord import N_FLIP, N_PERM4, N_TWIST, N_UD_EDGES, ud_edges_from_layers

NO_MOVE = moves.N_MOVES
NO_SOLUTION = 99
# Phase 2 is cut at this length: past it, trying further phase-1 solutions finds short solutions sooner.
MAX_PHASE2 = 10
# A phase-1 path that is already in H may leave and re-enter H only if at least this many moves remain
# (fewer could only undo itself, which shorter phase-1 paths already cover).
REENTER_H = 5
CLOCK_EVERY = 4096


def _allowed_pairs() -> np.ndarray:
    """allowed[previous, next]: never the same face twice in a row, and of two opposite faces (which
    commute) only the order U before D, R before L, F before B."""
    allowed = np.ones((moves.N_MOVES + 1, moves.N_MOVES), dtype=np.bool_)
    for prev in range(moves.N_MOVES):
        for m in range(moves.N_MOVES):
            if moves.face(m) == moves.face(prev) or moves.face(prev) == moves.face(m) + 3:
                allowed[prev, m] = False
    return allowed


ALLOWED = _allowed_pairs()
PHASE2_MOVES = np.array(moves.PHASE2_MOVES, dtype=np.int64)
IS_PHASE2 = np.isin(np.arange(moves.N_MOVES), PHASE2_MOVES)
# SYM_MOVES[s, m]: the move m becomes seen through U-D-axis symmetry s (symmetry.UD_STICKER_PERMS[s];
# 0 is the identity).
SYM_MOVES = np.array([[moves.conjugate(m, p) for m in range(moves.N_MOVES)] for p in symmetry.UD_STICKER_PERMS],
                     dtype=np.int64)


@njit(cache=True)
def symmetric_duplicate(fixing, m):
    """Whether a symmetry of bit mask `fixing` (symmetries that fix the cube and the path so far) takes
    move m to a lower-numbered move. Such a path and its image reach cubes that are the same up to
    symmetry, so only the lowest is searched (sound with ALLOWED, which puts lower faces first)."""
    s = 1
    while fixing >> s:
        if (fixing >> s) & 1 and SYM_MOVES[s, m] < m:
            return True
        s += 1
    return False


@njit(cache=True)
def still_fixing(fixing, m):
    """The symmetries of `fixing` that also fix move m."""
    out = 0
    s = 1
    while fixing >> s:
        if (fixing >> s) & 1 and SYM_MOVES[s, m] == m:
            out |= 1 << s
        s += 1
    return out


@njit(cache=True)  # object mode inside: it takes the interpreter lock anyway
def now():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, nogil=True)
def phase1_distance(T, flip, slice_sorted, twist):
    flipslice = slice_sorted // N_PERM4 * N_FLIP + flip
    return np.int64(T.phase1_depth[np.int64(T.flipslice_class[flipslice]) * N_TWIST
                                   + T.twist_conj[twist, T.flipslice_sym[flipslice]]])


@njit(cache=True, nogil=True)
def phase2_distance(T, corners, ud_edges, slice_sorted):
    a = np.int64(T.phase2_depth[np.int64(T.corner_class[corners]) * N_UD_EDGES
                                + T.ud_edges_conj[ud_edges, T.corner_sym[corners]]])
    b = np.int64(T.cornslice_depth[np.int64(corners) * N_PERM4 + slice_sorted])
    return max(a, b)


@njit(cache=True, nogil=True)
def phase2(T, corners, ud_edges, slice_sorted, last, limit, path, start):
    """Shortest phase-2 solution of at most `limit` moves, written to path[start:]; its length, or -1."""
    h = phase2_distance(T, corners, ud_edges, slice_sorted)
    if h > limit:
        return -1
    if h == 0:
        return 0
    c = np.empty(limit + 1, np.int64)
    u = np.empty(limit + 1, np.int64)
    s = np.empty(limit + 1, np.int64)
    nxt = np.empty(limit + 1, np.int64)
    for togo in range(h, limit + 1):
        d = 0
        c[0], u[0], s[0], nxt[0] = corners, ud_edges, slice_sorted, 0
        while d >= 0:
            if nxt[d] == len(PHASE2_MOVES):
                d -= 1
                continue
            k = nxt[d]
            nxt[d] += 1
            m = PHASE2_MOVES[k]
            if not ALLOWED[last if d == 0 else path[start + d - 1], m]:
                continue
            c2 = T.corners_move[c[d], m]
            u2 = T.ud_edges_move[u[d], k]
            s2 = T.slice_sorted_move[s[d], m]
            if phase2_distance(T, c2, u2, s2) > togo - d - 1:
                continue
            path[start + d] = m
            if d + 1 == togo:
                return togo
            d += 1
            c[d], u[d], s[d], nxt[d] = c2, u2, s2, 0
    return -1


@njit(cache=True, nogil=True)
def _finish(T, root, path, togo1, slice_sorted, best, variant, max_length, solution):
    """A phase-1 path of length togo1 reached H: try phase 2 within the length still worth having.
    Returns True when the result is short enough to stop."""
    limit = min(best[0] - 1 - togo1, MAX_PHASE2)
    if limit < 0:
        return False
    corners, u_edges, d_edges = root[5], root[3], root[4]
    for i in range(togo1):
        corners = T.corners_move[corners, path[i]]
        u_edges = T.u_edges_move[u_edges, path[i]]
        d_edges = T.d_edges_move[d_edges, path[i]]
    if T.cornslice_depth[np.int64(corners) * N_PERM4 + slice_sorted] > limit:
        return False
    last = path[togo1 - 1] if togo1 > 0 else NO_MOVE
    n2 = phase2(T, corners, ud_edges_from_layers(u_edges, d_edges), slice_sorted, last, limit, path, togo1)
    if n2 < 0:
        return False
    best[0] = togo1 + n2
    best[1] = variant
    solution[:best[0]] = path[:best[0]]
    return best[0] <= max_length


@njit(cache=True, nogil=True)
def search_phase1_length(T, roots, stabilisers, togo1, best, max_length, deadline, stop, solution, nodes):
    """Every phase-1 path of exactly togo1 moves, for each variant cube roots[v] = (flip, twist,
    slice_sorted, u_edges, d_edges, corners), up to the U-D-axis symmetries that fix the variant
    (bit mask stabilisers[v], see symmetric_duplicate). best = [length, variant] of the best
    solution so far, its moves in solution; updated in place. nodes[0] counts phase-1 nodes.
    Returns True when the search should stop: a solution of at most max_length moves, the deadline
    passed after one, or the caller's stop flag says CANCELLED."""
    path = np.empty(32, np.int64)
    fl = np.empty(togo1 + 1, np.int64)
    tw = np.empty(togo1 + 1, np.int64)
    sl = np.empty(togo1 + 1, np.int64)
    dist = np.empty(togo1 + 1, np.int64)
    nxt = np.empty(togo1 + 1, np.int64)
    fixing = np.empty(togo1 + 1, np.int64)
    for v in range(roots.shape[0]):
        root = roots[v]
        h = phase1_distance(T, root[0], root[2], root[1])
        if h > togo1:
            continue
        if togo1 == 0:
            if _finish(T, root, path, 0, root[2], best, v, max_length, solution):
                return True
            continue
        d = 0
        fl[0], tw[0], sl[0], dist[0], nxt[0], fixing[0] = root[0], root[1], root[2], h, 0, stabilisers[v]
        while d >= 0:
            if nxt[d] == NO_MOVE:
                d -= 1
                continue
            m = nxt[d]
            nxt[d] += 1
            togo = togo1 - d
            if d > 0 and not ALLOWED[path[d - 1], m]:
                continue
            if fixing[d] and symmetric_duplicate(fixing[d], m):
                continue
            if dist[d] == 0 and togo < REENTER_H and IS_PHASE2[m]:
                continue
            nodes[0] += 1
            # out of time only counts once there is an answer; a cancel stops at once
            if nodes[0] % CLOCK_EVERY == 0 and (stop[0] == CANCELLED or (best[0] < NO_SOLUTION and now() > deadline)):
                return True
            f2 = T.flip_move[fl[d], m]
            t2 = T.twist_move[tw[d], m]
            s2 = T.slice_sorted_move[sl[d], m]
            h2 = phase1_distance(T, f2, s2, t2)
            if h2 > togo - 1:
                continue
            path[d] = m
            if togo == 1:
                if _finish(T, root, path, togo1, s2, best, v, max_length, solution):
                    return True
                continue
            d += 1
            fl[d], tw[d], sl[d], dist[d], nxt[d] = f2, t2, s2, h2, 0
            fixing[d] = still_fixing(fixing[d - 1], m) if fixing[d - 1] else 0
    return False
