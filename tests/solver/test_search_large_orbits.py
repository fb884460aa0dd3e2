"""Orbits of more than 62 slots (issue 21): projections over a few of their pieces rank and
unrank, their pattern databases hold the distances of the projected puzzle (checked against a
plain breadth-first search on sticker positions), and rings of 40 to 100 balls are answered within
a time limit, replayed, in fewer moves per ball than the finisher alone gave."""

import random
from collections import deque

import numpy as np
import pytest

from solver.analysis.scramble import random_state
from solver.definition.formats import load_data
from solver.engine import apply_moves, verify
from solver.search import engine, pdb
from solver.search.model import search_model
from solver.search.ranking import BINOM, MAX_SLOTS, Part, Projection, make_ranker, unrank

from outside_puzzles import globe, ring


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))


def flip_ring(n: int):
    """n two-sticker pieces on a ring (tops 0..n-1, bottoms n..2n-1): A turns the ring one step,
    F flips the piece in slot 0: one orbit of n twisting pieces."""
    a = [(i + 1) % n for i in range(n)] + [n + (i + 1) % n for i in range(n)]
    f = list(range(2 * n))
    f[0], f[n] = n, 0

    def cycles(p):
        seen, out = set(), []
        for s in range(len(p)):
            if s in seen or p[s] == s:
                continue
            c, i = [], s
            while i not in seen:
                seen.add(i)
                c.append(i)
                i = p[i]
            out.append(c)
        return out

    inverse = [0] * (2 * n)
    for i, j in enumerate(a):
        inverse[j] = i
    moves = [{"name": "A", "cycles": cycles(a)}, {"name": "A'", "cycles": cycles(inverse)}, {"name": "F", "cycles": cycles(f)}]
    return load_data({"format": "puzzlehub/1", "name": f"flip-ring-{n}", "goal": [f"c{i}" for i in range(2 * n)],
                      "moves": moves})


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
        for _ in range(30):
            chosen = rng.sample(small, rng.randint(1, min(2 if len(small[0]) == 2 else 4, len(small))))
            pieces = tuple(sorted(int(p) for c in chosen for p in c))
            merged = rng.random() < 0.25
            proj = Projection((Part(r, pieces, rng.random() < 0.5, merged=merged),))
            ranker = make_ranker(model, proj)
            state, _ = random_state(defn, random.Random(rng.randrange(10**6)))
            loc = model.encode(state)
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
    """A table over two distinct balls, and one over the two look-alike crossing balls, of rings
    of 64..198 balls: every entry is the distance the plain search finds (so every bound is
    admissible), and the table's distance counts are the search's."""
    twin = ring(left, right, distinct=True)
    maps = _sticker_maps(twin)
    for defn, unordered in ((twin, False), (ring(left, right), True)):
        model = search_model(defn)
        r = _largest(model)
        orb = model.orbits[r]
        sizes = np.bincount(orb.classes)
        pieces = tuple(int(p) for p in np.flatnonzero(sizes[orb.classes] == 2)) if unordered else (3, left + 1)
        assert len(pieces) == 2 and len(set(orb.classes[list(pieces)].tolist())) == (1 if unordered else 2)
        proj = Projection((Part(r, pieces, False),))
        db = pdb.build(model, proj)
        assert db.exact and db.ranker.size == (orb.n * (orb.n - 1) // (2 if unordered else 1))
        first = orb.first_piece
        goal = model.goals[0]
        home = tuple(orb.slots[(goal[first + p] - orb.base) // orb.k][0] for p in pieces)
        dist = _distances(maps, tuple(sorted(home)) if unordered else home, unordered)
        assert sum(db.header["distribution"]) == len(dist)
        assert db.header["distribution"] == [sum(1 for d in dist.values() if d == i) for i in range(max(dist.values()) + 1)]
        slot_of = {orb.slots[s][0]: s for s in range(orb.n)}
        rng = random.Random(left)
        for placed in rng.sample(sorted(dist), 300):
            loc = goal.copy()
            for p, pos in zip(pieces, placed):
                loc[first + p] = orb.base + slot_of[pos] * orb.k
            assert db.distance(model, loc) == dist[placed]


@pytest.mark.parametrize("size", [40, 60, 80, 100])
def test_rings_are_answered_in_fewer_moves_per_ball(size):
    """Two rings of `size` balls crossing at two points, three colours, from random states: a
    60 s limit, answers replayed, and at most BOUND moves per ball (the finisher alone took
    12-33: its setups turned the rings back after every commutator)."""
    defn = ring(size, size)
    for seed in range(2):
        state, _ = random_state(defn, random.Random(seed))
        result = engine.solve(defn, state, time_limit=60)
        assert result.moves is not None and verify(defn, state, result.moves)
        assert len(result.moves) <= BOUND * len(defn.goal), (size, seed, len(result.moves))


BOUND = 20


@pytest.mark.parametrize("bands,half", [(1, 16), (3, 20), (7, 25)])
def test_globes_with_large_orbits_are_answered(bands, half):
    """Globes whose band pairs are orbits of 64..100 cells: answered within the limit, replayed."""
    defn = globe(bands, half)
    state, _ = random_state(defn, random.Random(bands))
    result = engine.solve(defn, state, time_limit=90)
    assert result.moves is not None and verify(defn, state, result.moves)
