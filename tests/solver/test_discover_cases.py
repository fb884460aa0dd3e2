"""Staged algorithm sets (solver.discover.cases): the cases of a layer, counted as published sets
count them, on puzzles numbered and named as nobody has seen them."""

import random

import pytest

from analysis_geometry import renumbered
from solver import api, perm
from solver.discover import cases


@pytest.fixture(scope="module")
def cube3():
    defn, _, _ = renumbered(api.load("cube3"), random.Random(15))
    return defn


def _counts(defn, kinds):
    (move,) = cases.layer_moves(defn)  # one layer up to the cube's symmetries
    return move, {s.kind: s for s in cases.layer_sets(defn, move, kinds)}


def test_the_last_layer_of_a_renumbered_3x3x3_has_57_orientation_and_21_permutation_cases(cube3):
    move, sets = _counts(cube3, ("orient", "permute"))
    assert sets["orient"].states == 216 and len(sets["orient"].cases) == 57
    assert sets["permute"].states == 288 and len(sets["permute"].cases) == 21
    for case_set in sets.values():
        solved = sum(1 for t in range(4) if perm.apply(perm.power(cube3.move(move).perm, t), case_set.goal))
        assert sum(c.size for c in case_set.cases) + solved >= case_set.states - 4  # the cases partition the states
        outside = [x for x in range(cube3.stickers) if x not in case_set.stickers]
        for case in case_set.cases:  # every case leaves the rest of the puzzle solved
            state = perm.apply(case.perm, cube3.goal)
            assert all(state[x] == cube3.goal[x] for x in outside)
            assert case.state not in case_set.goals


def test_the_2x2x2_sets_have_the_published_counts():
    defn, _, _ = renumbered(api.load("cube2"), random.Random(3))
    _move, sets = _counts(defn, ("orient", "permute", "full"))
    assert len(sets["orient"].cases) == 7  # the 2x2x2 OLL
    assert len(sets["full"].cases) == 42  # CLL


def test_case_algorithms_replay_into_the_set(cube3):
    move, sets = _counts(cube3, ("permute",))
    case_set = sets["permute"]
    for case in case_set.cases[:2]:
        found = cases.case_algorithms(cube3, case_set, case, time_limit=20)
        assert found
        for moves in found:
            assert api.apply_moves(cube3, moves, case.state) in case_set.goals or any(
                api.apply_moves(cube3, moves, perm.apply(perm.power(cube3.move(move).perm, t), case.state))
                in case_set.goals for t in range(4))
            # where a Play link starts it: a state of the case that it solves with no turn before or after
            start = cases.case_start(cube3, case_set.goal, moves)
            assert api.apply_moves(cube3, moves, start) == case_set.goal
            assert any(start == perm.apply(perm.compose(a, case.perm, b), cube3.goal)
                       for a in case_set.turns for b in case_set.turns)
