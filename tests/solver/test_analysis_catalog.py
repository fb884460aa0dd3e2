"""The analysis on the built-in catalog, against published figures."""

import random
from math import factorial

import pytest
from analysis_geometry import renumbered

from solver import api, perm
from solver.analysis.group import group_order, reachability, state_count
from solver.analysis.isomorphism import match
from solver.analysis.pieces import piece_model
from solver.definition.model import Definition

PUBLISHED = {
    "cube2": 88_179_840,
    "cube3": 43_252_003_274_489_856_000,
    "floppy": 192,
    "domino": 1_625_702_400,
    "pyraminx": 933_120,
    "skewb": 3_149_280,
    "sliding-3x3": factorial(9) // 2,
    "sliding-4x4": factorial(16) // 2,
    "loopover-5x5": factorial(25) // 2,
    "loopover-6x6": factorial(36),
    # no fixed centres on the even cube: every colouring turns 24 ways (the corners tell them apart)
    "cube4": 7_401_196_841_564_901_869_874_093_974_498_574_336_000_000_000 * 24,
    "cube5": 282_870_942_277_741_856_536_180_333_107_150_328_293_127_731_985_672_134_721_536_000_000_000_000_000,
    "cube7": int("19500551183731307835329126754019748794904992692043434567152132912323232706135469180065278"
                 "712755853360682328551719137311299993600000000000000000000000000000000000"),
    "megaminx": 100_669_616_553_523_347_122_516_032_313_645_505_168_688_116_411_019_768_627_200_000_000_000,
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_state_counts_match_published_figures(name):
    assert state_count(api.load(name)) == (PUBLISHED[name], True)


def test_cube3_group_order_and_seed_scramble():
    d = api.load("cube3")
    assert group_order(d) == (43_252_003_274_489_856_000, True)
    scramble = "L D2 R U2 L F2 U2 L F2 R2 B2 R U' R' U2 F2 R' D B' F2".split()
    state = d.goal
    for name in scramble:
        state = perm.apply(d.move(name).perm, state)
    assert reachability(d, state) is None
    corners = next(o for o in piece_model(d).orbits if o.name == "corners")
    a, b, c = corners.slots[2]
    twisted = list(state)
    twisted[a], twisted[b], twisted[c] = state[c], state[a], state[b]
    assert reachability(d, twisted) == "corner twist"


def test_renumbered_quarter_turn_cube_is_recognised_as_the_catalog_cube():
    ref = api.load("cube3")
    quarter = [m for m in ref.moves if not m.name.endswith("2")]
    user, _, _ = renumbered(Definition(name="q", stickers=ref.stickers, moves=tuple(quarter), goals=ref.goals),
                            random.Random(5))
    found = match(user, ref)
    assert found is not None
    for name in ref.move_names:
        seq = found.moves[name]
        assert len(seq) == (2 if name.endswith("2") else 1)
        p = perm.compose(perm.identity(ref.stickers), *[user.move(m).perm for m in seq])
        phi = found.sticker
        assert all(phi[p[i]] == ref.move(name).perm[phi[i]] for i in range(ref.stickers))
