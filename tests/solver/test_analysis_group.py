import random
from collections import Counter
from math import factorial

import pytest
from analysis_geometry import cuboid, loopover, pyraminx, recoloured, renumbered, skewb, sliding

from solver import catalog, perm
from solver.analysis import statespace
from solver.analysis.chain import StabChain
from solver.analysis.group import (group_order, move_group, random_element, reachability,
                                   state_count)
from solver.analysis.pieces import piece_model
from solver.definition.formats import load_data
from solver.definition.model import Case, Definition, Move
from solver.errors import StateError

KNOWN_ORDERS = [
    (cuboid((2, 2, 2)), 88_179_840),
    (cuboid((2, 2, 2), faces=("U", "R", "F")), 3_674_160),
    (cuboid((3, 1, 3), faces=("R", "L", "F", "B")), 192),
    (pyraminx(), 933_120),
    (skewb(), 3_149_280),
    (cuboid((3, 3, 3)), 43_252_003_274_489_856_000),
]


@pytest.mark.parametrize("defn, order", KNOWN_ORDERS, ids=lambda x: getattr(x, "name", ""))
def test_known_group_orders(defn, order):
    assert group_order(defn) == (order, True)
    assert state_count(defn) == (order, True)  # every piece is distinguishable


def test_order_does_not_depend_on_numbering():
    rng = random.Random(11)
    for _ in range(3):
        d, _, _ = renumbered(cuboid((3, 3, 3)), rng)
        assert group_order(d) == (43_252_003_274_489_856_000, True)


def test_verified_chain_agrees_with_the_proof_by_bound():
    d = cuboid((4, 4, 4), slices=True)
    verified = StabChain(d.stickers, d.generators(), verify=True)
    assert verified.complete and verified.order == group_order(d)[0]


def test_cube4_colourings_are_24_times_the_usual_figure():
    """Face and inner-slice turns include whole-cube rotations; the 24 rotations of a colouring
    are distinct (the corners are), so the usual count (fixed orientation) times 24."""
    usual = 7_401_196_841_564_901_869_874_093_974_498_574_336_000_000_000
    assert state_count(cuboid((4, 4, 4), slices=True)) == (usual * 24, True)


