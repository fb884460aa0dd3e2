"""God's algorithm: with the distance of every state in a full table, an optimal solution is a walk
that always steps to a neighbour one closer to a goal."""

from __future__ import annotations

import numpy as np

from solver.compiled import interpreted
from solver.search import njit
from solver.search.kernels import apply_move, is_goal, occupancy, puzzle_arrays
from solver.search.ranking import BINOM, MAX_SLOTS, rank


@njit(nogil=True)
def _walk(pz, loc, goal_views, factors, groups, pieces, body, bits, n_moves, out):
    """Fill out[] with moves down the table; returns the length, -1 if the state is not in it."""
    work = np.zeros(MAX_SLOTS + 2, dtype=np.int64)
    cur = loc.copy()
    nxt = loc.copy()
    all_pieces = np.arange(loc.shape[0]).astype(np.int32)
    occ = np.empty(loc.shape[0], dtype=np.int32)
    r = rank(cur, factors, groups, pieces, BINOM, work)
    v = body[r] if bits == 8 else (body[r >> 1] >> ((r & 1) << 2)) & 15
    if v == 255:
        return -1
    steps = 0
    while not is_goal(pz, cur, goal_views):
        if v == 0 or steps >= out.shape[0]:
            return -1
        stepped = False
        occupancy(pz, cur, all_pieces, occ)
        for m in range(n_moves):
            if not apply_move(pz, cur, nxt, m, all_pieces, occ):
                continue
            r2 = rank(nxt, factors, groups, pieces, BINOM, work)
            v2 = body[r2] if bits == 8 else (body[r2 >> 1] >> ((r2 & 1) << 2)) & 15
            if v2 == v - 1:
                out[steps] = m
                steps += 1
                v = v2
                cur[:] = nxt
                stepped = True
                break
        if not stepped:
            return -1
    return steps


def walk(model, db, loc: np.ndarray, goal_views: np.ndarray) -> list[int] | None:
    """Optimal move indices from `loc` using an exact full table `db`; None if unreachable."""
    out = np.zeros(256, dtype=np.int64)
    r = db.ranker
    with interpreted():  # a few hundred ranks: less than loading numba and the compiled walk
        n = _walk(puzzle_arrays(model), loc, goal_views, r.factors, r.groups, r.pieces, np.asarray(db.body), db.bits,
                  len(model.move_names), out)
    return None if n < 0 else [int(m) for m in out[:n]]


def summary(distribution: list[int]) -> dict:
    """What `puzzle gods` prints: states per distance, the total, God's number and antipodes."""
    return {
        "distribution": {d: c for d, c in enumerate(distribution)},
        "states": sum(distribution),
        "gods_number": len(distribution) - 1,
        "antipodes": distribution[-1],
    }
