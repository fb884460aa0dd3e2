"""The 5x5x5's phases 3-5 (five.py): their coordinates on the stickers, and whole reductions replayed."""

import itertools
import random
import time

import numpy as np
import pytest
from analysis_geometry import renumbered

from solver import api, catalog, deadline
from solver.definition.formats import load_data
from solver.engine import apply_moves
from solver.search.budget import Budget, Cancelled, OutOfTime
from solver.special.bigcube import coordinates, five, ida, reduction, short
from solver.special.bigcube.model import BigCube

CUBE = BigCube(5)
GOAL = np.array(["URFDLB".index(f) for f in CUBE.faces], dtype=np.uint8)
OUTER = [f + s for f in "URFDLB" for s in ("", "2", "'")]  # turns that keep a reduced cube reduced


def _played(state, turns):
    return five._played(state, turns)


def _codes(text: str) -> np.ndarray:
    return np.array(["WRGYOB".index(c) for c in text], dtype=np.uint8)


def test_arrangements_are_numbered_one_to_one_and_turned_as_their_labels():
    counts = [4, 1, 1, 1, 1]
    values = set()
    for places in itertools.permutations(range(8), 4):
        labels = np.zeros(8, dtype=np.int64)
        labels[list(places)] = [1, 2, 3, 4]
        values.add(coordinates.rank(counts, labels))
    assert values == set(range(1680))
    dest = np.array([np.roll(np.arange(8), 3), np.arange(8)[::-1]])
    table = coordinates.arrangement(counts, dest)
    labels = np.array([0, 3, 0, 1, 0, 4, 2, 0])
    for t in range(2):
        moved = np.zeros(8, dtype=np.int64)
        moved[dest[t]] = labels
        assert table[coordinates.rank(counts, labels), t] == coordinates.rank(counts, moved)


def test_outer_turns_keep_edges_paired_in_phase_3s_sense():
    """Outer turns carry whole edges: for some flip (each edge's way) the wings are in their
    classes and the middle edges oriented, so the wing classes and the middle edges' orientation
    agree as phase 3 assumes; and every phase is done on the solved cube."""
    rng = random.Random(3)
    for _ in range(5):
        state = _played(GOAL, [rng.choice(OUTER) for _ in range(30)])
        rows = five.phase3_starts(state, GOAL)
        assert min(ida.bound(five.phase3(), row) for row in rows) == 0
    assert ida.bound(five.phase3(), five.phase3_starts(GOAL, GOAL)[0]) == 0
    assert min(ida.bound(five.phase4().search, row) for row in five.phase4_starts(GOAL, GOAL)) == 0
    assert ida.bound(five.phase5().search, five.phase5_starts(GOAL, GOAL)[0]) == 0


def test_each_phase_keeps_what_the_phases_before_did():
    """From the solved cube, phase 4's turns keep phase 3 done (some flip), phase 5's keep phases 3
    and 4 (the E slice's edges paired, read on the stickers)."""
    rng = random.Random(4)
    e_slice = [k for k, p in enumerate(five.geometry().points) if p[1] == 0]
    for k in (4, 5):
        state = _played(GOAL, [rng.choice(five.TURNS[k]) for _ in range(40)])
        assert min(ida.bound(five.phase3(), row) for row in five.phase3_starts(state, GOAL)) == 0
        if k == 5:
            now = five.pieces(state, GOAL)
            geo = five.geometry()
            for slot in e_slice:
                assert set(geo.wing_slot[now.wing[geo.wing_slot == slot]]) == {now.midge[slot]}


def test_ways_bring_centres_home_and_pair_every_edge():
    edges = short.freeslice.Edges(CUBE)
    rng = random.Random(5)
    state = _codes(CUBE.scrambled(rng, 1000))
    turns, on_axes = short.solve_centres(state, GOAL, 5, time.perf_counter() + 60, on_axes=True)
    ways = five.reduce(on_axes, GOAL, len(turns), time.perf_counter() + 60)
    assert ways
    centres = np.concatenate([five.geometry().x_centres, five.geometry().t_centres])
    for way in ways:
        end = _played(on_axes, way)
        assert (end[centres] == GOAL[centres]).all()
        assert edges.unpaired(end[None])[0] == 0
        assert len(way) < 50  # phases 3-5: about 37


def test_a_phase_search_past_its_settling_time_ends_with_enough_ways():
    """Past `settle_at`, `enough` ways end a search that would go on to collect `cap` of them: the
    first ones it would have given, in the same order."""
    state = _codes(CUBE.scrambled(random.Random(5), 1000))
    _, on_axes = short.solve_centres(state, GOAL, 5, time.perf_counter() + 60, on_axes=True)
    starts = five.phase3_starts(on_axes, GOAL)
    lengths, stop, later = np.zeros(len(starts), dtype=np.int64), np.zeros(1, dtype=np.int64), time.perf_counter() + 60
    total = next(t for t in itertools.count() if ida.search(five.phase3(), starts, lengths, t, 1, later, stop)[0])
    every, late, _ = ida.search(five.phase3(), starts, lengths, total, 64, later, stop)
    settled, settled_late, _ = ida.search(five.phase3(), starts, lengths, total, 64, later, stop, enough=4, settle_at=0.0)
    assert not late and settled_late
    assert 4 <= len(settled) < len(every) and settled == every[:len(settled)]


