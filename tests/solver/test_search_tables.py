"""Ranking, distance tables and pattern-database files of the compiled search."""

import os
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import Codec, apply_moves
from solver.search import bfs, engine, pdb
from solver.search.model import search_model
from solver.search.ranking import Part, Projection, full_projection, make_ranker, unrank
from solver.search.ranking import BINOM

from search_puzzles import cube2, sliding


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    return tmp_path


def random_state(defn, rng, n=30):
    state = defn.goal
    for _ in range(n):
        for name in rng.sample(defn.move_names, len(defn.move_names)):
            try:
                state = apply_moves(defn, [name], state)
                break
            except Exception:
                continue
    return state


PROJECTIONS = [
    lambda m: full_projection(m),
    lambda m: Projection((Part(0, (0, 2, 3), True),)),
    lambda m: Projection((Part(0, (1, 4), False),)),
    lambda m: Projection((Part(0, tuple(range(m.orbits[0].n)), True, merged=True),)),
]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, len(PROJECTIONS) - 1))
def test_rank_unrank_round_trip(seed, which):
    rng = random.Random(seed)
    defn, pieces = cube2("URF", symmetric=False, renumber=seed % 7)
    model = search_model(defn, pieces)
    ranker = make_ranker(model, PROJECTIONS[which](model))
    loc = model.encode(random_state(defn, rng))
    r = ranker.rank(loc)
    assert 0 <= r < ranker.size
    back = model.goals[0].copy()
    unrank(r, ranker.factors, ranker.groups, ranker.pieces, BINOM, back, ranker.scratch())
    assert ranker.rank(back) == r
    tracked = ranker.tracked()
    if which != 3:  # a merged group forgets which piece is which; the rest keep every tracked piece
        assert np.array_equal(back[tracked] // 3 if which == 2 else back[tracked], loc[tracked] // 3 if which == 2 else loc[tracked])


def test_full_tables_match_breadth_first_counts():
    """State counts and distance distributions against the plain sticker BFS (independent code)."""
    for defn, pieces in (cube2("UR", symmetric=False, renumber=3), sliding(2, 3, renumber=4)):
        model = search_model(defn, pieces)
        db = pdb.build(model)
        total, layers = bfs.count_reachable(Codec(defn), 10**6)
        assert db.header["reached"] == total
        assert db.header["distribution"] == layers


def test_known_counts():
    defn, pieces = cube2("URF", symmetric=False, renumber=1)
    db = pdb.build(search_model(defn, pieces))
    assert db.header["reached"] == 3_674_160  # 7! * 3^6
    assert db.header["max_depth"] == 11 and db.header["distribution"][-1] == 2644
    defn, pieces = sliding(3, 3, renumber=2)
    gods = engine.gods(search_model(defn, pieces).defn)
    assert gods["states"] == 181_440 and gods["gods_number"] == 31 and gods["antipodes"] == 2


def test_file_round_trip_and_refusals(cache):
    defn, pieces = cube2("UR", symmetric=False, renumber=5)
    model = search_model(defn, pieces)
    proj = Projection((Part(0, (0, 1, 2), True),))
    db = pdb.cached(model, proj)
    path = next(cache.glob("pdb/*.pdb"))
    again = pdb.load(path, model)
    assert np.array_equal(np.asarray(again.body), np.asarray(db.body))
    assert again.header["distribution"] == db.header["distribution"]
    assert [h["path"] for h in engine.pdb_list()] == [str(path)]

    other, other_pieces = cube2("UR", symmetric=False, renumber=6)  # same puzzle, other numbering
    with pytest.raises(pdb.PatternDatabaseError, match="built for definition"):
        pdb.load(path, search_model(other, other_pieces))

    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(pdb.PatternDatabaseError, match="checksum"):
        pdb.load(path, model)
    path.write_bytes(b"not a table at all")
    with pytest.raises(pdb.PatternDatabaseError, match="bad magic"):
        pdb.load(path, model)


def test_a_checked_table_is_stamped_and_checked_again_once_rewritten(cache):
    """A body found intact is stamped, so that later processes skip reading it; not a file just
    written (a rewrite in the same clock tick would keep its time), and a rewritten file is checked."""
    defn, pieces = cube2("UR", symmetric=False, renumber=5)
    model = search_model(defn, pieces)
    pdb.cached(model, Projection((Part(0, (0, 1, 2), True),)))
    path = next(cache.glob("pdb/*.pdb"))
    stamp = path.with_suffix(".checked")
    pdb.load(path, model)
    assert not stamp.exists()  # written a moment ago
    old = time.time() - 10
    os.utime(path, (old, old))
    pdb.load(path, model)
    assert stamp.exists()
    assert pdb.load(path, model).header["entries"] > 0  # the stamp matches: read without the check
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0xFF
    path.write_bytes(bytes(raw))  # same size and inode, a new modification time
    with pytest.raises(pdb.PatternDatabaseError, match="checksum"):
        pdb.load(path, model)


def test_over_budget_is_refused_with_the_size():
    defn, pieces = cube2("URF", symmetric=False, renumber=5)
    model = search_model(defn, pieces)
    with pytest.raises(pdb.PatternDatabaseError, match=r"3,674,160 entries need 1,837,080 bytes"):
        engine.pdb_build(defn, full_projection(model), budget_bytes=1_000_000)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["ball-ring", "flipit-8", "pyraminx"]), st.integers(0, 10**6), st.booleans())
