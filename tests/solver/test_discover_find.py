"""Find algorithms for a state: every shortest sequence first, then longer ones (issue 15)."""

import itertools

import pytest

from solver import api, perm
from solver.discover.find import find_algorithms
from solver.errors import PuzzleError


def _canonical(defn, names):
    """No move followed by one that undoes it or merges with it into a move; commuting moves in
    the definition's order (the rule the search follows, written out here on permutations)."""
    perms = {m.name: m.perm for m in defn.moves}
    order = {m.name: i for i, m in enumerate(defn.moves)}
    known = set(perms.values())
    for a, b in zip(names, names[1:]):
        ab, ba = perm.compose(perms[a], perms[b]), perm.compose(perms[b], perms[a])
        if perm.is_identity(ab) or ab in known or (ab == ba and order[b] < order[a]):
            return False
    return True


def test_every_shortest_sequence_of_a_small_puzzle_is_found_first():
    floppy = api.load("floppy")
    start = api.apply_moves(floppy, ["R", "U", "L", "D", "R"])
    shortest = api.solve(floppy, start, optimal=True)["length"]
    result = find_algorithms(floppy, start, count=100, extra=1)
    lengths = [a["length"] for a in result["algorithms"]]
    assert result["shortest"] == shortest and lengths == sorted(lengths) and lengths[0] == shortest
    brute = {names for names in itertools.product(floppy.move_names, repeat=shortest)
             if _canonical(floppy, names) and api.verify(floppy, start, list(names))}
    assert {tuple(a["moves"]) for a in result["algorithms"] if a["length"] == shortest} == brute
    for a in result["algorithms"]:
        assert api.verify(floppy, start, a["moves"]) and a["shortest"] == (a["length"] == shortest)


def test_only_the_given_moves_and_a_partial_goal():
    cube3 = api.load("cube3")
    start = api.apply_moves(cube3, "R U R' U'".split())
    goal = tuple("?" if i < 45 else c for i, c in enumerate(cube3.goal))  # the bottom face only
    result = api.find_algorithms(cube3, start, goal=goal, count=5, moves=["R", "R'", "U", "U'"])
    for a in result["algorithms"]:
        end = api.apply_moves(cube3, a["moves"], start)
        assert end[45:] == cube3.goal[45:] and set(a["moves"]) <= {"R", "R'", "U", "U'"}
        assert "effect" in a  # described like every algorithm
    assert result["shortest"] == 4 and ["U", "R", "U'", "R'"] in [a["moves"] for a in result["algorithms"]]


def test_bad_options_name_the_field():
    cube3 = api.load("cube3")
    with pytest.raises(PuzzleError, match="^moves: no move named 'Q'"):
        find_algorithms(cube3, cube3.goal, moves=["R", "Q"])
    with pytest.raises(PuzzleError, match="^count: "):
        find_algorithms(cube3, cube3.goal, count=0)
