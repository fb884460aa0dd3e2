"""Lengths in the puzzle's metrics (solver.metrics): a move counts as many turns as it takes of the
puzzle's smallest turns, whatever the move names and sticker numbering."""

import random

import pytest

from analysis_geometry import renumbered
from solver import api, perm
from solver.metrics import turn_weights


def smallest_turns_needed(defn, target, weights, limit=4) -> int | None:
    """Breadth-first distance of a permutation from the identity with the moves counted as one
    turn only (an independent reckoning of what the weights claim)."""
    turns = [m.perm for m in defn.moves if not m.guarded and weights[m.name] == 1]
    level = {perm.identity(defn.stickers)}
    seen = set(level)
    for depth in range(1, limit + 1):
        level = {perm.compose(p, t) for p in level for t in turns} - seen
        if target in level:
            return depth
        seen |= level
    return None


@pytest.mark.parametrize("name", ["cube3", "cube4", "megaminx", "pyraminx", "skewb", "floppy", "ball-ring"])
@pytest.mark.parametrize("relabel", [False, True])
def test_every_move_counts_the_smallest_turns_it_is_made_of(name, relabel):
    defn = api.load(name)
    if relabel:
        defn = renumbered(defn, random.Random(name))[0]
    weights = turn_weights(defn)
    for m in defn.moves:
        assert smallest_turns_needed(defn, m.perm, weights) == weights[m.name], m.name


def test_half_turns_count_two_on_a_cube_and_lengths_add_up():
    cube = api.load("cube3")
    assert api.lengths(cube, ["R", "U2", "R'", "F2"]) == {"moves": 4, "turns": 6}
    mega = api.load("megaminx")
    assert api.lengths(mega, ["R2", "U", "R2'"]) == {"moves": 3, "turns": 5}


def test_guarded_moves_count_one():
    sliding = api.load("sliding-3x3")
    moves = api.scramble(sliding, moves=12, seed=1)["moves"]
    assert api.lengths(sliding, moves) == {"moves": len(moves), "turns": len(moves)}
