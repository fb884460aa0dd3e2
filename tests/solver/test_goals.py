"""Every goal counts: states that are solved (under any of the definition's goals) or a few moves from
one get a shortest answer before any long method, and the big-cube solver works towards the goal
nearest the state, on the catalog's numbering and on another."""

import random

import pytest

from solver import api, perm
from solver.goals import nearest_goal
from solver.search.budget import Budget
from solver.special import families
from tests.solver.analysis_geometry import renumbered


@pytest.fixture(scope="module")
def cube4():
    return api.load("cube4")


def rotations(defn):
    """Whole-cube rotations: the definition's symmetries and their products."""
    syms = [p for _, p in defn.symmetries]
    return syms + [perm.compose(a, b) for a in syms for b in syms]


def test_a_rotation_of_solved_gets_an_empty_answer(cube4):
    for rotation in rotations(cube4):
        state = perm.apply(rotation, cube4.goal)
        assert state != cube4.goal
        result = api.solve(cube4, state)
        assert result["solution"] == [] and result["verified"] and result["optimal"]


@pytest.mark.parametrize("scramble", ["R", "Uw'", "R U", "Fw2 L' D"])
def test_a_few_turns_from_a_goal_get_a_shortest_answer(cube4, scramble):
    for start in (cube4.goal, perm.apply(rotations(cube4)[0], cube4.goal)):
        state = api.apply_moves(cube4, scramble.split(), start)
        result = api.solve(cube4, state)
        assert result["verified"] and result["optimal"]
        assert result["length"] == len(scramble.split())


def _ends_at_the_nearest_goal(defn, state):
    moves = families.find(defn).solve(state, Budget()).moves
    assert api.apply_moves(defn, moves, state) == nearest_goal(defn, state)


def test_big_cube_reduction_works_towards_the_nearest_goal(cube4):
    rng = random.Random(2)
    outer = [name for name in cube4.move_names if "w" not in name]
    for rotation in rotations(cube4)[:3]:
        start = perm.apply(rotation, cube4.goal)
        state = api.apply_moves(cube4, [rng.choice(outer) for _ in range(6)], start)
        assert nearest_goal(cube4, state) == start != cube4.goal
        _ends_at_the_nearest_goal(cube4, state)


def test_big_cube_reduction_works_towards_the_nearest_goal_in_another_numbering(cube4):
    user, _, _ = renumbered(cube4, random.Random(9))
    rng = random.Random(4)
    start = user.goals[5]
    state = api.apply_moves(user, [rng.choice(user.move_names) for _ in range(6)], start)
    assert nearest_goal(user, state) != user.goal
    _ends_at_the_nearest_goal(user, state)