def test_sliding_puzzles_count_half_the_arrangements():
    assert state_count(sliding(4, 4)) == (factorial(16) // 2, True)
    assert state_count(sliding(2, 3)) == (factorial(6) // 2, True)


@pytest.mark.parametrize("defn", [
    cuboid((3, 1, 3), faces=("R", "L", "F", "B")),
    sliding(2, 3),
    sliding(3, 3),
    loopover(3, 3),
    loopover(2, 4),
    recoloured(loopover(3, 3), "AAABBBCCC"),
    recoloured(loopover(2, 4), "AABBCCDD"),
    recoloured(loopover(3, 4), "AAABBBCCCDDD"),
    recoloured(cuboid((3, 1, 3), faces=("R", "L", "F", "B")), "W" * 9 + "Y" * 9 + "R" * 12),
], ids=lambda d: d.name)
def test_state_count_agrees_with_breadth_first_search(defn):
    count, exact = state_count(defn)
    assert exact
    assert count == len(statespace.reachable_states(defn)[0])


def twist(state, stickers):
    s = list(state)
    for a, b in zip(stickers, stickers[1:] + stickers[:1]):
        s[b] = state[a]
    return s


def test_reachability_reasons_on_the_cube():
    d = cuboid((3, 3, 3))
    m = piece_model(d)
    corners = next(o for o in m.orbits if o.name == "corners")
    edges = next(o for o in m.orbits if o.name == "edges")
    g = d.goal
    assert reachability(d, twist(g, list(corners.slots[0]))) == "corner twist"
    assert reachability(d, twist(g, list(edges.slots[0]))) == "edge flip"
    e, f = edges.slots[0], edges.slots[1]
    assert reachability(d, twist(twist(g, [e[0], f[0]]), [e[1], f[1]])) == "parity (edges)"
    c, c2 = corners.slots[0], corners.slots[1]
    swapped = twist(twist(twist(g, [c[0], c2[0]]), [c[1], c2[1]]), [c[2], c2[2]])
    assert reachability(d, twist(twist(swapped, [e[0], f[0]]), [e[1], f[1]])) is None
    recoloured_sticker = list(g)
    recoloured_sticker[c[0]] = "X"
    assert reachability(d, recoloured_sticker) == f"colour counts differ: 1 X, goal has 0"
    recoloured_sticker[c[0]] = next(col for col in g if col != g[c[0]])
    assert reachability(d, recoloured_sticker).startswith("colour counts differ: 8 ")
    bad = list(g)
    x = next(x for slot in edges.slots for x in slot if g[x] not in (g[y] for y in c))
    bad[c[0]], bad[x] = g[x], g[c[0]]
    assert "match no piece of the goal" in reachability(d, bad)
    centre = m.fixed[0]
    other = next(x for x in m.fixed if g[x] != g[centre])
    assert reachability(d, twist(g, [centre, other])).startswith(f"sticker {min(centre, other)} never moves")
    with pytest.raises(StateError):
        reachability(d, g[:-1])


def test_scrambles_are_reachable_on_renumbered_puzzles():
    rng = random.Random(2)
    for base in (cuboid((3, 3, 3)), cuboid((4, 4, 4), slices=True), skewb(), pyraminx()):
        d, _, _ = renumbered(base, rng)
        s = d.goal
        for _ in range(60):
            s = perm.apply(rng.choice(d.generators()), s)
        assert reachability(d, s) is None


def test_big_cube_parity_is_absorbed_by_identical_centres():
    """On the 4x4x4 a swap of two centres or of two wings is reachable (an odd permutation of
    centres can be paired with a swap of two identical ones); a twisted corner is not."""
    d = cuboid((4, 4, 4), slices=True)
    rng = random.Random(4)
    s = perm.apply(random_element(d, rng), d.goal)
    assert reachability(d, s) is None
    m = piece_model(d)
    by_name = {o.name: o for o in m.orbits}
    centres, wings, corners = by_name["centres"], by_name["edges"], by_name["corners"]
    a = centres.slots[0][0]
    b = next(slot[0] for slot in centres.slots if s[slot[0]] != s[a])
    assert reachability(d, twist(s, [a, b])) is None
    w1, w2 = wings.slots[0], wings.slots[5]
    assert reachability(d, twist(twist(s, [w1[0], w2[0]]), [w1[1], w2[1]])) is None
    assert reachability(d, twist(s, list(corners.slots[3]))) == "corner twist"


@pytest.mark.parametrize("defn", [
    cuboid((3, 1, 3), faces=("R", "L", "F", "B")),
    recoloured(cuboid((3, 1, 3), faces=("R", "L", "F", "B")), "W" * 9 + "Y" * 9 + "R" * 12),
    sliding(2, 3),
    recoloured(loopover(3, 3), "AAABBBCCC"),
    recoloured(loopover(2, 4), "AABBCCDD"),
], ids=lambda d: d.name)
def test_reachability_agrees_with_breadth_first_search(defn):
    seen, pack = statespace.reachable_states(defn)
    rng = random.Random(7)
    reachable = 0
    for _ in range(150):
        s = defn.goal
        for _ in range(20):
            s = perm.apply(rng.choice(defn.moves).cases[0].perm, s)
        s = list(s)
        if rng.random() < 0.5:  # swap two stickers: a colouring that may or may not be reachable
            i, j = rng.sample(range(len(s)), 2)
            s[i], s[j] = s[j], s[i]
        inside = statespace.contains(seen, pack(s))
        reachable += inside
        assert (reachability(defn, s) is None) == inside, s
    assert reachable > 0


def test_fifteen_puzzle_tile_swap_is_parity():
    d = sliding(4, 4)
    s = list(d.goal)
    s[1], s[2] = s[2], s[1]
    assert reachability(d, s).startswith("parity")
    s[3], s[4] = s[4], s[3]
    assert reachability(d, s) is None


def test_random_elements_are_members_and_uniform():
    d = cuboid((3, 1, 3), faces=("R", "L", "F", "B"))
    chain = move_group(d).chain
    rng = random.Random(0)
    counts = Counter(random_element(d, rng) for _ in range(192 * 40))
    assert len(counts) == 192 and all(chain.contains(p) for p in counts)
    assert max(counts.values()) < 3 * 40 and min(counts.values()) > 40 // 3


@pytest.mark.parametrize("n", [5, 6, 10])
def test_loopover_is_symmetric_for_even_sides_alternating_for_odd(n):
    """SEEDS.md: the last two tiles may need a swap only when n is even; odd n leaves it unsolvable."""
    expected = factorial(n * n) // (1 if n % 2 == 0 else 2)
    assert group_order(loopover(n, n)) == (expected, True)
    assert state_count(loopover(n, n)) == (expected, True)


def test_big_sliding_puzzle_counts_from_its_token_groupoid():
    assert state_count(sliding(10, 10)) == (factorial(100) // 2, True)


@pytest.mark.parametrize("n", [29, 30])
def test_loopover_too_big_to_store_is_proven_by_its_three_cycles(n):
    d = loopover(n, n)
    expected = factorial(n * n) // (1 if n % 2 == 0 else 2)
    assert group_order(d) == (expected, True)
    assert state_count(d) == (expected, True)
    s = list(d.goal)
    s[0], s[1] = s[1], s[0]
    assert reachability(d, s) == (None if n % 2 == 0 else "parity (tiles)")
    grouped = recoloured(d, [c for c in "ABCD" for _ in range(n * n // 4)] + ["E"] * (n * n % 4))
    assert state_count(grouped) == (factorial(n * n) // factorial(n * n // 4) ** 4 // factorial(n * n % 4), True)


def doubled(defn: Definition) -> Definition:
    """Every sticker gets a twin that always moves with it: two-sticker pieces."""
    n = defn.stickers
    moves = tuple(Move(m.name, (Case(tuple(m.perm) + tuple(x + n for x in m.perm)),)) for m in defn.moves)
    goal = tuple(defn.goal) + tuple(c.lower() for c in defn.goal)
    return Definition(name="doubled", stickers=2 * n, moves=moves, goals=(goal,))


def test_a_group_too_big_to_store_gives_bounds_quickly():
    d = doubled(loopover(20, 20))
    assert {len(o.slots[0]) for o in piece_model(d).orbits} == {2}
    order, exact = group_order(d)
    assert not exact and 1 < order < factorial(400)
    count, exact = state_count(d)
    assert not exact and count >= factorial(400)
    s = list(d.goal)
    s[0], s[1], s[400], s[401] = s[1], s[0], s[401], s[400]  # two pieces trade places
    assert reachability(d, s) is None  # not provable either way: nothing is refused


def _big_cube_states(d, rng):
    """The goal, one face turn, and a 40-move scramble."""
    s = d.goal
    for _ in range(40):
        s = perm.apply(rng.choice(d.generators()), s)
    return [d.goal, perm.apply(d.generators()[0], d.goal), s]


@pytest.mark.parametrize("n", [10, 11])
def test_big_cubes_with_many_centre_runs_refuse_no_reachable_state(n):
    """cube10 and up have more than 12 runs of identical centres: reachability is decided by parity
    arithmetic over all of them (it used to try only 2^12 combinations and refused cube10 U)."""
    d = load_data(catalog.build(f"cube{n}"))
    rng = random.Random(n)
    for s in _big_cube_states(d, rng):
        assert reachability(d, s) is None
    corners = next(o for o in piece_model(d).orbits if o.name == "corners")
    assert reachability(d, twist(d.goal, list(corners.slots[0]))) == "corner twist"
    centres = [o for o in piece_model(d).orbits if len(o.slots[0]) == 1 and len(o.slots) == 24]
    assert len(centres) == (n - 2) ** 2 // 4


def test_renumbered_big_cube_refuses_no_reachable_state():
    rng = random.Random(11)
    d, _, _ = renumbered(load_data(catalog.build("cube10")), rng)
    for s in _big_cube_states(d, rng):
        assert reachability(d, s) is None
    s = _big_cube_states(d, rng)[2]
    corners = next(o for o in piece_model(d).orbits if o.name == "corners")
    assert reachability(d, twist(s, list(corners.slots[0]))) == "corner twist"
