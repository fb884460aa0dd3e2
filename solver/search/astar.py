"""A* over pieces: the open list ordered by g + h with the pattern-database bound, every reached
state kept (so for small and medium spaces; IDA* is the memory-flat alternative). Optimal because
the bound is admissible and consistent (each database is an exact distance in a projection)."""

from __future__ import annotations

import heapq

import numpy as np

from solver.search.budget import Budget
from solver.search.ida import Heuristic, bound_of
from solver.search.kernels import apply_move, is_goal, occupancy, puzzle_arrays, slot_view
from solver.search.ranking import MAX_SLOTS

CHECK_EVERY = 2048


def astar(model, h: Heuristic, loc: np.ndarray, goal_views: np.ndarray, budget: Budget):
    """(move indices or None, states expanded). No move pruning: the closed set already drops
    repeated states, and pruning by the last move could lose the only optimal path to one."""
    pz = puzzle_arrays(model)
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    acc = np.zeros(max(h.n_sets, 1), dtype=np.int64)
    every = np.arange(model.n_pieces, dtype=np.int32)
    occ = np.empty(model.n_pieces, dtype=np.int32)
    n_moves = len(model.move_names)

    def key(x):
        return slot_view(x, pz.piece_orbit, pz.piece_class, pz.orbit_n, pz.orbit_k, pz.orbit_base, pz.orbit_slot).tobytes()

    def lower(x):
        return int(bound_of(x, h.factors, h.groups, h.pieces, h.bodies, h.span, h.bits, h.sets, h.n_sets, work, acc))

    start = key(loc)
    parent = {start: (None, -1)}  # state -> (previous state, move)
    best_g = {start: 0}
    locs = {start: loc.copy()}
    heap = [(lower(loc), 0, 0, start)]
    tie = 0
    expanded = 0
    while heap:
        f, _, g, s = heapq.heappop(heap)
        if g > best_g[s]:
            continue
        cur = locs[s]
        if is_goal(pz, cur, goal_views):
            moves = []
            while parent[s][0] is not None:
                moves.append(parent[s][1])
                s = parent[s][0]
            return moves[::-1], expanded
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            budget.tick(expanded, g, f)
        occupancy(pz, cur, every, occ)
        for m in range(n_moves):
            nxt = cur.copy()
            if not apply_move(pz, cur, nxt, m, every, occ):
                continue
            t = key(nxt)
            if t in best_g and best_g[t] <= g + 1:
                continue
            best_g[t] = g + 1
            parent[t] = (s, m)
            locs[t] = nxt
            tie += 1
            heapq.heappush(heap, (g + 1 + lower(nxt), -tie, g + 1, t))
    return None, expanded
