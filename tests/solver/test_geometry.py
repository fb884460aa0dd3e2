"""The optional geometry block: validated like the rest of a definition, outside the content hash,
written back by the export, and on the catalog's boxes consistent with the moves (turning a moved
sticker's polygon about the move's axis by its angle lands on the polygon of the sticker it goes to)."""

import copy

import pytest

from solver import api, catalog
from solver.catalog.geometry import rotate, rotation
from solver.errors import DefinitionError


def centre(polygon):
    return [sum(p[k] for p in polygon) / len(polygon) for k in range(3)]


@pytest.mark.parametrize("name", ["cube2", "cube3", "cube4", "floppy", "cuboid-2x3x3", "megaminx", "pyraminx", "skewb",
                                  "dino", "rex", "little-chop", "skewb-diamond", "fto"])
def test_catalog_boxes_turn_each_sticker_onto_the_one_it_goes_to(name):
    defn = api.load_data(catalog.build(name))
    turns = {move: (axis, angle) for move, axis, angle in defn.geometry.moves}
    assert set(turns) == set(defn.move_names)
    for move in defn.moves:
        m = rotation(*turns[move.name])
        for i, j in enumerate(move.perm):
            if i == j:
                continue  # not carried (or turned in place, as a centre is)
            moved = rotate(m, centre(defn.geometry.stickers[i]))
            assert moved == pytest.approx(centre(defn.geometry.stickers[j]), abs=1e-3), (move.name, i)  # coordinates are written rounded


@pytest.mark.parametrize("name", ["cuboid-2x3x3", "megaminx", "pyraminx", "skewb", "dino", "rex", "little-chop", "skewb-diamond",
                                  "fto"])
def test_catalog_polygons_face_outwards(name):
    defn = api.load_data(catalog.build(name))
    for polygon in defn.geometry.stickers:
        a, b, c = polygon[:3]
        u = [b[k] - a[k] for k in range(3)]
        v = [c[k] - b[k] for k in range(3)]
        normal = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        assert sum(n * x for n, x in zip(normal, centre(polygon))) > 0


def test_geometry_is_outside_the_hash_and_survives_export():
    data = catalog.build("cube2")
    with_geometry = api.load_data(data)
    bare = copy.deepcopy(data)
    del bare["geometry"]
    assert api.content_hash(api.load_data(bare)) == api.content_hash(with_geometry)
    again = api.load_text(api.export_yaml(with_geometry))
    assert again.geometry == with_geometry.geometry


@pytest.mark.parametrize("change, message", [
    (lambda g: g.update(stickers=g["stickers"][:3]), "geometry.stickers has 3 entries, the puzzle has 24"),
    (lambda g: g["stickers"].__setitem__(5, [[0, 0, 0], [1, 1, 1]]), "geometry.stickers[5]: expected a polygon"),
    (lambda g: g["stickers"].__setitem__(2, [[0, 0, "x"], [1, 0, 0], [0, 1, 0]]), "geometry.stickers[2][0]"),
    (lambda g: g["moves"].update(R={"axis": [0, 0, 0], "angle": 90}), "axis cannot be [0, 0, 0]"),
    (lambda g: g["moves"].update(R={"axis": [1, 0, 0], "angle": 720}), "at most 360 degrees"),
    (lambda g: g.update(colour=1), "geometry: unknown key colour"),
])
def test_bad_geometry_is_refused_naming_the_place(change, message):
    data = copy.deepcopy(catalog.build("cube2"))
    change(data["geometry"])
    with pytest.raises(DefinitionError) as info:
        api.load_data(data)
    assert message in str(info.value)


def test_geometry_of_moves_the_puzzle_lacks_is_skipped():
    """A definition derived with fewer moves (a fork, the <R, U> subgroup) keeps its geometry."""
    data = copy.deepcopy(catalog.build("cube2"))
    data["moves"] = [m for m in data["moves"] if m["name"] in ("R", "U")]
    defn = api.load_data(data)
    assert {name for name, _axis, _angle in defn.geometry.moves} == {"R", "U"}