def test_five_ways_says_when_the_phases_ran_out_of_time_and_its_fallback_still_reduces():
    """With no time for five.py's phases, the ways come from the greedy fallback (flagged, so that
    reduction._short_ways tries another rotation's phases); with time, from the phases. Either
    way every centre is home and every edge paired on the replayed stickers."""
    edges = short.freeslice.Edges(CUBE)
    state = _codes(CUBE.scrambled(random.Random(9), 1000))
    turns, on_axes = short.solve_centres(state, GOAL, 5, time.perf_counter() + 60, on_axes=True)
    centres = np.concatenate([five.geometry().x_centres, five.geometry().t_centres])
    now = time.perf_counter()
    for stop, by_phases in ((now, False), (now + 60, True)):  # (the fallback's time: stop - greedy after stop)
        ways, given_by_phases = reduction.five_ways(on_axes, GOAL, len(turns), stop - 60, stop)
        assert ways and given_by_phases == by_phases
        for way in ways:
            end = _played(on_axes, way)
            assert (end[centres] == GOAL[centres]).all() and edges.unpaired(end[None])[0] == 0


def _prepared():
    """Tables, macros and balls loaded (or built once) as a solve does before its clock starts."""
    colours = {c: i for i, c in enumerate(sorted(set(CUBE.solved())))}
    short.prepare(5, np.array([colours[c] for c in CUBE.solved()], dtype=np.uint8).tobytes())


def test_random_5x5x5_states_are_solved_short_within_the_time_limit():
    """Random states, each answer replayed: about 78 catalog turns where main gave about 100 (the
    free-slice pairing) and the 3-cycles alone 650; the time limit honoured."""
    _prepared()
    rng = random.Random(2026)
    for limit in (10, 3):
        state = CUBE.scrambled(rng, 1000)
        began = time.perf_counter()
        answer = reduction.solve_big_cube(state, 5, time_limit=limit)
        assert time.perf_counter() - began < limit + 1.5
        assert CUBE.apply(state, answer) == CUBE.solved()
        if limit == 10:
            assert len(answer) < 300, len(answer)  # (out of time under load: the old steps, about 100-220)


def test_a_short_time_limit_is_honoured():
    """An answer replayed, or none (OutOfTime) when even the 3-cycles have no time left."""
    _prepared()
    state = CUBE.scrambled(random.Random(7), 1000)
    began = time.perf_counter()
    try:
        answer = reduction.solve_big_cube(state, 5, time_limit=1.5)
        assert CUBE.apply(state, answer) == CUBE.solved()
    except OutOfTime:
        pass
    assert time.perf_counter() - began < 3


def test_a_renumbered_5x5x5_with_renamed_moves_and_colours_is_served_by_these_phases():
    _prepared()
    defn, _, _ = renumbered(load_data(catalog.build("cube5")), random.Random(11))
    rng = random.Random(12)
    state = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(300)])
    out = api.solve(defn, state, time_limit=10)
    assert out["method"] == "special:bigcube"
    assert apply_moves(defn, out["solution"], state) in defn.goals
    assert len(out["solution"]) < 250  # about 78; the generic fallback gives 750 or more


def test_a_cancel_stops_the_phases():
    _prepared()
    state = CUBE.scrambled(random.Random(8), 1000)
    began = time.perf_counter()
    with pytest.raises(Cancelled):
        reduction.solve_big_cube(state, 5, time_limit=30,
                                 budget=Budget(cancel=lambda: time.perf_counter() > began + 1.5))
    assert time.perf_counter() - began < 4


def test_a_rounds_shortest_way_is_screened_late_and_the_others_not():
    """Between SCREEN_FIRST and 0.2 of the time left, a round's shortest way still goes through the
    quick 3x3x3 stage (a rotation whose phases ended late was dropped unscreened, its answer lost)
    and the longer ones do not; below SCREEN_FIRST none does. The screened answer replayed solves."""
    rng = random.Random(11)
    state = CUBE.apply(CUBE.solved(), [rng.choice(OUTER) for _ in range(25)])  # reduced: a 3x3x3 left
    first = reduction.rotations(5)[0]
    ways = [reduction._Way(first, turns, reduction._Reduction(5, state, CUBE.solved()))
            for turns in ([], ["U", "U'", "R", "R'"])]
    left = 10.0
    with deadline.limit(Budget(time_limit=0.15 * left)) as budget:
        late = reduction._three_by_three(ways, reduction.SCREEN, budget, left)
    assert [way.turns for _, way, _ in late] == [[]]
    length, way, job = late[0]
    answer = [name for layer in job.layers for name in layer.sign()]
    assert length == len(answer) and CUBE.apply(state, answer) == CUBE.solved()
    with deadline.limit(Budget(time_limit=0.05 * left)) as budget:
        assert reduction._three_by_three(ways, reduction.SCREEN, budget, left) == []


@pytest.mark.parametrize("count", [1, 2])
def test_the_rounds_on_one_or_two_threads_each_give_reductions(monkeypatch, count):
    """The first rotation's ways come first; other rotations' rounds give ways too (on two threads,
    screened and paired beside the first round), and every way, replayed on its rotated cube, is a
    reduction the 3x3x3 stage finishes."""
    _prepared()
    monkeypatch.setenv("PUZZLEHUB_SOLVE_THREADS", str(count))
    state, goal = CUBE.scrambled(random.Random(21), 1000), CUBE.solved()
    with deadline.limit(Budget(time_limit=10)) as budget:
        rounds = list(reduction._short_ways(state, 5, goal, budget, reduction.batched.FROM))
        first = reduction.rotations(5)[0]
        assert rounds[0] and all(way.rotation is first for way in rounds[0])
        if count == 2:
            assert len({id(way.rotation) for ways in rounds for way in ways}) >= 2
        for way in (way for ways in rounds for way in ways):
            assert "".join(way.job.state) == CUBE.apply(way.rotation.turn(state, goal), way.turns)
            job = way.job.copy()
            job.outer_pieces(0.05)
            assert "".join(job.state) == goal
