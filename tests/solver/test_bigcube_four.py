"""The 4x4x4's three-phase reduction (four_tables.py, four_search.py): what each phase promises is
checked on the replayed stickers, the tables against breadth-first searches near the goal, and
whole answers replayed, for the catalog cube and for a renumbered one with renamed moves."""

import random
import time

import numpy as np
import pytest

from analysis_geometry import renumbered
from solver import api, catalog, perm
from solver.definition.formats import load_data
from solver.engine import apply_moves, verify
from solver.search.budget import Budget, Cancelled
from solver.special import cube3, families
from solver.special.bigcube import four_search, four_tables, reduction
from solver.special.bigcube.model import BigCube

CUBE = BigCube(4)
GOAL = CUBE.solved()
COLOURS = {c: i for i, c in enumerate(sorted(set(GOAL)))}


def _codes(text: str) -> np.ndarray:
    return np.array([COLOURS[c] for c in text], dtype=np.uint8)


def _text(codes: np.ndarray) -> str:
    return "".join(sorted(COLOURS)[c] for c in codes)


def _phases(seed: int):
    """The phases' solutions for one random state (each phase stops early after 5 s)."""
    state = CUBE.scrambled(random.Random(seed), 1000)
    states = [_codes(r.turn(state, GOAL)) for r in reduction.axes_rotations(4)]
    pieces = four_search._Pieces(_codes(GOAL))
    nodes = np.zeros(1, dtype=np.int64)
    with Budget(time_limit=60).watching() as hard, Budget(time_limit=5).watching() as early:
        stops = four_search._Stops(early, hard)
        first = four_search.first_phase(states, pieces, stops, nodes)
        second = four_search.second_phase(states, pieces, first, stops, nodes)
        third = four_search.third_phase(states, pieces, second, stops, nodes)
    return states, pieces, first, second, third


@pytest.mark.parametrize("seed", [1, 2])
def test_each_phase_keeps_its_promise_on_the_stickers(seed):
    states, pieces, first, second, third = _phases(seed)
    c = four_tables.cube()
    axis = c.centre_faces % 3  # U/D 0, R/L 1, F/B 2
    assert first and second and third
    for r, turns in first:
        after = pieces.centre_faces(four_search._play(states[r], turns))
        assert ((after % 3 == 0) == (axis == 0)).all()  # U/D colours on U/D
        assert turns[-1] not in c.phase2  # (else a shorter phase-1 solution had it)
    for r, turns, lengths in second:
        st = four_search._play(states[r], turns)
        assert (pieces.centre_faces(st) % 3 == axis).all()  # every centre on its axis
        wings = pieces.wings(st)
        assert perm.parity(wings) == 0
        low = wings[c.low]
        assert sorted(c.edge[low]) == list(range(12))  # one wing of each edge in each class
        assert (~c.home_low[low]).sum() % 2 == 0
    for way in third:
        st = four_search._play(states[way.rotation], way.turns)
        assert (pieces.centre_faces(st) == c.centre_faces).all()  # centres home
        wings = pieces.wings(st)
        assert (c.edge[wings[c.low]] == c.edge[wings[c.high]]).all()  # every edge paired
        colours = reduction._Reduction(4, _text(st), GOAL).three_by_three()
        cubies = cube3.to_cubies("".join(colours))
        cubies.check()  # a 3x3x3 that solves: no parity of any kind
        assert perm.parity(cubies.cp) == perm.parity(cubies.ep)
        assert sum(way.lengths) == len(way.turns) <= 30


def _breadth_first(start, step, moves: int, depth: int) -> dict:
    """Distances from `start` of every state within `depth` moves (states as hashable keys)."""
    seen = {start: 0}
    layer = [start]
    for d in range(1, depth + 1):
        layer = [x for x in {step(s, m) for s in layer for m in range(moves)} if x not in seen]
        seen.update((x, d) for x in layer)
    return seen


