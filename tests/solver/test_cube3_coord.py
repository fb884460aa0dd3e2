"""Coordinates, move tables and symmetries of the 3x3x3, checked against the cubie and sticker models
and against known counts."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import perm
from solver.special.cube3 import coord, facelet, geometry, moves, symmetry
from solver.special.cube3.cubie import CubieCube, random_cube
from solver.special.cube3.movetable import move_table
from solver.special.cube3.solve import conjugate

KINDS = (coord.TWIST, coord.FLIP, coord.SLICE_SORTED, coord.U_EDGES, coord.D_EDGES, coord.CORNERS,
         coord.UD_EDGES, coord.FLIPSLICE)
seeds = st.integers(0, 2**32)
# Each example runs compiled searches or whole-table checks: fewer examples, no per-example deadline.
few = settings(deadline=None, max_examples=30)


def _get(kind, cube):
    return coord.get_coordinate(kind, *cube.arrays())


def _set(kind, v):
    arrays = tuple(np.empty(n, dtype=np.int64) for n in (8, 8, 12, 12))
    coord.set_coordinate(kind, v, *arrays)
    return CubieCube.from_arrays(*arrays)


@pytest.mark.parametrize("kind", KINDS)
def test_coordinates_are_zero_when_solved_and_round_trip(kind):
    solved = CubieCube.solved()
    # u_edges and d_edges number the places of their edges from the middle layer up, like slice_sorted.
    assert (_get(kind, solved) == 0) == (kind not in (coord.U_EDGES, coord.D_EDGES))
    rng = random.Random(kind)
    for v in rng.sample(range(coord.SIZE[kind]), 300) + [coord.SIZE[kind] - 1]:
        assert _get(kind, _set(kind, v)) == v


@pytest.mark.parametrize("kind", KINDS)
def test_coordinates_cover_their_range(kind):
    # Each value is hit by some cube: the set function's cubes give back distinct values.
    if coord.SIZE[kind] <= 50000:
        values = {_get(kind, _set(kind, v)) for v in range(coord.SIZE[kind])}
        assert values == set(range(coord.SIZE[kind]))


@few
@given(seeds)
def test_move_tables_follow_the_cubie_moves(seed):
    rng = random.Random(seed)
    cube = random_cube(rng)
    for kind in (coord.TWIST, coord.FLIP, coord.SLICE_SORTED, coord.CORNERS, coord.U_EDGES):
        table = _tables()[kind]
        for m in range(moves.N_MOVES):
            assert table[_get(kind, cube), m] == _get(kind, cube * moves.MOVE_CUBIES[m])


@few
@given(st.lists(st.sampled_from(moves.PHASE2_MOVES), max_size=25))
def test_phase2_coordinates(sequence):
    cube = moves.apply(CubieCube.solved(), sequence)
    for kind in (coord.TWIST, coord.FLIP, coord.SLICE_SORTED):
        assert _get(kind, cube) == 0 or (kind == coord.SLICE_SORTED and _get(kind, cube) < coord.N_PERM4)
    u, d = _get(coord.U_EDGES, cube), _get(coord.D_EDGES, cube)
    assert coord.ud_edges_from_layers(u, d) == _get(coord.UD_EDGES, cube)
    table = _tables()[coord.UD_EDGES]
    for k, m in enumerate(moves.PHASE2_MOVES):
        assert table[_get(coord.UD_EDGES, cube), k] == _get(coord.UD_EDGES, cube * moves.MOVE_CUBIES[m])


_cache = {}


def _tables():
    if not _cache:
        for kind in (coord.TWIST, coord.FLIP, coord.SLICE_SORTED, coord.CORNERS, coord.U_EDGES):
            _cache[kind] = move_table(kind)
        _cache[coord.UD_EDGES] = move_table(coord.UD_EDGES, moves.PHASE2_MOVES)
    return _cache


def _through_stickers(cube, sticker_perm):
    """The cube seen through a symmetry, computed on sticker permutations: s^-1 X s."""
    state = facelet.to_stickers(cube)
    x = perm.inverse(_permutation_of(state))
    image = perm.compose(perm.inverse(sticker_perm), x, sticker_perm)
    return facelet.to_cubies(perm.apply(image, moves.SOLVED_STICKERS))


def _permutation_of(state):
    """The sticker permutation taking the cube to solved, found by identifying each sticker by its
    piece and face (every sticker of a 3x3x3 is distinct given the fixed centres)."""
    cube = facelet.to_cubies(state)
    p = list(range(geometry.STICKERS))
    for i, stickers in enumerate(facelet.CORNER_STICKERS):
        home = facelet.CORNER_STICKERS[cube.cp[i]]
        for k in range(3):
            p[stickers[(cube.co[i] + k) % 3]] = home[k]
    for i, stickers in enumerate(facelet.EDGE_STICKERS):
        home = facelet.EDGE_STICKERS[cube.ep[i]]
        for k in range(2):
            p[stickers[(cube.eo[i] + k) % 2]] = home[k]
    return tuple(p)


@few
@given(seeds)
def test_cubie_conjugation_matches_stickers(seed):
    cube = random_cube(random.Random(seed))
    perms = symmetry.UD_STICKER_PERMS + (geometry.diagonal_rotation(),)
    for p in perms:
        assert conjugate(cube, symmetry.cubie_symmetry(p)) == _through_stickers(cube, p)


@few
@given(st.lists(st.integers(0, moves.N_MOVES - 1), max_size=20))
def test_conjugated_moves_solve_the_conjugated_cube(sequence):
    cube = moves.apply(CubieCube.solved(), sequence)
    for p in symmetry.UD_STICKER_PERMS[1:4] + (geometry.diagonal_rotation(),):
        image = [moves.conjugate(m, p) for m in sequence]
        assert conjugate(cube, symmetry.cubie_symmetry(p)) == moves.apply(CubieCube.solved(), image)


def test_symmetry_group():
    assert len(symmetry.UD_STICKER_PERMS) == 16
    assert perm.is_identity(symmetry.UD_STICKER_PERMS[0])
    assert sum(s == -1 for s in symmetry.SYM_SIGN) == 8
    group = set(symmetry.UD_STICKER_PERMS)
    assert all(perm.compose(a, b) in group for a in group for b in group)


def test_class_counts_are_the_known_ones():
    # Kociemba's counts: 64430 flip-slice classes and 2768 corner-permutation classes under the 16
    # symmetries of the U-D axis.
    for kind, count in ((coord.FLIPSLICE, 64430), (coord.CORNERS, 2768)):
        conj = symmetry.conjugation_table(kind)
        classes = symmetry.symmetry_classes(conj)
        assert len(classes.rep) == count
        reps = classes.rep[classes.klass]
        sym = classes.sym.astype(np.int64)
        assert (conj[np.arange(conj.shape[0]), sym] == reps).all()
