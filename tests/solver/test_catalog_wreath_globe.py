"""The catalog's wreath and globe generators: the moves are the cycles the family promises, and
scrambled small ones are solved by the solver with the answer replayed."""

import random

import pytest

from solver import api, catalog, perm
from solver.definition.formats import load_data
from solver.engine import apply_moves, verify


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))


@pytest.mark.parametrize("a,b", [(6, 6), (7, 12), (33, 33), (100, 100)])
def test_wreath_rings_cross_at_two_points(a, b):
    defn = load_data(catalog.build(f"wreath-{a}x{b}"))
    assert defn.stickers == a + b - 2
    left = perm.cycles(defn.move("L").cases[0].perm)
    right = perm.cycles(defn.move("R").cases[0].perm)
    assert [len(c) for c in left] == [a] and [len(c) for c in right] == [b]
    assert set(left[0]) & set(right[0]) == {i for i, c in enumerate(defn.goal) if c == "C"} and len(set(left[0]) & set(right[0])) == 2
    assert len(defn.layout.cells) == defn.stickers


@pytest.mark.parametrize("bands,half", [(1, 2), (3, 4), (33, 25)])
def test_globe_bands_turn_and_flips_turn_half_over(bands, half):
    defn = load_data(catalog.build(f"globe-{bands}x{half}"))
    cols = 2 * half
    assert defn.stickers == bands * cols
    width = len(str(bands - 1))
    for band in range(bands):
        (cycle,) = perm.cycles(defn.move(f"r{band:0{width}d}").cases[0].perm)
        assert sorted(cycle) == [band * cols + c for c in range(cols)]
    flip = defn.move(f"f{1:0{len(str(cols - 1))}d}").cases[0].perm
    assert perm.is_identity(perm.compose(flip, flip))
    # The cell of band 0 at column 1 (the flip's first column) goes to the last band, column half.
    assert flip[1] == (bands - 1) * cols + half
    assert flip[0] == 0  # column 0 is outside the half-sphere of columns 1 .. half


@pytest.mark.parametrize("name", ["wreath-6x6", "wreath-7x7", "globe-1x4"])
def test_scrambled_small_ones_are_solved(name):
    defn = load_data(catalog.build(name))
    rng = random.Random(5)
    state = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(60)], defn.goal)
    result = api.solve(defn, state, time_limit=20)
    assert result["verified"] and verify(defn, state, result["solution"])


def test_sizes_out_of_range_are_refused():
    with pytest.raises(Exception, match="sizes 4..100"):
        catalog.build("wreath-3x6")
    with pytest.raises(Exception, match="sizes 1..25"):
        catalog.build("globe-3x26")
