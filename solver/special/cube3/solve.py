"""Solve a 3x3x3 with the two-phase algorithm within a time budget, returning the shortest solution
found (SiGN half-turn-metric move names).

The search runs on six versions of the cube at once: the cube and its inverse, each seen along the
three face axes (conjugated by the 120-degree rotation about the URF-DLB diagonal). They have solutions
of the same lengths, mapped back to the cube's own by conjugating the moves back (and, for the
inverse, reversing and inverting them), but their phase 1 and phase 2 split differently, so short
solutions turn up sooner.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from solver import perm
from solver.search.budget import Budget, Cancelled
from solver.special.cube3 import coord, facelet, geometry, moves, search, symmetry
from solver.special.cube3.cubie import CubieCube
from solver.special.cube3.tables import get_tables

_ROTATION = geometry.diagonal_rotation()
_ROTATIONS = tuple(perm.power(_ROTATION, r) for r in range(3))
_CUBIE_ROTATIONS = tuple(symmetry.cubie_symmetry(p) for p in _ROTATIONS)
_CUBIE_UD_SYMMETRIES = tuple(symmetry.cubie_symmetry(p) for p in symmetry.UD_STICKER_PERMS)


def conjugate(cube: CubieCube, s: symmetry.CubieSymmetry) -> CubieCube:
    """The cube seen through a whole-cube symmetry (see symmetry.py)."""
    out = tuple(np.empty(n, dtype=np.int64) for n in (8, 8, 12, 12))
    symmetry.conjugate_into(*cube.arrays(), s.corner_map, s.corner_twist, s.sign, s.edge_map, s.edge_flip, *out)
    return CubieCube.from_arrays(*out)


def phase1_coordinates(cube: CubieCube) -> list[int]:
    """(flip, twist, slice_sorted, u_edges, d_edges, corners), the order the compiled search reads."""
    arrays = cube.arrays()
    return [coord.get_coordinate(kind, *arrays) for kind in
            (coord.FLIP, coord.TWIST, coord.SLICE_SORTED, coord.U_EDGES, coord.D_EDGES, coord.CORNERS)]


def _variants(cube: CubieCube) -> list[tuple[CubieCube, int, bool]]:
    """The six versions, less those that are a U-D-axis symmetry of an earlier one (a symmetric
    cube's versions often are): their searches would be the same search again."""
    seen, result = set(), []
    for inverted, c in ((False, cube), (True, cube.inverse())):
        for r in range(3):
            version = conjugate(c, _CUBIE_ROTATIONS[r])
            images = {conjugate(version, s) for s in _CUBIE_UD_SYMMETRIES}
            if not images & seen:
                seen |= images
                result.append((version, r, inverted))
    return result


def stabiliser(cube: CubieCube) -> int:
    """Bit mask of the U-D-axis symmetries other than the identity that fix the cube."""
    return sum(1 << s for s, sym in enumerate(_CUBIE_UD_SYMMETRIES) if s and conjugate(cube, sym) == cube)


def _map_back(solution: Sequence[int], rotation: int, inverted: bool) -> list[int]:
    back = perm.inverse(_ROTATIONS[rotation])
    result = [moves.conjugate(m, back) for m in solution]
    if inverted:
        result = [moves.inverse(m) for m in reversed(result)]
    return result


def solve_cubies(cube: CubieCube, time_limit: float = 1.0, max_length: int | None = None,
                 cancel: Callable[[], bool] | None = None, budget: Budget | None = None) -> list[str]:
    """A solution of the cube, as short as the search finds within the time limit (it always
    returns one; the first comes within milliseconds). With a target length (max_length), stop as
    soon as a solution of at most that many moves is found. A cancel stops the search within
    about budget.POLL seconds: Cancelled when no solution was found yet, else the best one.
    `budget` replaces time_limit, max_length and cancel."""
    budget = budget or Budget(time_limit=time_limit, cancel=cancel, max_length=max_length)
    cube.check()
    if cube.is_solved():
        return []
    tables = get_tables()
    deadline = budget.kernel_deadline()
    variants = _variants(cube)
    roots = np.array([phase1_coordinates(v) for v, _, _ in variants], dtype=np.int64)
    stabilisers = np.array([stabiliser(v) for v, _, _ in variants], dtype=np.int64)
    best = np.array([search.NO_SOLUTION, -1], dtype=np.int64)
    solution = np.empty(32, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    stop_at = -1 if budget.max_length is None else budget.max_length
    togo1 = 0
    with budget.watching() as stop:
        while togo1 < best[0]:
            if search.search_phase1_length(tables, roots, stabilisers, togo1, best, stop_at, deadline, stop,
                                           solution, nodes):
                break
            budget.report(phase=1, depth=togo1, nodes=int(nodes[0]),
                          best=None if best[0] == search.NO_SOLUTION else int(best[0]))
            if budget.cancelled() or (best[0] < search.NO_SOLUTION and budget.out_of_time()):
                break
            togo1 += 1
    if best[0] == search.NO_SOLUTION:
        raise Cancelled("cube3: search cancelled before a solution was found")
    _, rotation, inverted = variants[best[1]]
    result = _map_back(solution[:best[0]], rotation, inverted)
    if not moves.apply(cube, result).is_solved():
        raise AssertionError(f"cube3: the two-phase search returned a non-solution {moves.names(result)}")
    return moves.names(result)


def warm_up() -> None:
    """Load the tables and compile (or load from numba's cache) the search kernels, e.g. before a
    worker pool forks, so that the first real solve is fast."""
    # a scramble whose first answer is not the last the search looks at: its clock (an object-mode
    # block, compiled when first run) is read after it, as in every real solve
    solve_cubies(moves.apply(CubieCube.solved(), moves.parse("R U F D L B R2 U2 F2 D' L' B'")), time_limit=0.0)


def solve_facelets(state: str | Sequence[str], time_limit: float = 1.0, max_length: int | None = None,
                   cancel: Callable[[], bool] | None = None, budget: Budget | None = None) -> list[str]:
    """solve_cubies for a sticker state of the catalog's 3x3x3 (54 colours numbered as its net; faces
    are recognised by their centre colours)."""
    return solve_cubies(facelet.to_cubies(state), time_limit=time_limit, max_length=max_length, cancel=cancel,
                        budget=budget)
