"""The NxNxN cubes of the catalog (cube2, cube4 ... cube7 tested) by reduction to the 3x3x3: model
(stickers, layer turns, SiGN names), cycles (3-cycle commutators and set-ups), reduction (the solver)."""

from solver.special.bigcube.reduction import solve_big_cube

__all__ = ["solve_big_cube"]
