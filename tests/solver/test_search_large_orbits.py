"""Orbits of more than 62 slots (issue 21): projections over a few of their pieces rank and
unrank, their pattern databases hold the distances of the projected puzzle (checked against a
plain breadth-first search on sticker positions), and the plan gives such an orbit one table over a
few pieces. Rings and globes solved from random states: tests/solver/test_search_families.py."""

import random
from collections import deque
from math import comb, factorial

import numpy as np
import pytest

from solver.analysis.scramble import random_state
from solver.engine import apply_moves
from solver.search import pdb
from solver.search.model import search_model
from solver.search.ranking import BINOM, MAX_SLOTS, Part, Projection, make_ranker, unrank

from outside_puzzles import flip_ring, ring


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))


def _largest(model) -> int:
    return max(range(len(model.orbits)), key=lambda r: model.orbits[r].n)


@pytest.mark.parametrize("slots", [64, 78, 100, 130, 198])
def test_projections_of_large_orbits_round_trip(slots):
    """One to four pieces of an orbit of 64..198 slots (distinct balls, look-alike crossings,
    twisting pieces; merged groups, twists tracked or not): rank, unrank, rank again."""
    left = slots // 2 + 1
    rng = random.Random(slots)
    for defn in (ring(left, slots + 2 - left, distinct=True), ring(left, slots + 2 - left), flip_ring(slots)):
        model = search_model(defn)
        r = _largest(model)
        orb = model.orbits[r]
        assert orb.n == slots > MAX_SLOTS
        classes = [np.flatnonzero(orb.classes == c) for c in dict.fromkeys(orb.classes.tolist())]
        small = [c for c in classes if len(c) <= 2]
        locs = [model.encode(random_state(defn, random.Random(slots + i))[0]) for i in range(3)]
        for _ in range(30):
            chosen = rng.sample(small, rng.randint(1, min(2 if len(small[0]) == 2 else 4, len(small))))
            pieces = tuple(sorted(int(p) for c in chosen for p in c))
            merged = rng.random() < 0.25
            proj = Projection((Part(r, pieces, rng.random() < 0.5, merged=merged),))
            ranker = make_ranker(model, proj)
            loc = rng.choice(locs)
            for q in (ranker.rank(loc), rng.randrange(ranker.size), ranker.size - 1, 0):
                assert 0 <= q < ranker.size
                back = model.goals[0].copy()
                unrank(q, ranker.factors, ranker.groups, ranker.pieces, BINOM, back, ranker.scratch())
                assert ranker.rank(back) == q
            back = model.goals[0].copy()
            unrank(ranker.rank(loc), ranker.factors, ranker.groups, ranker.pieces, BINOM, back, ranker.scratch())
            tracked = ranker.tracked()
            if not merged and proj.parts[0].twist:
                assert np.array_equal(back[tracked], loc[tracked])
            elif not merged:
                k = orb.k
                assert np.array_equal(back[tracked] // k, loc[tracked] // k)


def _sticker_maps(twin) -> list[list[int]]:
    """Per move of a definition of distinct stickers, the position each position's sticker goes to."""
    maps = []
    for name in twin.move_names:
        after = apply_moves(twin, [name], tuple(twin.goal))
        where = [0] * len(after)
        for j, sticker in enumerate(after):
            where[twin.goal.index(sticker)] = j
        maps.append(where)
    return maps


def _distances(maps, start: tuple, unordered: bool) -> dict:
    """Moves from each placement of a few balls (their positions) back to `start`: a plain
    breadth-first search over positions (the moves include their inverses)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        for where in maps:
            nxt = tuple(where[x] for x in at)
            nxt = tuple(sorted(nxt)) if unordered else nxt
            if nxt not in dist:
                dist[nxt] = dist[at] + 1
                queue.append(nxt)
    return dist


@pytest.mark.parametrize("left,right", [(33, 33), (40, 30), (64, 40), (100, 100)])
def test_databases_of_large_orbits_are_the_projected_distances(left, right):
    """A table over one distinct ball (built as plain Python, being small), two distinct balls,
    and the two look-alike crossing balls, of rings of 64..198 balls: every entry is the distance
    the plain search finds (so every bound is admissible), and the table's distance counts are the
    search's."""
    twin = ring(left, right, distinct=True)
    maps = _sticker_maps(twin)
    for defn, unordered, count in ((twin, False, 1), (twin, False, 2), (ring(left, right), True, 2)):
        model = search_model(defn)
        r = _largest(model)
        orb = model.orbits[r]
        sizes = np.bincount(orb.classes)
        pieces = tuple(int(p) for p in np.flatnonzero(sizes[orb.classes] == 2)) if unordered else (3, left + 1)[:count]
        assert len(pieces) == count and len(set(orb.classes[list(pieces)].tolist())) == (1 if unordered else count)
        proj = Projection((Part(r, pieces, False),))
        db = pdb.build(model, proj)
        assert db.exact and db.ranker.size == comb(orb.n, count) * (1 if unordered else factorial(count))
        first = orb.first_piece
        goal = model.goals[0]
        home = tuple(orb.slots[(goal[first + p] - orb.base) // orb.k][0] for p in pieces)
        dist = _distances(maps, tuple(sorted(home)) if unordered else home, unordered)
        assert sum(db.header["distribution"]) == len(dist)
        assert db.header["distribution"] == [sum(1 for d in dist.values() if d == i) for i in range(max(dist.values()) + 1)]
        slot_of = {orb.slots[s][0]: s for s in range(orb.n)}
        rng = random.Random(left)
        for placed in rng.sample(sorted(dist), min(300, len(dist))):
            loc = goal.copy()
            for p, pos in zip(pieces, placed):
                loc[first + p] = orb.base + slot_of[pos] * orb.k
            assert db.distance(model, loc) == dist[placed]


@pytest.mark.parametrize("size", [33, 40, 64, 100])
def test_the_plan_gives_a_large_orbit_one_table_of_a_few_pieces(size):
    """Rings of 64..198 balls: one table, over the two crossing balls (three colours) or over as
    many distinct balls as fit WIDE_ENTRIES; the fallback places them, then the finisher."""
    from solver.search.plan import WIDE_ENTRIES, make_plan, only_wide

    for defn, pieces in ((ring(size, size), 2), (ring(size, size, distinct=True), None)):
        model = search_model(defn)
        plan = make_plan(model)
        assert len(plan.databases) == 1 and only_wide(model, plan)
        (part,) = plan.databases[0].parts
        assert plan.sizes[0] <= WIDE_ENTRIES
        if pieces is not None:
            assert len(part.pieces) == pieces
        else:  # one more distinct ball would not fit
            assert plan.sizes[0] * (model.orbits[part.orbit].n - len(part.pieces)) > WIDE_ENTRIES