def test_phase_3_tables_are_exact_near_the_goal():
    """The wings' table, the centres' and the goal ball against breadth-first searches of G3's
    turns from the goal, four turns deep (every state a search may meet that near)."""
    ud, rl, fb, flips = four_tables.phase3_moves()
    to_low, from_high = four_tables.wing_steps()
    ix = four_tables.edge_index()
    edges, centres, ball = four_tables.edge_table(), four_tables.phase3_centre_table(), four_tables.goal_ball()
    scratch = np.empty(12, dtype=np.int64)

    def turn(state, m):
        coords, r = state
        coords = (coords[0] ^ flips[m], ud[coords[1], m], rl[coords[2], m], fb[coords[3], m])
        return tuple(int(x) for x in coords), tuple(int(x) for x in to_low[m][np.array(r)[from_high[m]]])

    start = ((0, *four_tables.centre_home()), tuple(range(12)))
    joint = _breadth_first(start, turn, len(flips), 4)
    wings_alone = _breadth_first(start[1], lambda r, m: turn((start[0], r), m)[1], len(flips), 4)
    centres_alone = _breadth_first(start[0], lambda x, m: turn((x, start[1]), m)[0], len(flips), 4)
    for (coords, r), d in joint.items():
        r = np.array(r)
        key = four_tables.joint_key(np.array(coords), r, ix.ones)
        assert four_tables.ball_distance(ball, key) == d
        index = four_tables.edge_rank(r, ix.of, ix.taking, ix.rest_rank, ix.symmetries, ix.inverses, ix.ones, scratch)
        assert four_tables.edge_distance(edges, index) == wings_alone[tuple(r)]
        p, a, b, f = coords
        assert centres[((p * 70 + a) * 70 + b) * 70 + f] == centres_alone[coords]


def test_symmetric_wings_share_an_index_and_others_do_not():
    """The edge table folds r by the whole-cube half turns (s r s^-1): their indices are the
    same, and different classes' differ."""
    ix = four_tables.edge_index()
    scratch = np.empty(12, dtype=np.int64)
    rng = np.random.default_rng(4)
    seen = {}
    for _ in range(300):
        r = rng.permutation(12)
        if four_tables._odd(r):
            r[[10, 11]] = r[[11, 10]]
        images = {tuple(s[r[inverse]]) for s, inverse in zip(ix.symmetries, ix.inverses)}
        ranks = {four_tables.edge_rank(np.array(x), ix.of, ix.taking, ix.rest_rank, ix.symmetries, ix.inverses,
                                       ix.ones, scratch) for x in images}
        assert len(ranks) == 1
        (rank,) = ranks
        assert seen.setdefault(rank, min(images)) == min(images)


def test_random_4x4x4_answers_are_short():
    """Four random states, each answer replayed: about 45 catalog turns (issue #17: at most 50 on
    average; the short phases before gave about 57, 3-cycles about 390)."""
    rng = random.Random(2024)
    lengths = []
    for _ in range(4):
        state = CUBE.scrambled(rng, 1000)
        answer = reduction.solve_big_cube(state, 4, time_limit=10)
        assert CUBE.apply(state, answer) == GOAL
        lengths.append(len(answer))
    assert sum(lengths) / len(lengths) <= 50, lengths


def test_other_solved_colourings_and_states_near_the_goal():
    rng = random.Random(5)
    goal = GOAL.translate(str.maketrans("WYOGRB", "ABCDEF"))
    for length in (0, 1, 3, 1000):
        state = BigCube(4).apply(goal, [rng.choice(sorted(CUBE.named_moves)) for _ in range(length)])
        answer = reduction.solve_big_cube(state, 4, goal=goal, time_limit=20)
        assert CUBE.apply(state, answer) == goal
        assert len(answer) <= (length if length < 4 else 60)


def test_a_renumbered_cube_with_renamed_moves_is_served_by_the_reduction():
    defn, _, _ = renumbered(load_data(catalog.build("cube4")), random.Random(7))
    special = families.find(defn)
    assert special is not None and special.family == "bigcube"
    rng = random.Random(8)
    state = apply_moves(defn, [rng.choice([m.name for m in defn.moves]) for _ in range(200)])
    result = api.solve(defn, state, time_limit=20)
    assert result["method"] == "special:bigcube" and result["verified"]
    assert verify(defn, state, result["solution"]) and result["length"] <= 55


def test_the_time_limit_holds_and_a_cancel_stops():
    """With one second, an answer (the phases' or the 3-cycles') within the limit and a tenth; a
    cancel from the start stops the solve."""
    reduction.solve_big_cube(CUBE.scrambled(random.Random(1), 1000), 4, time_limit=20)  # tables loaded
    state = CUBE.scrambled(random.Random(9), 1000)
    started = time.monotonic()
    budget = Budget(time_limit=1.0)
    answer = reduction.solve_big_cube(state, 4, budget=budget)
    assert time.monotonic() - started - budget.compile_seconds <= 1.1
    assert CUBE.apply(state, answer) == GOAL
    with pytest.raises(Cancelled):
        reduction.solve_big_cube(state, 4, budget=Budget(time_limit=20, cancel=lambda: True))
