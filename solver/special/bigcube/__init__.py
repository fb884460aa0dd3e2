"""The NxNxN cubes of the catalog (cube2, cube4 ... cube7 tested) by reduction to the 3x3x3: model
(stickers, layer turns, SiGN names), cycles (3-cycle commutators and set-ups), reduction (the solver,
imported from its module only where a cube is solved: it loads the 3x3x3 solver and numba)."""
