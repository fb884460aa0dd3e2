"""The two-phase solver: pruning tables against brute force and known maxima, and solutions of
generated cubes replayed on cubies and on sticker permutations."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import perm
from solver.search.budget import Cancelled
from solver.errors import NotationError, StateError, UnreachableError
from solver.special.cube3 import coord, facelet, moves, optimal, pruning, search
from solver.special.cube3.solve import solve_cubies, solve_facelets
from solver.special.cube3.cubie import CubieCube, random_cube
from solver.special.cube3.solve import phase1_coordinates
from solver.special.cube3.tables import get_tables

seeds = st.integers(0, 2**32)
# Each example runs compiled searches or whole-table checks: fewer examples, no per-example deadline.
few = settings(deadline=None, max_examples=12)


@pytest.fixture(scope="module")
def tables():
    return get_tables()


def _replays(state: str, solution: list[str]) -> bool:
    p = moves.sticker_permutation(moves.parse(" ".join(solution)))
    return "".join(perm.apply(p, state)) == moves.SOLVED_STICKERS


def _canonical_sequences(length, move_set):
    """Every sequence of that length with no face turned twice in a row."""
    for seq in itertools.product(move_set, repeat=length):
        if all(moves.face(a) != moves.face(b) for a, b in zip(seq, seq[1:])):
            yield seq


def test_pruning_tables_are_full_with_the_known_maxima(tables):
    # Known facts: every cube reaches H in at most 12 moves, and every cube in H is solved within H
    # in at most 18 moves.
    # (A largest entry below UNSEEN also says every entry was reached.)
    assert pruning.UNSEEN > 18
    assert int(tables.phase1_depth.max()) == 12
    assert int(tables.phase2_depth.max()) == 18
    # Only the goal itself is at distance 0 (its entry is fixed by every symmetry).
    assert np.count_nonzero(tables.phase1_depth == 0) == 1
    assert np.count_nonzero(tables.phase2_depth == 0) == 1


@few
@given(seeds)
def test_phase1_distance_equals_brute_force(tables, seed):
    rng = random.Random(seed)
    scramble = [rng.randrange(moves.N_MOVES) for _ in range(rng.randrange(5))]
    cube = moves.apply(CubieCube.solved(), scramble)
    exact = next(n for n in range(5) for seq in _canonical_sequences(n, range(moves.N_MOVES))
                 if _in_h(moves.apply(cube, seq)))
    flip, twist, slice_sorted = phase1_coordinates(cube)[:3]
    assert search.phase1_distance(tables, flip, slice_sorted, twist) == exact


def _in_h(cube):
    arrays = cube.arrays()
    return (coord.get_coordinate(coord.TWIST, *arrays) == 0 and coord.get_coordinate(coord.FLIP, *arrays) == 0
            and coord.get_coordinate(coord.SLICE_SORTED, *arrays) < coord.N_PERM4)


@few
@given(seeds)
def test_phase2_bound_is_admissible_and_tight_on_its_projection(tables, seed):
    rng = random.Random(seed)
    scramble = [rng.choice(moves.PHASE2_MOVES) for _ in range(rng.randrange(5))]
    cube = moves.apply(CubieCube.solved(), scramble)
    arrays = cube.arrays()
    corners = coord.get_coordinate(coord.CORNERS, *arrays)
    ud = coord.get_coordinate(coord.UD_EDGES, *arrays)
    sl = coord.get_coordinate(coord.SLICE_SORTED, *arrays)

    def projection_solved(c):
        a = c.arrays()
        return coord.get_coordinate(coord.CORNERS, *a) == 0 and coord.get_coordinate(coord.UD_EDGES, *a) == 0

    exact_projection = next(n for n in range(5) for seq in _canonical_sequences(n, moves.PHASE2_MOVES)
                            if projection_solved(moves.apply(cube, seq)))
    exact = next(n for n in range(5) for seq in _canonical_sequences(n, moves.PHASE2_MOVES)
                 if moves.apply(cube, seq).is_solved())
    bound = search.phase2_distance(tables, corners, ud, sl)
    assert exact_projection <= bound <= exact


@few
@given(seeds)
def test_random_cubes_are_solved(tables, seed):
    cube = random_cube(random.Random(seed))
    solution = solve_cubies(cube, time_limit=0.05)
    assert moves.apply(cube, moves.parse(" ".join(solution))).is_solved()
    assert _replays(facelet.to_stickers(cube), solution)
    # The first solution has at most 12 phase-1 and 10 phase-2 moves unless phase 1 must go deeper.
    assert len(solution) <= 24


def test_a_sample_is_solved_in_20_moves_at_one_second(tables):
    rng = random.Random(2026)
    for _ in range(3):
        cube = random_cube(rng)
        solution = solve_facelets(facelet.to_stickers(cube), time_limit=1.0)
        assert _replays(facelet.to_stickers(cube), solution)
        assert len(solution) <= 20


@few
@given(st.lists(st.integers(0, moves.N_MOVES - 1), min_size=1, max_size=7))
def test_short_scrambles_are_undone_in_at_most_their_length(tables, scramble):
    state = "".join(perm.apply(moves.sticker_permutation(scramble), moves.SOLVED_STICKERS))
    solution = solve_facelets(state, time_limit=5.0)
    assert _replays(state, solution)
    assert len(solution) <= len(scramble)


def test_other_colour_letters(tables):
    cube = random_cube(random.Random(7))
    state = facelet.to_stickers(cube, dict(zip("ULFRBD", "123456")))
    assert _replays(facelet.to_stickers(cube), solve_facelets(state, time_limit=0.05))


def test_solved_cube_needs_no_moves(tables):
    assert solve_facelets(moves.SOLVED_STICKERS) == []


def test_max_length_stops_early(tables):
    cube = random_cube(random.Random(11))
    solution = solve_cubies(cube, time_limit=30.0, max_length=24)
    assert len(solution) <= 24
    assert moves.apply(cube, moves.parse(" ".join(solution))).is_solved()


def test_cancel_before_any_solution(tables):
    cube = random_cube(random.Random(12))
    with pytest.raises(Cancelled):
        solve_cubies(cube, time_limit=30.0, cancel=lambda: True)


def test_bad_input_is_refused():
    with pytest.raises(StateError):
        solve_facelets("W" * 54)
    twisted = CubieCube(tuple(range(8)), (2,) + (0,) * 7, tuple(range(12)), (0,) * 12)
    with pytest.raises(UnreachableError):
        solve_facelets(facelet.to_stickers(twisted))
    with pytest.raises(NotationError):
        moves.parse("U M")


def _distance_by_meeting(cube: CubieCube, radius: int = 3) -> int | None:
    """Exact distance when at most 2 * radius: cubes within `radius` moves of the cube against cubes
    within `radius` moves of solved."""
    def ball(start):
        seen = {start: 0}
        frontier = [start]
        for d in range(1, radius + 1):
            frontier = [c * moves.MOVE_CUBIES[m] for c in frontier for m in range(moves.N_MOVES)]
            frontier = [c for c in frontier if c not in seen]
            for c in frontier:
                seen.setdefault(c, d)
        return seen

    near_cube, near_solved = ball(cube), ball(CubieCube.solved())
    meetings = [d + near_solved[c] for c, d in near_cube.items() if c in near_solved]
    return min(meetings) if meetings else None


@settings(deadline=None, max_examples=6)
@given(st.lists(st.integers(0, moves.N_MOVES - 1), min_size=1, max_size=6))
def test_optimal_lengths_equal_meet_in_the_middle(tables, scramble):
    cube = moves.apply(CubieCube.solved(), scramble)
    result = optimal.solve_optimal(cube, time_limit=60.0)
    assert result.optimal
    assert moves.apply(cube, moves.parse(" ".join(result.moves))).is_solved()
    assert len(result.moves) == result.lower_bound == _distance_by_meeting(cube)


def test_optimal_says_when_the_budget_ran_out(tables):
    cube = random_cube(random.Random(3))
    result = optimal.solve_optimal(cube, time_limit=0.5)
    assert not result.optimal
    assert result.lower_bound <= len(result.moves)
    assert moves.apply(cube, moves.parse(" ".join(result.moves))).is_solved()
