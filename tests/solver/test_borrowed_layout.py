"""A definition written without a layout is drawn with the layout and 3D geometry of the catalog
puzzle it is isomorphic to, carried through the sticker map (solver.analysis.borrowed)."""

import math
import random

import pytest
from analysis_geometry import renumbered

from solver import api
from solver.analysis import borrowed


def _rotate(point, axis, degrees):
    """Rodrigues' rotation of a point about an axis through the origin (right-hand rule)."""
    norm = math.sqrt(sum(a * a for a in axis))
    k = [a / norm for a in axis]
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    dot = sum(k[i] * point[i] for i in range(3))
    cross = (k[1] * point[2] - k[2] * point[1], k[2] * point[0] - k[0] * point[2], k[0] * point[1] - k[1] * point[0])
    return tuple(point[i] * c + cross[i] * s + k[i] * dot * (1 - c) for i in range(3))


def _points(polygon):
    return {tuple(round(v, 4) + 0.0 for v in p) for p in polygon}


def turns_carry_polygons(defn) -> int:
    """Every move with a turn in the geometry carries each sticker's polygon, turned about the
    move's axis, onto the polygon of the sticker it is carried to; the number of moves checked."""
    polygons = defn.geometry.stickers
    checked = 0
    for name, axis, angle in defn.geometry.moves:
        p = defn.move(name).perm
        for i, target in enumerate(p):
            if target != i:
                turned = [_rotate(q, axis, angle) for q in polygons[i]]
                assert _points(turned) == _points(polygons[target]), (name, i, target)
        checked += 1
    return checked


def test_the_catalog_cube_turns_carry_its_polygons():
    assert turns_carry_polygons(api.load("cube3")) == 18  # the check itself, on the reference


@pytest.mark.parametrize("name", ["cube3", "pyraminx", "cube2"])
def test_a_renumbered_puzzle_is_drawn_as_the_catalog_puzzle(name):
    reference = api.load(name)
    user, _, _ = renumbered(reference, random.Random(5))
    assert user.layout is None and user.geometry is None
    found = borrowed.presentation(user)
    assert found["catalog"] == name
    drawn = borrowed.apply(user, found)
    # the same cells as the catalog's, one per sticker, and the user's own moves turn them right
    assert sorted(map(tuple, found["cells"])) == sorted(reference.layout.cells)
    assert turns_carry_polygons(drawn) == len(user.moves)
    assert api.content_hash(drawn) == api.content_hash(user)  # presentation only


def test_a_puzzle_like_no_catalog_puzzle_keeps_its_grid():
    two_rings = api.load_text("""format: puzzlehub/1
name: two-rings
moves:
  - {name: A, cycles: [[0, 1, 2, 3]]}
  - {name: B, cycles: [[2, 3, 4, 5]]}
goal: WWWWRR
""")
    assert borrowed.presentation(two_rings) is None
    assert borrowed.apply(two_rings, None) is two_rings
    assert borrowed.presentation(api.load("cube3")) is None  # it has its own layout
