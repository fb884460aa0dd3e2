"""Compiled steps every search shares: applying a move to a loc array (guards included), comparing
with goals, and reading a distance out of a packed table.

`Puzzle` bundles the model's arrays in the order the kernels take them, so a kernel call names one
argument instead of twelve.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

Puzzle = namedtuple(
    "Puzzle",
    "tables case_start guard_start guard_orbit guard_slot guard_ok guard_static "
    "piece_orbit piece_class orbit_n orbit_k orbit_base orbit_slot",
)


def puzzle_arrays(model) -> Puzzle:
    on, ok, ob, os_ = model.orbit_arrays
    return Puzzle(
        model.tables, model.case_start, model.guard_start, model.guard_orbit, model.guard_slot,
        model.guard_ok, model.guard_static, model.piece_orbit, model.piece_class, on, ok, ob, os_,
    )


@nb.njit(cache=True)
def slot_view(loc, piece_orbit, piece_class, on, ok, obase, oslot):
    view = np.empty(loc.shape[0], dtype=np.int32)
    for p in range(loc.shape[0]):
        r = piece_orbit[p]
        c = loc[p] - obase[r]
        view[oslot[r] + c // ok[r]] = piece_class[p] + c % ok[r]
    return view


@nb.njit(cache=True)
def occupancy(pz, loc, tracked, occ):
    """occ[global slot] = the tracked piece there, or -1 (guards read it in one step)."""
    occ[:] = -1
    for i in range(tracked.shape[0]):
        p = tracked[i]
        r = pz.piece_orbit[p]
        occ[pz.orbit_slot[r] + (loc[p] - pz.orbit_base[r]) // pz.orbit_k[r]] = p


@nb.njit(cache=True)
def guard_holds(pz, loc, case, occ):
    """1 when the case's guard holds, 0 when it fails, 2 when it reads a slot whose piece is not
    tracked (a projection cannot tell; searches over projections then allow the case)."""
    if pz.guard_static[case] == 0:
        return 0
    result = 1
    for g in range(pz.guard_start[case], pz.guard_start[case + 1]):
        r = pz.guard_orbit[g]
        p = occ[pz.orbit_slot[r] + pz.guard_slot[g]]
        if p < 0:
            result = 2
        elif not pz.guard_ok[g, pz.piece_class[p] + (loc[p] - pz.orbit_base[r]) % pz.orbit_k[r]]:
            return 0
    return result


@nb.njit(cache=True)
def apply_case(pz, src, dst, case, tracked):
    row = pz.tables[case]
    for i in range(tracked.shape[0]):
        p = tracked[i]
        dst[p] = row[src[p]]


@nb.njit(cache=True)
def apply_move(pz, src, dst, move, tracked, occ):
    """Apply `move` to the tracked pieces (occ: the occupancy of src); False when no case of a
    guarded move applies."""
    for case in range(pz.case_start[move], pz.case_start[move + 1]):
        h = guard_holds(pz, src, case, occ)
        if h == 1:
            apply_case(pz, src, dst, case, tracked)
            return True
    return False


@nb.njit(cache=True)
def is_goal(pz, loc, goal_views):
    view = slot_view(loc, pz.piece_orbit, pz.piece_class, pz.orbit_n, pz.orbit_k, pz.orbit_base, pz.orbit_slot)
    for g in range(goal_views.shape[0]):
        same = True
        for i in range(view.shape[0]):
            if view[i] != goal_views[g, i]:
                same = False
                break
        if same:
            return True
    return False


@nb.njit(cache=True, inline="always")
def nibble(table, r):
    return (table[r >> 1] >> ((r & 1) << 2)) & 15


@nb.njit(cache=True, inline="always")
def entry(table, r, bits):
    if bits == 8:
        return table[r]
    return (table[r >> 1] >> ((r & 1) << 2)) & 15
