"""Kociemba's two-phase solver for the 3x3x3, layered face -> cubie -> coordinate -> pruning -> search:
geometry (stickers in space), cubie (the piece model), facelet (stickers <-> cubies), moves, coord,
movetable, symmetry, pruning, tables (build/cache), search (compiled kernels), solve (the driver); optimal (IDA*).
The solvers are imported from their modules (`solve`, `optimal`): importing them loads numba, which
recognising a puzzle (solver.special.families) must not pay."""

from solver.special.cube3.cubie import CubieCube, random_cube
from solver.special.cube3.facelet import to_cubies, to_stickers

__all__ = ["CubieCube", "random_cube", "to_cubies", "to_stickers"]
