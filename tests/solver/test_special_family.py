"""Recognition of catalog definitions by the specialized solvers, and their solutions replayed
by the engine on the definition from states reached by random moves."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import catalog, perm
from solver.definition.formats import load_data
from solver.engine import apply_moves, verify
from solver.errors import UnreachableError
from solver.search.budget import Budget
from solver.special import families
from solver.special.flipit import family as flipit_family
from solver.special.loopover import family as loopover_family
from solver.special.sliding import family as sliding_family


pytestmark = pytest.mark.usefixtures("module_cache")


def scrambled(defn, rng, steps):
    """A state `steps` random legal moves away from the goal (guarded moves: those that apply)."""
    state = defn.goal
    for _ in range(steps):
        moves = [m for m in defn.moves if m.case_for(state) is not None]
        state = perm.apply(rng.choice(moves).case_for(state).perm, state)
    return state


def renumbered(defn, seed):
    """The same puzzle with its stickers numbered in another order (not catalog numbering)."""
    n = defn.stickers
    order = list(range(n))
    random.Random(seed).shuffle(order)
    data = {"format": "puzzlehub/1", "name": "renumbered", "goal": [defn.goal[order.index(i)] for i in range(n)],
            "moves": []}
    for m in defn.moves:
        cases = [{"when": {order[p]: c for p, c in case.guard},
                  "cycles": [[order[x] for x in cyc] for cyc in perm.cycles(case.perm)]} for case in m.cases]
        data["moves"].append({"name": m.name, "cases": cases} if m.guarded else {"name": m.name, "cycles": cases[0]["cycles"]})
    return load_data(data)


FAMILIES = [
    (loopover_family, ["loopover-2x2", "loopover-3x3", "loopover-4x6", "loopover-5x3", "loopover-9x9"]),
    (sliding_family, ["sliding-2x3", "sliding-3x3", "sliding-3x4", "sliding-6x5"]),
    (flipit_family, ["flipit-5", "flipit-8", "flipit-11"]),
]


@pytest.mark.parametrize("family,names", FAMILIES)
def test_catalog_definitions_are_recognized_and_solved(family, names):
    rng = random.Random(11)
    for name in names:
        defn = load_data(catalog.build(name))
        plan = family.recognize(defn)
        assert plan is not None, name
        for _ in range(3):
            state = scrambled(defn, rng, 40)
            moves = plan.solve(state)
            assert verify(defn, state, moves)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 2))
def test_random_states_replay(seed, which):
    family, names = FAMILIES[which]
    rng = random.Random(seed)
    defn = load_data(catalog.build(rng.choice(names)))
    state = scrambled(defn, rng, rng.randrange(0, 60))
    assert verify(defn, state, family.recognize(defn).solve(state))


def test_families_registry_picks_the_right_family():
    for name, family in (("loopover-3x4", "loopover"), ("sliding-2x4", "sliding"), ("flipit-9", "flipit"),
                         ("cube3", "cube3"), ("cube4", "bigcube")):
        assert families.find(load_data(catalog.build(name))).family == family
    for name in ("pyraminx", "cube2"):
        assert families.find(load_data(catalog.build(name))) is None


@pytest.mark.parametrize("name", ["loopover-3x4", "sliding-3x3", "flipit-7", "cube3"])
def test_other_numberings_are_solved_through_the_matcher(name):
    """A catalog puzzle renumbered and renamed is still served by its family, in the user's names."""
    rng = random.Random(name)
    defn = renumbered(load_data(catalog.build(name)), 11)
    special = families.find(defn)
    assert special is not None
    for _ in range(3):
        state = scrambled(defn, rng, rng.randrange(5, 40))
        moves = special.solve(state, Budget(time_limit=2.0)).moves
        assert verify(defn, state, moves)


def test_other_definitions_are_not_recognized():
    cube = load_data(catalog.build("cube2"))
    loop = load_data(catalog.build("loopover-3x4"))
    slide = load_data(catalog.build("sliding-3x4"))
    flip = load_data(catalog.build("flipit-6"))
    for family in (loopover_family, sliding_family, flipit_family):
        assert family.recognize(cube) is None
    assert sliding_family.recognize(loop) is None and flipit_family.recognize(slide) is None
    assert loopover_family.recognize(flip) is None
    for defn, family in ((loop, loopover_family), (slide, sliding_family), (flip, flipit_family)):
        assert family.recognize(renumbered(defn, 5)) is None  # another numbering: the matcher's job


def test_bad_states_name_the_problem():
    flip = load_data(catalog.build("flipit-5"))
    plan = flipit_family.recognize(flip)
    bad = list(flip.goal)
    bad[3] = bad[2]  # a stone white on both faces
    with pytest.raises(UnreachableError, match="cell 2"):
        plan.solve(bad)
    loop = load_data(catalog.build("loopover-3x3"))
    swapped = list(apply_moves(loop, []))
    swapped[0], swapped[1] = swapped[1], swapped[0]
    with pytest.raises(UnreachableError, match="even permutation"):
        loopover_family.recognize(loop).solve(swapped)
