"""The Dino Cube's relatives in the catalog (issue 19): the Rex Cube, the Little Chop, the Skewb
Diamond and the FTO, generated from geometry. Their state counts are checked against the counts
written as products over their pieces (each factor says why), random states are solved and every
answer is replayed.

Where the figures come from: the piece sets are those of twsearch's PuzzleGeometry definitions
(cubing/twsearch samples/main/FTO.tws: 12 edges, 6 four-sticker corners, two sets of 12 centres;
samples/little_chop.tws: one set of 24 pieces); the counts are the products of the reachable
arrangements of each set, the same rule as Jaap's Puzzle Page uses for the Dino and Rex Cubes.
The FTO's figure is often quoted with the puzzle's orientation left free: 1/12 of ours,
31,408,133,379,194,880,000,000 (the issue quotes it with three zeros fewer)."""

import random
from math import factorial

import pytest

from solver import api, catalog
from solver.engine import verify
from solver.search import engine as search

pytestmark = pytest.mark.usefixtures("module_cache")


def load(name):
    return api.load_data(catalog.build(name))


@pytest.mark.parametrize("name, count", [
    # 6 centres (even permutations: every turn 3-cycles them), 12 edges (even), two sets of 12 petals,
    # two of each colour in each set
    ("rex", factorial(6) // 2 * factorial(12) // 2 * (factorial(12) // 2**6) ** 2),
    # 24 triangles, four of each colour (each turn is six swaps, but swapping two of one colour
    # changes nothing, so every arrangement is reached)
    ("little-chop", factorial(24) // factorial(4) ** 6),
    # 6 corners (even permutations, 2 orientations each, the last one fixed by the others), 4 moving
    # centres (even) and 3 centres that cycle with the UFR face fixed
    ("skewb-diamond", factorial(6) // 2 * 2**5 * factorial(4) // 2 * 3),
    # 6 corners as above, 12 edges (even), two sets of 12 centres, three of each colour in each
    ("fto", factorial(6) // 2 * 2**5 * factorial(12) // 2 * (factorial(12) // factorial(3) ** 4) ** 2),
])
def test_state_counts(name, count):
    facts = api.info(load(name))
    assert facts["state_count"] == count and facts["state_count_exact"]


def test_fto_count_with_the_orientation_free_is_the_quoted_one():
    assert api.info(load("fto"))["state_count"] // 12 == 31_408_133_379_194_880_000_000


def test_skewb_diamond_count_is_the_whole_breadth_first_search():
    facts = search.gods(load("skewb-diamond"))
    assert facts["states"] == 414_720 == sum(facts["distribution"].values())


def test_little_chop_turns_are_half_turns_of_half_the_cube():
    defn = load("little-chop")
    for move in defn.moves:
        moved = [i for i, j in enumerate(move.perm) if i != j]
        assert len(moved) == 12 and all(move.perm[move.perm[i]] == i for i in moved)


def test_octahedra_turns_move_what_their_cuts_say():
    fto, diamond = load("fto"), load("skewb-diamond")
    # a face (9), the rows along its 3 edges on the neighbours (5 each), 3 corner tips beyond
    assert {sum(i != j for i, j in enumerate(m.perm)) for m in fto.moves} == {9 + 3 * 5 + 3}
    # half the octahedron but the turning face's own centre, which turns in place
    assert {sum(i != j for i, j in enumerate(m.perm)) for m in diamond.moves} == {15}


def test_rex_turn_moves_centres_petals_and_edges_around_its_corner():
    defn = load("rex")
    ufr = dict(zip(defn.move_names, defn.moves))["UFR"]
    # 3 centres, 9 petals, 3 edges of two stickers
    assert sum(i != j for i, j in enumerate(ufr.perm)) == 3 + 9 + 6


def test_skewb_diamond_random_states_solved_optimally():
    defn = load("skewb-diamond")
    for seed in range(3):
        state = api.scramble(defn, random_state=True, seed=seed)["state"]
        result = api.solve(defn, state, optimal=True, time_limit=120)
        assert result["optimal"] and verify(defn, state, result["solution"])


@pytest.mark.parametrize("name", ["little-chop", "rex", "fto"])
def test_random_states_solved_and_replayed(name):
    defn = load(name)
    state = api.scramble(defn, random_state=True, seed=random.Random(name).randrange(1000))["state"]
    result = api.solve(defn, state, time_limit=120)
    assert result["solution"] is not None and verify(defn, state, result["solution"])
