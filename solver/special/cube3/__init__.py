"""Kociemba's two-phase solver for the 3x3x3, layered face -> cubie -> coordinate -> pruning -> search:
geometry (stickers in space), cubie (the piece model), facelet (stickers <-> cubies), moves, coord,
movetable, symmetry, pruning, tables (build/cache), search (compiled kernels), solve (the driver); optimal (IDA*)."""

from solver.special.cube3.cubie import CubieCube, random_cube
from solver.special.cube3.facelet import to_cubies, to_stickers
from solver.special.cube3.optimal import OptimalResult, solve_optimal
from solver.special.cube3.solve import solve_cubies, solve_facelets

__all__ = ["CubieCube", "random_cube", "to_cubies", "to_stickers", "solve_cubies", "solve_facelets",
           "solve_optimal", "OptimalResult"]
