import random

import numpy as np
import pytest
from analysis_geometry import cuboid, pyraminx, renumbered, skewb, sliding

from solver import perm
from solver.analysis.pieces import build_piece_model, piece_model
from solver.definition.model import Case, Definition, Move
from solver.errors import StateError


def shape(model):
    return sorted((o.name, len(o.slots), len(o.slots[0]), o.twists) for o in model.orbits)


def carry(reading, action):
    """Move piece readings along an action table: the piece at s (orientation o) goes to t[s*k+o]."""
    out = []
    for r, t in zip(reading, action):
        k = len(t) // len(r)
        new = np.empty_like(r)
        for s, code in enumerate(r):
            label, o = divmod(int(code), k)
            s2, o2 = divmod(int(t[s * k + o]), k)
            new[s2] = label * k + o2
        out.append(new)
    return out


def test_cube3_has_corners_and_edges_and_fixed_centres():
    m = build_piece_model(cuboid((3, 3, 3)))
    assert shape(m) == [("corners", 8, 3, 3), ("edges", 12, 2, 2)]
    assert len(m.fixed) == 6


def test_renumbering_keeps_the_shape():
    d = cuboid((3, 3, 3))
    r, _, _ = renumbered(d, random.Random(5))
    assert shape(build_piece_model(r)) == shape(build_piece_model(d))


@pytest.mark.parametrize(
    "defn, expected",
    [
        (cuboid((2, 2, 2), faces=("U", "R", "F")), [("corners", 7, 3, 3)]),
        # the axial pieces turn in place: four orbits of one piece
        (pyraminx(), [("corners", 1, 3, 3)] * 4 + [("edges", 6, 2, 2)]),
        (skewb(), [("centres", 6, 1, 1), ("corners", 3, 3, 3), ("corners", 4, 3, 3)]),
        # floppy: a side edge's side sticker never moves, a corner's orientation follows its place
        (cuboid((3, 1, 3), faces=("R", "L", "F", "B")), [("edges", 1, 2, 2)] * 4 + [("orbit 0", 4, 4, 1)]),
        (sliding(3, 3), [("tiles", 9, 1, 1)]),
    ],
)
def test_shapes_of_known_puzzles(defn, expected):
    got = shape(build_piece_model(defn))
    # duplicate names are numbered; compare without the number
    assert sorted((n.split(" ")[0] if not n.startswith("orbit") else n, *rest) for n, *rest in got) == sorted(expected)


def test_skewb_corner_orbits_are_numbered():
    names = sorted(o.name for o in build_piece_model(skewb()).orbits)
    assert names == ["centres", "corners 1", "corners 2"]


@pytest.mark.parametrize("defn", [cuboid((3, 3, 3)), pyraminx(), skewb(), cuboid((4, 4, 4), slices=True)])
def test_action_agrees_with_reading_colours(defn):
    """Reading the state after a move equals carrying the reading before it along the move's action."""
    m = piece_model(defn)
    rng = random.Random(1)
    gens = defn.generators()
    state = defn.goal
    for _ in range(40):
        g = rng.choice(gens)
        before = m.read(state)
        state = perm.apply(g, state)
        after = m.read(state)
        expected = carry(before, m.action(g))
        for a, e in zip(after, expected):
            assert list(a) == list(e)


def test_goal_reads_as_identity_on_distinguishable_pieces():
    m = piece_model(cuboid((3, 3, 3)))
    for orbit, r in zip(m.orbits, m.read(cuboid((3, 3, 3)).goal)):
        assert list(r) == [s * orbit.twists for s in range(len(orbit.slots))]


def test_identical_pieces_read_as_smallest_slot():
    d = cuboid((4, 4, 4), slices=True)
    m = piece_model(d)
    centres = next(o for o in m.orbits if o.name == "centres")
    reading = m.read(d.goal)[m.orbits.index(centres)]
    assert len(set(reading.tolist())) == 6  # six colours, four identical centres each
    for s, code in enumerate(reading):
        assert code <= s
        assert d.goal[centres.slots[code][0]] == d.goal[centres.slots[s][0]]


def test_non_cyclic_orientation_group():
    """Two triangular pieces of six stickers (three in front, three behind): swap the pieces,
    turn one, or flip it over. Its orientation group is the dihedral group of order 6."""
    n = 12
    cycles = ([[i, i + 6] for i in range(6)], [[0, 1, 2], [3, 4, 5]], [[0, 3], [1, 5], [2, 4]])
    gens = [perm.from_cycles(n, c) for c in cycles]
    d = Definition(name="d3", stickers=n, moves=tuple(Move(f"m{i}", (Case(g),)) for i, g in enumerate(gens)),
                   goals=(tuple("abcdefghijkl"),))
    m = build_piece_model(d)
    assert shape(m) == [("orbit 0", 2, 6, 6)]
    orbit = m.orbits[0]
    assert orbit.rot[0] == tuple(range(6)) and len(set(orbit.rot)) == 6
    products = {perm.compose(a, b) for a in orbit.rot for b in orbit.rot}
    assert products == set(orbit.rot)
    assert any(perm.compose(a, b) != perm.compose(b, a) for a in orbit.rot for b in orbit.rot)
    # every orientation of a piece reads back as that orientation
    for o, r in enumerate(orbit.rot):
        state = list(d.goal)
        for j, x in enumerate(orbit.slots[0]):
            state[orbit.slots[0][r[j]]] = d.goal[x]
        assert m.read(state)[0][0] == o


def test_read_rejects_bad_states():
    d = cuboid((3, 3, 3))
    m = piece_model(d)
    with pytest.raises(StateError, match="stickers"):
        m.read(d.goal[:-1])
    corner = next(o for o in m.orbits if o.name == "corners").slots[0]
    bad = list(d.goal)
    bad[corner[0]] = bad[corner[1]]  # a corner with two stickers of one colour
    with pytest.raises(StateError, match="corners: the piece at stickers"):
        m.read(bad)


def test_guarded_sliding_puzzle_pieces_come_from_cases():
    d = sliding(2, 3)
    m = piece_model(d)
    assert shape(m) == [("tiles", 6, 1, 1)]
    assert not m.fixed


def test_a_piece_with_a_huge_orientation_group_is_split_into_stickers():
    n = 8
    gens = [perm.from_cycles(n, [list(range(8))]), perm.from_cycles(n, [[0, 1], [2, 3, 4, 5, 6, 7]])]
    d = Definition(name="s8", stickers=n, moves=tuple(Move(f"m{i}", (Case(g),)) for i, g in enumerate(gens)),
                   goals=(tuple("abcdefgh"),))
    assert shape(build_piece_model(d)) == [("tiles", 8, 1, 1)]
