"""The cube families recognize the catalog's cubes and solve the definitions' own states."""

import random

import pytest

from solver import catalog
from solver.definition.formats import load_data
from solver.engine import apply_moves
from solver.special.bigcube import family as bigcube_family
from solver.special.cube3 import family as cube3_family


def _scrambled(defn, seed: int, length: int = 60):
    rng = random.Random(seed)
    names = [m.name for m in defn.moves]
    return apply_moves(defn, [rng.choice(names) for _ in range(length)])


def test_cube3_is_recognized_and_solved():
    defn = load_data(catalog.build("cube3"))
    plan = cube3_family.recognize(defn)
    assert plan is not None and bigcube_family.recognize(defn) is None
    state = _scrambled(defn, 1)
    solution = plan.solve(state, time_limit=0.2)
    assert tuple(apply_moves(defn, solution, state)) in defn.goal_set
    result = plan.solve_optimal(_scrambled(defn, 2, length=5), time_limit=30)
    assert result.optimal and len(result.moves) <= 5


@pytest.mark.parametrize("n", [2, 4, 5])
def test_big_cubes_are_recognized_and_solved(n):
    defn = load_data(catalog.build(f"cube{n}"))
    plan = bigcube_family.recognize(defn)
    assert plan is not None and cube3_family.recognize(defn) is None
    state = _scrambled(defn, n)
    assert tuple(apply_moves(defn, plan.solve(state), state)) in defn.goal_set


def test_other_puzzles_are_not_recognized():
    for name in ("cuboid-3x3x4", "pyraminx", "skewb"):
        defn = load_data(catalog.build(name))
        assert cube3_family.recognize(defn) is None and bigcube_family.recognize(defn) is None
