"""Group data (solver.analysis.membership): computed once per definition, kept as JSON, and enough
to decide reachability in milliseconds, up to the 20x20x20 cube, in any numbering. Its answers are
checked against the move group's own chain."""

import json
import random

import pytest
from analysis_geometry import renumbered

from solver import api, catalog, perm
from solver.analysis import group
from solver.analysis.pieces import piece_model
from solver.definition.formats import load_data


def stored(defn):
    """The group data as the site keeps it: through JSON."""
    data = api.group_data(defn)
    assert data is not None
    return json.loads(json.dumps(data))


def scrambled(defn, rng, moves=60):
    s = defn.goal
    for _ in range(moves):
        s = perm.apply(rng.choice(defn.generators()), s)
    return s


def turned_in_place(state, slot, by=1):
    """The piece in `slot` turned in place: its colours shifted round its stickers."""
    s = list(state)
    for i, x in enumerate(slot):
        s[x] = state[slot[(i - by) % len(slot)]]
    return s


def piece_orbit(defn, name):
    return next(o for o in piece_model(defn).orbits if o.name == name)


@pytest.mark.parametrize("n", [8, 9, 12, 13, 16, 17, 20])
def test_big_cubes_reachability_from_group_data(n):
    """No reachable state is refused (the goal, one turn of every move, scrambles) and twisted
    corners or (odd cubes) a flipped middle edge are refused with the reason."""
    d = load_data(catalog.build(f"cube{n}"))
    data = stored(d)
    rng = random.Random(n)
    for s in [d.goal] + [perm.apply(g, d.goal) for g in d.generators()] + [scrambled(d, rng) for _ in range(3)]:
        assert api.reachability(d, s, data) is None
    s = scrambled(d, rng)
    corners = piece_orbit(d, "corners")
    assert api.reachability(d, turned_in_place(s, corners.slots[0]), data) == "corner twist"
    if n % 2:
        middle = next(o for o in piece_model(d).orbits if o.name.startswith("edges") and o.twists == 2)
        reason = api.reachability(d, turned_in_place(s, middle.slots[3]), data)
        assert reason == group.reachability(d, turned_in_place(s, middle.slots[3]))
        assert reason.endswith("flip")


def test_a_renumbered_big_cube_is_decided_from_its_group_data():
    rng = random.Random(12)
    d, _, _ = renumbered(load_data(catalog.build("cube12")), rng)
    data = stored(d)
    states = [scrambled(d, rng) for _ in range(3)]
    assert all(api.reachability(d, s, data) is None for s in states)
    corners = next(o for o in piece_model(d).orbits if len(o.slots) == 8 and o.twists == 3)
    assert api.reachability(d, turned_in_place(states[0], corners.slots[5], 2), data).endswith("twist")


@pytest.mark.parametrize("name", ["cube3", "cube4", "cube5", "megaminx", "pyraminx", "floppy"])
def test_group_data_agrees_with_the_move_group(name):
    """Every single-piece change of a scrambled state (a turn in place, two pieces swapped) gets the
    same answer from the group data as from the chain of the whole group."""
    d = api.load(name)
    data = stored(d)
    rng = random.Random(7)
    s = scrambled(d, rng)
    refused = 0
    for orbit in piece_model(d).orbits:
        changed = [turned_in_place(s, orbit.slots[0], by) for by in range(1, len(orbit.slots[0]))]
        if len(orbit.slots) > 1:
            t = list(s)
            for x, y in zip(orbit.slots[0], orbit.slots[1]):
                t[x], t[y] = s[y], s[x]
            changed.append(t)
        for t in changed:
            expected = group.reachability(d, t)
            assert api.reachability(d, t, data) == expected, (orbit.name, expected)
            refused += expected is not None
    assert refused > 0


def test_without_group_data_reachability_keeps_its_time_limit():
    """A group that is not an orbit product (the skewb's corners twist together) has no group data;
    the check then builds the group, within the time limit given, and says None when it runs out."""
    d = api.load("skewb")
    assert api.group_data(d) is None
    group.move_group.cache_clear()
    group.orbit_chains.cache_clear()
    turning = next(o for o in piece_model(d).orbits if o.twists > 1)
    s = turned_in_place(d.goal, turning.slots[0])
    assert api.reachability(d, s, time_limit=0.0) is None
    assert api.reachability(d, s) is not None


def test_group_data_for_another_definition_is_not_used():
    cube3, cube4 = api.load("cube3"), api.load("cube4")
    s = turned_in_place(cube4.goal, piece_orbit(cube4, "corners").slots[0])
    assert api.reachability(cube4, s, stored(cube3)) == "corner twist"  # decided without it