def test_rank_round_trip_with_look_alike_pieces(name, seed, partial):
    """Multisets (look-alike balls and stones), twists of look-alike stones in slot order."""
    from solver import api

    defn = api.load(name)
    model = search_model(defn)
    orb = max(range(len(model.orbits)), key=lambda r: model.orbits[r].n)
    classes = model.orbits[orb].classes
    if partial:  # one whole class of the largest orbit, with its twists
        cls = int(np.bincount(classes).argmax())
        proj = Projection((Part(orb, tuple(int(p) for p in np.flatnonzero(classes == cls)), True),))
    else:
        proj = full_projection(model)
    ranker = make_ranker(model, proj)
    loc = model.encode(random_state(defn, random.Random(seed), 40))
    r = ranker.rank(loc)
    assert 0 <= r < ranker.size
    back = model.goals[0].copy()
    unrank(r, ranker.factors, ranker.groups, ranker.pieces, BINOM, back, ranker.scratch())
    assert ranker.rank(back) == r
    if not partial:  # everything tracked: the same state, look-alikes possibly exchanged
        assert np.array_equal(model.view(back), model.view(loc))


def test_flipit_table_matches_breadth_first_counts():
    from solver import api

    defn = api.load("flipit-8")
    db = pdb.build(search_model(defn))
    total, layers = bfs.count_reachable(Codec(defn), 10**6)
    assert db.header["reached"] == total and db.header["distribution"] == layers


@pytest.mark.parametrize("name", ["little-chop", "dino"])
def test_factors_of_one_shape_share_a_move_table_equal_to_their_own(name):
    """Moves map locations whichever piece is there: databases over as many pieces alike (the dino
    cube's two halves of its edges) read one move table, which is each factor's own, in any numbering."""
    from solver import api, catalog
    from solver.search.ida import _move_tables, combine
    from solver.search.kernels import puzzle_arrays
    from solver.search.pdb import _factor_table
    from solver.search.ranking import SIZE

    from analysis_geometry import renumbered

    defn = renumbered(api.load_data(catalog.build(name)), random.Random(len(name)))[0]
    model = search_model(defn)
    h = combine(model, [pdb.cached(model, p) for p in engine.make_plan(model, engine.memory_budget()).databases])
    tables, toff = _move_tables(model, h.factors, h.groups, h.pieces, limit=float("inf"), keep_from=0)
    moves = len(model.move_names)
    assert len(set(toff.tolist())) < len(toff)  # some factors share
    for f in range(len(h.factors)):
        own = np.zeros(int(h.factors[f, SIZE]) * moves, dtype=np.int32)
        _factor_table(puzzle_arrays(model), f, f, h.factors, h.groups, h.pieces, np.arange(model.n_pieces, dtype=np.int32),
                      model.goals[0], moves, own, np.zeros(1, dtype=np.int64))
        assert np.array_equal(own, tables[toff[f]: toff[f] + len(own)])
