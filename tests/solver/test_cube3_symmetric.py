"""Symmetric 3x3x3 positions: the two-phase search drops versions of the cube that are symmetries of
one another, and paths that are symmetric images of paths already searched, without losing any
solution length."""

import random
import time

import numpy as np
import pytest

from solver.special.cube3 import moves, search
from solver.special.cube3.cubie import CubieCube, random_cube
from solver.special.cube3.solve import _variants, phase1_coordinates, solve_cubies, stabiliser
from solver.special.cube3.tables import get_tables

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
SYMMETRIC = {
    "superflip": SUPERFLIP,
    "checkerboard": "U2 D2 F2 B2 L2 R2",
    "u-d half turns": "U2 D2",
    "cube in cube": "F L F U' R U F2 L2 U' L' B D' B' L2 U",
}


def cube_of(sequence):
    return moves.apply(CubieCube.solved(), moves.parse(sequence))


def test_a_fully_symmetric_cube_is_searched_once_and_a_random_one_six_times():
    assert len(_variants(cube_of(SUPERFLIP))) == 1
    assert bin(stabiliser(cube_of(SUPERFLIP))).count("1") == 15  # every U-D-axis symmetry but the identity
    cube = random_cube(random.Random(5))
    assert len(_variants(cube)) == 6 and stabiliser(cube) == 0


def _levels(cube, with_symmetry, depths):
    """(best length after each phase-1 depth, phase-1 nodes) of the compiled search."""
    variants = _variants(cube) if with_symmetry else [(cube, 0, False)]
    roots = np.array([phase1_coordinates(v) for v, _, _ in variants], dtype=np.int64)
    stabilisers = np.array([stabiliser(v) if with_symmetry else 0 for v, _, _ in variants], dtype=np.int64)
    best = np.array([search.NO_SOLUTION, -1], dtype=np.int64)
    solution, nodes = np.empty(32, dtype=np.int64), np.zeros(1, dtype=np.int64)
    running = np.zeros(1, dtype=np.int64)  # the stop flag a budget's watcher would raise: never here
    lengths = []
    for togo1 in range(depths):
        if togo1 >= best[0]:  # as the driver: no shorter solution is left to find
            break
        search.search_phase1_length(get_tables(), roots, stabilisers, togo1, best, -1, time.perf_counter() + 600,
                                    running, solution, nodes)
        lengths.append(int(best[0]))
    return lengths, int(nodes[0])


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_symmetry_pruning_finds_the_same_lengths_with_fewer_nodes(name):
    cube = cube_of(SYMMETRIC[name])
    assert stabiliser(cube) != 0
    plain, plain_nodes = _levels(cube, False, 11)
    pruned, pruned_nodes = _levels(cube, True, 11)
    assert pruned == plain
    assert pruned_nodes < plain_nodes


def test_superflip_gets_twenty_moves():
    solution = solve_cubies(cube_of(SUPERFLIP), time_limit=60, max_length=20)
    assert len(solution) == 20 and moves.apply(cube_of(SUPERFLIP), moves.parse(" ".join(solution))).is_solved()
