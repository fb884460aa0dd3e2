"""The 3x3x3 piece model against facts from the seed articles and against the sticker permutations."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import perm
from solver.errors import StateError, UnreachableError
from solver.special.cube3 import facelet, geometry, moves
from solver.special.cube3.cubie import CubieCube, random_cube

SOLVED = "WWWWWWWWWOOOGGGRRRBBBOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"
SEED_SCRAMBLE = "L D2 R U2 L F2 U2 L F2 R2 B2 R U' R' U2 F2 R' D B' F2"

move_sequences = st.lists(st.integers(0, moves.N_MOVES - 1), max_size=30)
seeds = st.integers(0, 2**32)
# The first example may load compiled kernels from the numba cache: no per-example deadline.
few = settings(deadline=None, max_examples=50)


def test_seed_test_vector():
    cube = moves.apply(CubieCube.solved(), moves.parse(SEED_SCRAMBLE))
    assert cube.cp == (4, 3, 2, 1, 6, 5, 7, 0)
    assert cube.co == (0, 0, 1, 0, 2, 2, 2, 2)
    assert cube.ep == (2, 9, 4, 10, 0, 7, 3, 1, 11, 5, 6, 8)
    assert cube.eo == (1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)


def test_u_turn_is_the_seed_permutation():
    u = moves.MOVE_PERMS[moves.parse("U")[0]]
    assert perm.cycles(u) == [[0, 2, 8, 6], [1, 5, 7, 3], [9, 18, 15, 12], [10, 19, 16, 13], [11, 20, 17, 14]]
    assert "".join(perm.apply(u, SOLVED)) == "WWWWWWWWWGGGRRRBBBOOOOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def test_solved_colours_are_the_catalog_cube():
    assert facelet.to_stickers(CubieCube.solved()) == SOLVED
    assert moves.SOLVED_STICKERS == SOLVED


def test_each_face_turn_moves_20_stickers_in_order_4():
    for face in geometry.FACES:
        p = geometry.face_turn(face)
        assert sum(1 for i, x in enumerate(p) if i != x) == 20
        assert perm.is_identity(perm.power(p, 4)) and not perm.is_identity(perm.power(p, 2))


def test_known_orders_of_sequences():
    # Facts about the cube group: R U has order 105, the "sexy move" R U R' U' has order 6.
    for text, order in (("R U", 105), ("R U R' U'", 6), ("R2 U2", 6)):
        p = moves.sticker_permutation(moves.parse(text))
        assert perm.is_identity(perm.power(p, order))
        assert all(not perm.is_identity(perm.power(p, k)) for k in range(1, order) if order % k == 0)


@few
@given(move_sequences)
def test_cubies_and_stickers_agree(sequence):
    """Replaying moves on cubies and on sticker permutations gives the same cube."""
    state = perm.apply(moves.sticker_permutation(sequence), SOLVED)
    assert facelet.to_cubies(state) == moves.apply(CubieCube.solved(), sequence)


@few
@given(move_sequences, move_sequences)
def test_cubie_product_is_sequence_concatenation(a, b):
    solved = CubieCube.solved()
    assert moves.apply(solved, a) * moves.apply(solved, b) == moves.apply(solved, a + b)
    assert moves.apply(solved, a).inverse() == moves.apply(solved, [moves.inverse(m) for m in reversed(a)])


@few
@given(seeds)
def test_random_cubes_are_reachable_and_round_trip(seed):
    cube = random_cube(random.Random(seed))
    cube.check()
    assert facelet.to_cubies(facelet.to_stickers(cube)) == cube


def test_other_colour_letters_are_read_by_centres():
    cube = moves.apply(CubieCube.solved(), moves.parse(SEED_SCRAMBLE))
    colours = dict(zip("ULFRBD", "abcdef"))
    assert facelet.to_cubies(facelet.to_stickers(cube, colours)) == cube


@pytest.mark.parametrize("state, problem", [
    (SOLVED[:-1], "54 stickers"),
    (SOLVED[:4] + "O" + SOLVED[5:], "same colour"),
    ("X" + SOLVED[1:], "on no centre"),
    ("O" + SOLVED[1:9] + "W" + SOLVED[10:], "which no corner has"),
])
def test_impossible_colourings_are_refused(state, problem):
    with pytest.raises(StateError, match=problem):
        facelet.to_cubies(state)


def test_duplicated_pieces_are_refused():
    # URF at ULB and DLB at DRF: the colour counts stay 9 each, but ULB and DRF are missing.
    cube = CubieCube((2, 1, 2, 3, 4, 5, 4, 7), (0,) * 8, tuple(range(12)), (0,) * 12)
    with pytest.raises(StateError, match="ULB is missing"):
        facelet.to_cubies(facelet.to_stickers(cube))


@pytest.mark.parametrize("cube, problem", [
    (CubieCube(tuple(range(8)), (1,) + (0,) * 7, tuple(range(12)), (0,) * 12), "twist"),
    (CubieCube(tuple(range(8)), (0,) * 8, tuple(range(12)), (1,) + (0,) * 11), "flip"),
    (CubieCube((1, 0) + tuple(range(2, 8)), (0,) * 8, tuple(range(12)), (0,) * 12), "parities"),
])
def test_unreachable_cubes_are_refused(cube, problem):
    with pytest.raises(UnreachableError, match=problem):
        facelet.to_cubies(facelet.to_stickers(cube)).check()


def test_moves_and_goal_match_the_catalog_cube3():
    """Our sticker geometry is derived independently of the catalog's; both must give the same cube."""
    catalog = pytest.importorskip("solver.catalog")
    if not hasattr(catalog, "build"):
        pytest.skip("the catalog generators are not in this tree yet")
    definition = catalog.build("cube3")
    theirs = {m["name"]: [list(c) for c in m["cycles"]] for m in definition["moves"]}
    ours = {name: perm.cycles(p) for name, p in zip(moves.MOVE_NAMES, moves.MOVE_PERMS)}
    assert theirs == ours
    assert "".join(definition["goal"]) == SOLVED
