"""Optimal (fewest half-turn moves) 3x3x3 solutions by IDA*, within a time budget.

Lower bound: the largest of the exact distance to H along each of the three face axes (the phase-1
table, read through the cube rotated by the URF-DLB diagonal rotation) and the exact distance of the
corners alone (a corners x twist table, built on first use). The two-phase solver gives an upper bound
first; when IDA* has ruled out every shorter length that solution is proven optimal. When the budget
runs out first the result says so, with the lower bound reached.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
from solver.compiled import njit

from solver import perm
from solver.search.budget import Budget
from solver.special import store
from solver.special.cube3 import coord, geometry, moves, pruning, solve, symmetry, tables
from solver.special.cube3.cubie import CubieCube
from solver.special.cube3.search import ALLOWED, CLOCK_EVERY, NO_MOVE, now, phase1_distance

_ROTATIONS = tuple(perm.power(geometry.diagonal_rotation(), r) for r in range(3))
# AXIS_MOVE[r, m]: the move m as seen in the cube rotated r times (the cube's view along axis r).
AXIS_MOVE = np.array([[moves.conjugate(m, p) for m in range(moves.N_MOVES)] for p in _ROTATIONS], dtype=np.int64)


def corner_table() -> np.ndarray:
    """[corners * 2187 + twist]: exact moves to solve the corners (built and stored on first use)."""
    def build(stop):
        two_phase = tables.get_tables()
        depth = np.empty(coord.N_CORNERS * coord.N_TWIST, dtype=np.uint8)
        pruning.fill_product(depth, two_phase.corners_move, two_phase.twist_move, stop)
        return depth

    name = "corner_depth"
    return np.asarray(store.load_or_build(tables.KIND, name, {"table": name, "version": tables.VERSION}, build))


class OptimalResult(NamedTuple):
    moves: list[str]
    optimal: bool       # False when the budget ran out before the search proved it
    lower_bound: int    # no solution is shorter than this


@njit(cache=True, nogil=True)
def _bound(T, corner_depth, fl, tw, sl, corners, d):
    h = np.int64(corner_depth[corners[d] * coord.N_TWIST + tw[0, d]])
    for r in range(3):
        h = max(h, phase1_distance(T, fl[r, d], sl[r, d], tw[r, d]))
    return h


@njit(cache=True, nogil=True)
def search_length(T, corner_depth, root, length, path, deadline, stop, nodes):
    """Look for a solution of exactly `length` moves; root[r] = (flip, twist, slice_sorted) of the cube
    seen along axis r, root[3, 0] = corners. Returns 1 (found, in path), 0 (none) or -1 (deadline,
    or the caller raised stop[0])."""
    fl = np.empty((3, length + 1), np.int64)
    tw = np.empty((3, length + 1), np.int64)
    sl = np.empty((3, length + 1), np.int64)
    corners = np.empty(length + 1, np.int64)
    nxt = np.empty(length + 1, np.int64)
    for r in range(3):
        fl[r, 0], tw[r, 0], sl[r, 0] = root[r, 0], root[r, 1], root[r, 2]
    corners[0] = root[3, 0]
    if _bound(T, corner_depth, fl, tw, sl, corners, 0) > length:
        return 0
    d = 0
    nxt[0] = 0
    while d >= 0:
        if nxt[d] == NO_MOVE:
            d -= 1
            continue
        m = nxt[d]
        nxt[d] += 1
        if d > 0 and not ALLOWED[path[d - 1], m]:
            continue
        nodes[0] += 1
        if nodes[0] % CLOCK_EVERY == 0 and (stop[0] or now() > deadline):
            return -1
        for r in range(3):
            a = AXIS_MOVE[r, m]
            fl[r, d + 1] = T.flip_move[fl[r, d], a]
            tw[r, d + 1] = T.twist_move[tw[r, d], a]
            sl[r, d + 1] = T.slice_sorted_move[sl[r, d], a]
        corners[d + 1] = T.corners_move[corners[d], m]
        if _bound(T, corner_depth, fl, tw, sl, corners, d + 1) > length - d - 1:
            continue
        path[d] = m
        if d + 1 == length:
            # Every coordinate 0 (slice edges of all three axes in their exact places) is solved.
            solved = corners[d + 1] == 0
            for r in range(3):
                solved = solved and fl[r, d + 1] == 0 and tw[r, d + 1] == 0 and sl[r, d + 1] == 0
            if solved:
                return 1
            continue
        d += 1
        nxt[d] = 0
    return 0


def solve_optimal(cube: CubieCube, time_limit: float = 60.0,
                  cancel: Callable[[], bool] | None = None, budget: Budget | None = None) -> OptimalResult:
    """The shortest solution if proven within the time limit; otherwise the two-phase solution
    with optimal=False and the lower bound reached. A cancel stops it within about Budget.POLL
    seconds (Cancelled before the two-phase answer, else that answer, unproven).
    `budget` replaces time_limit and cancel."""
    budget = budget or Budget(time_limit=time_limit, cancel=cancel)
    cube.check()
    left = budget.remaining()
    # its own stop flag: its (shorter) time limit must not stop the optimal search below
    upper = solve.solve_cubies(cube, budget=Budget(time_limit=1.0 if left is None else min(1.0, left / 10),
                                                   cancel=budget.cancel))
    if not upper:
        return OptimalResult([], True, 0)
    two_phase = tables.get_tables()
    corner_depth = corner_table()
    root = np.zeros((4, 3), dtype=np.int64)
    for r, p in enumerate(_ROTATIONS):
        flip, twist, slice_sorted = solve.phase1_coordinates(solve.conjugate(cube, symmetry.cubie_symmetry(p)))[:3]
        root[r] = flip, twist, slice_sorted
    root[3, 0] = coord.get_coordinate(coord.CORNERS, *cube.arrays())
    path = np.empty(32, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    deadline = budget.kernel_deadline()
    with budget.watching() as stop:
        for length in range(1, len(upper)):
            budget.report(phase="optimal", depth=length, nodes=int(nodes[0]), best=len(upper))
            found = search_length(two_phase, corner_depth, root, length, path, deadline, stop, nodes)
            if found == 1:
                result = [int(m) for m in path[:length]]
                if not moves.apply(cube, result).is_solved():
                    raise AssertionError(f"cube3: the optimal search returned a non-solution {moves.names(result)}")
                return OptimalResult(moves.names(result), True, length)
            if found == -1 or budget.cancelled():
                return OptimalResult(upper, False, length)
    return OptimalResult(upper, True, len(upper))


def warm_up() -> None:
    """Load the corner table (built on a machine's first start) and compile the optimal search."""
    solve_optimal(moves.apply(CubieCube.solved(), moves.parse("R U")), time_limit=10.0)
