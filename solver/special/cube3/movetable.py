"""Move tables: for a coordinate and each move, the coordinate after the move, built by setting the
coordinate on a cubie state, applying the move's cubies and reading the coordinate back."""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

from solver.special.cube3 import coord, moves
from solver.special.cube3.cubie import empty_cubie, multiply_into

MOVE_CP, MOVE_CO, MOVE_EP, MOVE_EO = (
    np.array([getattr(c, part) for c in moves.MOVE_CUBIES], dtype=np.int64) for part in ("cp", "co", "ep", "eo"))


@njit(cache=True, nogil=True)
def _fill(kind, move_list, mcp, mco, mep, meo, out):
    cp, co, ep, eo = empty_cubie()
    cp2, co2, ep2, eo2 = empty_cubie()
    for v in range(out.shape[0]):
        coord.set_coordinate(kind, v, cp, co, ep, eo)
        for k in range(len(move_list)):
            m = move_list[k]
            multiply_into(cp, co, ep, eo, mcp[m], mco[m], mep[m], meo[m], cp2, co2, ep2, eo2)
            out[v, k] = coord.get_coordinate(kind, cp2, co2, ep2, eo2)


def move_table(kind: int, move_list=tuple(range(moves.N_MOVES))) -> np.ndarray:
    """table[v, k] = coordinate `kind` after move move_list[k] from a cube with coordinate v."""
    out = np.empty((coord.SIZE[kind], len(move_list)), dtype=np.uint16)
    _fill(kind, np.array(move_list, dtype=np.int64), MOVE_CP, MOVE_CO, MOVE_EP, MOVE_EO, out)
    return out
