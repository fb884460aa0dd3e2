"""Compiled steps every search shares: applying a move to a loc array (guards included), comparing
with goals, and reading a distance out of a packed table.

`Puzzle` bundles the model's arrays in the order the kernels take them, so a kernel call names one
argument instead of twelve.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.compiled import Intrinsic
from solver.search import njit

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


@njit(nogil=True)
def slot_view(loc, piece_orbit, piece_class, on, ok, obase, oslot):
    view = np.empty(loc.shape[0], dtype=np.int32)
    for p in range(loc.shape[0]):
        r = piece_orbit[p]
        c = loc[p] - obase[r]
        view[oslot[r] + c // ok[r]] = piece_class[p] + c % ok[r]
    return view


@njit(nogil=True)
def occupancy(pz, loc, tracked, occ):
    """occ[global slot] = the tracked piece there, or -1 (guards read it in one step)."""
    occ[:] = -1
    for i in range(tracked.shape[0]):
        p = tracked[i]
        r = pz.piece_orbit[p]
        occ[pz.orbit_slot[r] + (loc[p] - pz.orbit_base[r]) // pz.orbit_k[r]] = p


@njit(nogil=True)
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


@njit(nogil=True)
def apply_case(pz, src, dst, case, tracked):
    row = pz.tables[case]
    for i in range(tracked.shape[0]):
        p = tracked[i]
        dst[p] = row[src[p]]


@njit(nogil=True)
def apply_move(pz, src, dst, move, tracked, occ):
    """Apply `move` to the tracked pieces (occ: the occupancy of src); False when no case of a
    guarded move applies."""
    for case in range(pz.case_start[move], pz.case_start[move + 1]):
        h = guard_holds(pz, src, case, occ)
        if h == 1:
            apply_case(pz, src, dst, case, tracked)
            return True
    return False


@njit(nogil=True)
def is_goal(pz, loc, goal_views):
    """Whether every slot shows what it shows in one of the goals (no allocation: searches ask
    this at every node whose bound is 0)."""
    for g in range(goal_views.shape[0]):
        same = True
        for p in range(loc.shape[0]):
            r = pz.piece_orbit[p]
            c = loc[p] - pz.orbit_base[r]
            k = pz.orbit_k[r]
            if goal_views[g, pz.orbit_slot[r] + c // k] != pz.piece_class[p] + c % k:
                same = False
                break
        if same:
            return True
    return False


@njit(inline="always")
def nibble(table, r):
    return (table[r >> 1] >> ((r & 1) << 2)) & 15


@njit(inline="always")
def entry(table, r, bits):
    if bits == 8:
        return table[r]
    return (table[r >> 1] >> ((r & 1) << 2)) & 15


def _prefetch(typingctx, array, index):
    """Ask the processor to start loading array[index] into the cache (LLVM's prefetch: read,
    keep in all levels); a search issues several before it needs any, so the misses overlap."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        byte_ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr.type, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [byte_ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch = Intrinsic(_prefetch, python=lambda array, index: None)  # interpreted: only a hint, skipped
