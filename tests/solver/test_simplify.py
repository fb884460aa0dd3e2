"""Simplification of answers: on random sequences of several puzzles (catalog, renumbered, big cubes
with wide turns) the simplified sequence has the same effect, is never longer, and has nothing left
to merge; answers of api.solve come out simplified."""

import random

import pytest

from solver import api, perm
from solver.simplify import removable_moves, simplify
from tests.solver import search_puzzles
from tests.solver.analysis_geometry import renumbered


def effect(defn, moves):
    return perm.compose(perm.identity(defn.stickers), *(defn.move(m).perm for m in moves))


def nothing_left_to_merge(defn, moves):
    """No two neighbours multiply to a move or to the identity."""
    products = {m.perm for m in defn.moves} | {perm.identity(defn.stickers)}
    return all(perm.compose(defn.move(a).perm, defn.move(b).perm) not in products for a, b in zip(moves, moves[1:]))


PUZZLES = {
    "cube4": lambda: api.load("cube4"),
    "cube5": lambda: api.load("cube5"),
    "megaminx": lambda: api.load("megaminx"),
    "pyraminx": lambda: api.load("pyraminx"),
    "cube4-renumbered": lambda: renumbered(api.load("cube4"), random.Random(7))[0],
    "cube3-renumbered": lambda: search_puzzles.cube(3, renumber=11)[0],
}


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_random_sequences_keep_their_effect_and_never_grow(name):
    defn = PUZZLES[name]()
    rng = random.Random(name)
    names = defn.move_names
    shrunk = 0
    for trial in range(40):
        # Sequences drawn from a few moves at a time, so that many neighbours merge or commute.
        pool = rng.sample(names, min(len(names), rng.choice((3, 6, len(names)))))
        moves = [rng.choice(pool) for _ in range(rng.randrange(0, 60))]
        out = simplify(defn, moves)
        assert len(out) <= len(moves)
        assert effect(defn, out) == effect(defn, moves), (moves, out)
        assert nothing_left_to_merge(defn, out), out
        assert simplify(defn, out) == out
        shrunk += len(moves) - len(out)
    assert shrunk > 0


def test_wide_and_plain_turns_of_one_axis_gather_and_merge():
    defn = api.load("cube4")
    assert simplify(defn, "Uw' U U R".split()) == ["Uw'", "U2", "R"]
    assert simplify(defn, "U D U'".split()) == ["D"]
    assert simplify(defn, "R Lw R' Lw'".split()) == []
    # Turns about one axis all commute: whatever their order, at most one of each layer block is left.
    rng = random.Random(3)
    axis = ["U", "U'", "U2", "Uw", "Uw'", "Uw2", "D", "D'", "D2", "Dw", "Dw'", "Dw2"]
    for _ in range(20):
        moves = [rng.choice(axis) for _ in range(30)]
        out = simplify(defn, moves)
        assert len(out) <= 4 and effect(defn, out) == effect(defn, moves)


def test_guarded_definitions_are_left_alone():
    defn = api.load("sliding-3x3")
    moves = defn.move_names[:2] * 2
    assert simplify(defn, moves) == moves


def test_big_cube_answers_have_no_mergeable_turns():
    defn = api.load("cube4")
    for seed in range(3):
        state = api.scramble(defn, random_state=True, seed=seed)["state"]
        result = api.solve(defn, state)
        assert result["verified"] and removable_moves(defn, result["solution"]) == 0
