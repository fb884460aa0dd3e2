"""Puzzles from shapes (solver.geometry): the five solids, named puzzles and their state counts
against published figures, the 3x3x3 built from its shape solved by the specialised solver, and
descriptions refused with one line."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import api, catalog, perm
from solver.analysis import borrowed
from solver.catalog import shapes as catalog_shapes
from solver.catalog.geometry import rotation
from solver.definition.canonical import content_hash
from solver.definition.formats import load_data, load_text
from solver.errors import DefinitionError
from solver.geometry import NAMED, build, parse
from solver.geometry import turns
from solver.geometry.cutting import cut_faces
from solver.geometry.shape import _centroid, _turn
from solver.geometry.solids import solid as solid_of

ROOT = Path(__file__).resolve().parents[2]
F = math.factorial

# (shape, published state count, where it is published). Our counts are of colourings with one
# slab per axis held still (docs/shapes.md); where that leaves some whole-puzzle rotations the
# moves can make, the count is the published one times those rotations, as noted.
PUBLISHED = [
    ("2x2x2", 3_674_160, "Jaap's Puzzle Page, Pocket Cube (cube2.htm): 7!·3^6"),
    ("3x3x3", 43_252_003_274_489_856_000, "the issue; Jaap's Puzzle Page, Rubik's Cube (rubik.htm)"),
    ("4x4x4", 7_401_196_841_564_901_869_874_093_974_498_574_336_000_000_000,
     "Wikipedia, Rubik's Revenge: permutations"),
    ("5x5x5", 282_870_942_277_741_856_536_180_333_107_150_328_293_127_731_985_672_134_721_536_000_000_000_000_000,
     "Wikipedia, Professor's Cube: permutations"),
    ("skewb", 3_149_280, "Jaap's Puzzle Page, Skewb (skewb.htm)"),
    ("pyraminx", 75_582_720, "Cube-Lovers, Mark Longridge, 'Assorted Pyraminxi' (1995): 3^4·3^4·6!/2·2^6/2"),
    ("tetraminx", 933_120, "Wikipedia, Pyraminx: 933,120 disregarding the tips"),
    ("megaminx", 100_669_616_553_523_347_122_516_032_313_645_505_168_688_116_411_019_768_627_200_000_000_000,
     "the issue; Jaap's Puzzle Page, Megaminx (megaminx.htm)"),
    ("trajber's octahedron", 40_503_019_070_029_824_000,
     "Jaap's Puzzle Page, Corner-turning Octahedron (octahed.htm): 12!·8!·2^9·4^6"),
    # Jaap prints 2,009,078,326,888,000 beside the formula 12!·2^10·4^6, whose value is this:
    ("christopher's jewel", F(12) * 2**10 * 4**6, "Jaap's Puzzle Page, Christoph's Jewel (octahed.htm): 12!·2^10·4^6"),
    # the corner-turning octahedron with its tips: the jewel's cuts and the tips' planes at 2/3
    ("o v 0.577350269189626 v 1.15470053837925", 8_229_184_826_926_694_400,
     "Cube-Lovers, Longridge (1995): 4^6·4^6·12!/2·2^12/2; OEIS A309112 a(3)"),
    # Jaap fixes the orientation by one of 12 pieces; nothing holds the FTO still, so 12 times as many
    ("fto", 12 * 31_408_133_379_194_880_000_000, "Jaap's Puzzle Page, Face-turning Octahedron (octaface.htm)"),
    # Jaap counts up to the 3 turns about the face we hold still
    ("skewb diamond", 3 * 138_240, "Jaap's Puzzle Page, Skewb Diamond (diamond.htm)"),
    # half turns only (no jumbling); the 24 rotations of the cube are not factored out here
    ("helicopter", 24 * 493_694_233_804_800_000,
     "Jaap's Puzzle Page, Helicopter Cube (helicopter.htm): 7!·3^6·6!^4/2, no jumbling"),
    # no centres hold it still: Jaap divides by its 60 orientations
    ("pyraminx crystal", 60 * 1_677_826_942_558_722_452_041_933_871_894_091_752_811_468_606_850_329_477_120_000_000_000,
     "Jaap's Puzzle Page, Pyraminx Crystal (pyracrys.htm): 30!·20!·2^27·3^19/60"),
    # 12!/2 edge arrangements; Jaap divides by the 12 rotations the moves can make
    ("dino", F(12) // 2, "Jaap's Puzzle Page, Dino Cube (dino.htm): 12!/2/12 = 19,958,400 up to rotation"),
]

# Published only to a few digits
APPROXIMATE = [
    ("master tetraminx", 2.6817e15, 1e11, "Wikipedia, Pyraminx: the Master Pyraminx has about 2.6817e15 "
                                        "combinations (tips disregarded), after Michael Gottlieb's notes"),
    ("gigaminx", 3.648e263, 1e260, "Wikipedia, Gigaminx: about 3.65e263 positions"),
]


def info(description):
    return api.info(load_data(build(description)))


@pytest.mark.parametrize("shape,count,source", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_state_counts_match_published_figures(shape, count, source):
    facts = info(shape)
    assert facts["state_count_exact"]
    assert facts["state_count"] == count, source


@pytest.mark.parametrize("shape,count,within,source", APPROXIMATE, ids=[p[0] for p in APPROXIMATE])
def test_state_counts_match_rounded_figures(shape, count, within, source):
    assert abs(info(shape)["state_count"] - count) < within, source


def test_tips_multiply_by_three_each():
    # the Master Pyraminx is the Master Tetraminx with four trivial tips
    assert info("master pyraminx")["state_count"] == 3**4 * info("master tetraminx")["state_count"]


@pytest.mark.parametrize("shape,faces,stickers,order", [
    ("t v 0.333333333333333 v 1.66666666666667", 4, 36, 3),
    ("c f 0.333333333333333", 6, 54, 4),
    ("o f 0.333333333333333", 8, 72, 3),
    ("d f 0.7", 12, 132, 5),
    ("i v 0.73", 20, 140, 5),
])
def test_the_five_solids(shape, faces, stickers, order):
    data = build(shape)
    defn = load_data(data)
    assert defn.stickers == stickers and len(data["colors"]) == faces
    assert sorted(defn.goal.count(c) for c in set(defn.goal)) == [stickers // faces] * faces
    for move in data["moves"]:  # each base move turns by the axis' smallest symmetry angle
        p = defn.move(move["name"]).perm
        assert perm.order(p) == order
        assert data["geometry"]["moves"][move["name"]]["angle"] == pytest.approx(-360 / order)
    # every sticker polygon is flat, counter-clockwise seen from outside, and faces its own way
    for polygon in data["geometry"]["stickers"]:
        points = np.array(polygon)
        normal = np.cross(points[1] - points[0], points[-1] - points[0])
        assert normal @ _centroid(points) > 0
        assert np.allclose((points - points[0]) @ normal, 0, atol=1e-3)
    # the layout keeps stickers apart (cells are a unit wide)
    cells = np.array(data["layout"]["cells"], dtype=float)
    gaps = np.linalg.norm(cells[:, None] - cells[None], axis=2) + np.eye(len(cells)) * 9
    assert gaps.min() >= 1.0


def test_move_names_follow_the_conventions():
    assert load_data(build("3x3x3")).move_names == [
        f + s for f in "UDFBRL" for s in ("",)] + [f + s for f in "UDFBRL" for s in ("'", "2")]
    assert [m["name"] for m in build("4x4x4")["moves"]] == ["U", "2U", "2D", "F", "2F", "2B", "R", "2R", "2L"]
    assert [m["name"] for m in build("pyraminx")["moves"]][:2] == ["U", "2U"]  # tip, then the layer under it
    assert {m["name"] for m in build("megaminx")["moves"]} == {"U", "F", "L", "BL", "BR", "R", "FL", "DL", "B",
                                                               "DR", "FR", "D"}
    assert "UFR" in {m["name"] for m in build("fto")["moves"]}


def test_shape_cube3_is_the_catalog_cube_and_the_specialised_solver_serves_it():
    defn = api.load("shape:3x3x3")
    assert content_hash(defn) == content_hash(api.load("cube3"))
    scramble = api.scramble(defn, moves=25, seed=18)
    result = api.solve(defn, scramble["state"], time_limit=60)
    assert result["method"] == "special:cube3" and result["verified"]
    assert api.verify(defn, scramble["state"], result["solution"])


def test_a_shape_puzzle_without_a_specialised_solver_is_solved_and_replays():
    defn = api.load("shape:skewb diamond")
    scramble = api.scramble(defn, moves=8, seed=5)
    result = api.solve(defn, scramble["state"], time_limit=30)
    assert result["verified"] and api.verify(defn, scramble["state"], result["solution"])


def test_helicopter_turns_by_halves_and_its_jumbling_turn_is_no_permutation():
    data = build("helicopter")
    assert len(data["moves"]) == 12 and not data["extenders"]  # a half turn is its own inverse
    # The real puzzle also turns an edge by arccos(1/3) (about 70.5 degrees), where other axes line
    # up and the puzzle jumbles. That turn does not carry the cut stickers onto stickers: no move.
    solid = solid_of("c")
    lines = turns.lines(solid, parse("helicopter"))
    pieces = cut_faces([solid.vertices[list(f)] for f in solid.faces], lines, 10_000)
    centres = np.array([_centroid(p) for _, p in pieces])
    axis = (1.0, 1.0, 0.0)  # the UR edge
    inside = centres @ np.array(axis) / math.sqrt(2) > 0.7071
    assert _turn(centres, inside, rotation(axis, -180)) is not None
    assert _turn(centres, inside, rotation(axis, -math.degrees(math.acos(1 / 3)))) is None


def test_definitions_resolve_shapes_and_named_shapes():
    assert api.load("shape:c f 0").stickers == 24
    assert api.load("master pyraminx").stickers == 64  # a named shape the catalog lacks
    assert api.load("Master-Pyraminx").stickers == 64
    assert "Built from the shape" not in api.load("skewb").description
    assert "Built from the shape" in api.load("shape:skewb").description
    assert content_hash(api.load("Skewb Diamond")) == content_hash(api.load("skewb-diamond"))
    with pytest.raises(DefinitionError, match="cuts are spheres"):
        api.load("shape:rex")  # spherical cuts: the catalog's rex, not a shape
    assert api.load("rex").stickers == 54


def test_the_catalog_lists_the_well_known_named_shapes_once():
    listed = catalog.names()
    for name in ("master-pyraminx", "gigaminx", "pyraminx-crystal", "helicopter", "christophers-jewel"):
        assert name in listed and catalog.build(name)["name"] == name
        assert "named shape" in catalog.describe(name)
    assert catalog.topics("christophers-jewel") == ["shape", "octahedron", "christophers", "jewel"]
    assert "tetraminx" in catalog.topics("pyraminx")  # the catalog's pyraminx is that shape: found by its name
    # a named shape resolves to the catalog's puzzle under the shape's name, however it is written
    assert content_hash(api.load("Christopher's Jewel")) == content_hash(load_data(catalog.build("christophers-jewel")))
    assert content_hash(api.load("shape:gigaminx")) == content_hash(api.load("gigaminx"))
    # the puzzles the catalog builds itself are listed once, under their own names, with the shape
    # that is the same puzzle named in their description
    for own, shape in (("dino", "dino"), ("fto", "fto"), ("skewb", "skewb"), ("megaminx", "megaminx"),
                       ("pyraminx", "tetraminx")):
        assert listed.count(own) == 1 and "tetraminx" not in listed
        assert f"named shape '{shape}'" in catalog.describe(own)
        assert api.info(api.load(f"shape:{shape}"))["state_count"] % api.info(api.load(own))["state_count"] == 0
    assert "rex" in listed and "named shape" not in catalog.describe("rex")  # no shape: spherical cuts
    assert len(listed) == len(set(listed))


def test_the_catalog_shapes_stay_out_of_the_drawing_lookup_a_request_makes():
    # borrowable() runs in the site's request for a definition without a layout: cutting the 25
    # shapes would add 3-7 s to it
    borrowed._drawn_catalog.cache_clear()
    listed = {name for names in borrowed._drawn_catalog().values() for name in names}
    assert "cube3" in listed and not listed & set(catalog_shapes.BY_CATALOG_NAME)


def test_every_named_shape_builds_and_loads():
    for name in NAMED:
        defn = load_data(build(name))
        assert defn.stickers == len(defn.layout.cells) == len(defn.geometry.stickers), name
        assert defn.base_moves, name


@pytest.mark.parametrize("text,fragment", [
    ("c", "no cuts"),
    ("", "empty"),
    ("x f 0", "neither a solid"),
    ("c f", "has no distance"),
    ("c q 0", "must be f, v or e"),
    ("c f abc", "must be a number"),
    ("c f nan", "must be a number"),
    ("c f 1e300", "absurd distance"),
    ("c f 1.5", "no turn is possible"),
    ("c f 1.5", "face axis U-D"),
    ("c v 1.7319", "under 0.001 of its face's size"),
    ("c f 0.333 f 0.3330001", "under 0.001 of its face's size"),
    ("c " + " ".join(f"f {k / 100}" for k in range(60)), "more than 10,000 stickers"),
])
def test_bad_descriptions_are_refused(text, fragment):
    with pytest.raises(DefinitionError, match=fragment):
        build(text)


def test_cli_prints_the_native_yaml_and_refuses_with_one_line():
    proc = subprocess.run([sys.executable, "-m", "solver", "shape", "o f 0.333333333333333 v -2", "--name", "my-fto"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    defn = load_text(proc.stdout)
    assert defn.name == "my-fto" and defn.stickers == 72 and len(defn.base_moves) == 8
    assert yaml.safe_load(proc.stdout)["extenders"][0] == {"name": defn.base_moves[0] + "'", "function": "REVERSE",
                                                           "params": [defn.base_moves[0]]}
    for text in ("c f 0 " + " ".join(f"f {k / 100}" for k in range(1, 60)), "c f 1e9", "c"):
        proc = subprocess.run([sys.executable, "-m", "solver", "shape", text], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    listed = subprocess.run([sys.executable, "-m", "solver", "shape", "--list"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120).stdout.splitlines()
    assert len(listed) == len(NAMED) and any(line.split() == ["gigaminx", "d", "f", "0.64", "f", "0.82"] for line in listed)
    proc = subprocess.run([sys.executable, "-m", "solver", "info", "shape:c f 0", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and '"state_count": 3674160' in proc.stdout


def test_parse_keeps_the_description_and_the_name():
    d = parse("FTO")
    assert d.shape == "o" and d.cuts == (("f", 0.333333333333333),) and d.slug == "fto"
    assert parse("c  F 0.5   f 0").text == "c f 0.5 f 0"


cuts = st.lists(st.tuples(st.sampled_from("fve"), st.floats(-3.5, 3.5, allow_nan=False).map(lambda x: round(x, 3))),
                min_size=1, max_size=3)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from("tcodi"), cuts)
def test_any_description_builds_a_loadable_definition_or_is_refused_with_one_line(shape, planes):
    text = " ".join([shape] + [f"{f} {d}" for f, d in planes])
    try:
        data = build(text)
    except DefinitionError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("shape:")
        return
    defn = load_data(data)
    for move in defn.moves:  # every move is a permutation of the stickers that keeps colours per piece
        assert sorted(move.perm) == list(range(defn.stickers))
