"""Every definition within the limits gets an answer: definitions written as plain sticker
permutations (tests/solver/outside_puzzles.py), generated at swept sizes, solved from random
states within a time limit and replayed."""

import random
import time

import pytest

from solver import api
from solver.analysis.scramble import random_state
from solver.engine import Codec, apply_moves, verify
from solver.search import engine
from solver.search.macros import Finisher
from solver.search.model import search_model

from outside_puzzles import pairings, ring


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))


@pytest.mark.parametrize("colours", [255, 257, 5000])
def test_any_number_of_colours_up_to_the_sticker_limit(colours):
    """A ring of distinct balls with `colours` stickers: states encode, decode and solve."""
    left = (colours + 2) // 2
    defn = ring(left, colours + 2 - left, distinct=True)
    assert len(defn.colours) == colours
    codec = Codec(defn)
    assert codec.decode(codec.encode(defn.goal)) == defn.goal
    rng = random.Random(colours)
    scramble = [rng.choice(defn.move_names) for _ in range(3)]
    state = apply_moves(defn, scramble)
    result = engine.solve(defn, state, time_limit=60)
    assert result.moves is not None and len(result.moves) <= 3 and verify(defn, state, result.moves)


def test_finisher_takes_any_number_of_rough_orbits():
    """66 orbits, every one rough (no algorithm of few slots stays in it): the finisher's sets of
    rough orbits are not bounded by a machine word."""
    defn = pairings(33)
    model = search_model(defn)
    assert len(model.orbits) == 66
    finisher = Finisher(model, time.monotonic() + 1)
    assert sorted(finisher.rough) == list(range(66))


@pytest.mark.parametrize("time_limit", [30, 60])
def test_a_table_that_cannot_be_built_in_time_gives_way_to_the_next_method(time_limit):
    """A 2x2x2 without a fixed corner: its full table (88 million entries) cannot be built in half
    of these limits on an empty cache, yet a state 3 moves away is answered, optimally."""
    from outside_puzzles import slice_cube

    defn = slice_cube(2, seed=time_limit)
    rng = random.Random(time_limit)
    state = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(3)])
    result = engine.solve(defn, state, time_limit=time_limit)
    assert result.moves is not None and len(result.moves) <= 3 and verify(defn, state, result.moves)
    assert result.optimal and result.method != "table"
