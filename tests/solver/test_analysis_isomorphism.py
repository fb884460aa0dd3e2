import random
import time

import pytest
from analysis_geometry import cuboid, pyraminx, renumbered, skewb, sliding

from solver import perm
from solver.analysis.isomorphism import match
from solver.definition.model import Case, Definition, Move


def check(user: Definition, ref: Definition, m):
    """The match relabels the goal and turns each user sequence into the reference move."""
    assert m is not None
    phi = m.sticker
    assert sorted(phi) == list(range(ref.stickers))
    relabelled = [None] * user.stickers
    for i, c in enumerate(user.goal):
        relabelled[phi[i]] = m.colour[c]
    assert tuple(relabelled) in ref.goals
    for ref_move in ref.moves:
        seq = m.moves[ref_move.name]
        if ref_move.guarded:
            assert len(seq) == 1
            continue
        p = perm.compose(perm.identity(user.stickers), *[user.move(name).perm for name in seq])
        assert tuple(phi[p[i]] for i in range(user.stickers)) == tuple(ref_move.perm[phi[i]] for i in range(user.stickers))


@pytest.mark.parametrize("ref", [cuboid((3, 3, 3), inverses=True, halves=True), cuboid((2, 2, 2)),
                                 pyraminx(), skewb(), cuboid((3, 1, 3), faces=("R", "L", "F", "B"))],
                         ids=lambda d: d.name)
def test_renumbered_puzzles_are_recognised(ref):
    rng = random.Random(17)
    for _ in range(2):
        user, _, _ = renumbered(ref, rng)
        check(user, ref, match(user, ref))


def test_quarter_turns_only_match_the_full_move_set():
    ref = cuboid((3, 3, 3), inverses=True, halves=True)
    user, _, _ = renumbered(cuboid((3, 3, 3), inverses=True), random.Random(3))
    m = match(user, ref)
    check(user, ref, m)
    assert sorted(len(m.moves[name]) for name in ref.move_names) == [1] * 12 + [2] * 6


def test_renumbered_sliding_puzzle_is_recognised_with_its_guards():
    ref = sliding(3, 3)
    user, _, _ = renumbered(ref, random.Random(8))
    check(user, ref, match(user, ref))


def test_a_different_puzzle_is_refused_quickly():
    ref = cuboid((3, 3, 3), inverses=True, halves=True)
    start = time.perf_counter()
    assert match(cuboid((2, 2, 2)), ref) is None
    assert match(skewb(), pyraminx()) is None
    # the same cube with one move made a different turn: same size and colours, another group
    moves = list(ref.moves)
    moves[0] = Move(moves[0].name, (Case(perm.compose(moves[0].perm, moves[3].perm)),))
    odd = Definition(name="odd", stickers=ref.stickers, moves=tuple(moves), goals=ref.goals)
    assert match(odd, ref) is None
    assert time.perf_counter() - start < 10


def test_same_stickers_and_moves_but_other_colours_is_refused():
    ref = cuboid((2, 2, 2))
    goal = list(ref.goal)
    goal[0], goal[5] = goal[5], goal[0]
    if goal != list(ref.goal):
        other = Definition(name="x", stickers=ref.stickers, moves=ref.moves, goals=(tuple(goal),))
        assert match(other, ref) is None
