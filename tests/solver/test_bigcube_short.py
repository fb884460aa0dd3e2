"""The short reduction's phases on 4x4x4 states from random catalog turns: what each phase promises
is checked on the replayed stickers, not on the phase's own bookkeeping."""

import random
import time

import numpy as np
import pytest

from solver import perm
from solver.special.bigcube import beam, freeslice, reduction, short
from solver.special.bigcube.model import NORMALS, BigCube

N = 4


def _scrambled(seed: int, n: int = N) -> np.ndarray:
    state = BigCube(n).scrambled(random.Random(seed), 300)
    return np.array([ord(c) for c in state], dtype=np.uint8)


def _wing_parities(state: np.ndarray, goal: np.ndarray, n: int = N) -> list[int]:
    out = []
    for orbit in short.plan(n).wing_orbits:
        home = {(goal[x], goal[orbit.partner[x]]): k for k, x in enumerate(orbit.positions)}
        out.append(perm.parity([home[(state[x], state[orbit.partner[x]])] for x in orbit.positions]))
    return out


@pytest.mark.parametrize("n, most", [(4, 40), (5, 60)])  # 3-cycles alone: over 100 (4x4x4), 300 (5x5x5)
def test_centre_phases_solve_centres_with_even_wings(n, most):
    cube = short.plan(n).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    centres = [s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1]
    for seed in range(3):
        state = _scrambled(seed, n)
        turns, reached = short.solve_centres(state, goal, n, time.perf_counter() + 120)
        replayed = short.apply_names(cube, state, turns)
        assert (replayed == reached).all()
        assert (replayed[centres] == goal[centres]).all()
        assert _wing_parities(replayed, goal, n) == [0] * len(short.plan(n).wing_orbits)
        assert len(turns) < most


def test_restricted_turns_keep_what_they_promise():
    """Each restricted set keeps the centres it names: checked on every turn of the set, from a
    state where only the kept property holds."""
    cube = short.plan(5).cube
    faces = np.array([ord(f) for f in cube.faces], dtype=np.uint8)
    centres = np.array([s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1])
    axis = {ord(f): a for a, pair in enumerate(("UD", "RL", "FB")) for f in pair}
    for among in ("UD", "axes", "axes UD"):
        for name in (short.plan(5).names[k] for k in short.restricted(5, among).keep):
            after = short.apply_names(cube, faces, [name])[centres]
            pairs = list(zip(after, faces[centres]))  # (face colour now there, the place's face)
            if among == "UD":
                assert all(axis[now] == 0 for now, place in pairs if place in b"UD"), name
            else:
                assert all(axis[now] == axis[place] for now, place in pairs), name
            if among == "axes UD":
                assert all(now == place for now, place in pairs if place in b"UD"), name


def test_joint_tables_are_exact_at_their_goal():
    table = short.joint_table(5, "U", "axes", short.stages(5)[0])
    assert (table.dist >= 0).all() and (table.dist == 0).sum() == 1  # 4,900 states, all reachable


def test_a_joint_table_is_the_breadth_first_distance_of_the_masks_together():
    """The compiled build against a breadth-first search over pairs of masks, turned by each
    orbit's own lookups: the 5x5x5's 4,900 U/D states and its 24 million L/R and F/B states."""
    stage = short.stages(5)[0]
    for wanted, among in (("U", "axes"), ("URF", "axes UD")):
        table = short.joint_table(5, wanted, among, stage)
        moves = [short._orbit_moves(5, k, among, stage.depth) for k in stage.orbits]
        sizes = [len(t.keys) for t in table.orbits]
        masks = [np.array([short._goal_mask(5, k, wanted)]) for k in stage.orbits]
        seen = {(int(masks[0][0]), int(masks[1][0]))}
        depth = 0
        while len(masks[0]):
            ranks = [np.searchsorted(t.keys, m) for t, m in zip(table.orbits, masks)]
            assert (table.dist[np.ravel_multi_index(ranks, sizes)] == depth).all()
            if depth == 6:  # the 24 million: the first layers only (the deepest are 16 turns)
                break
            reached = {(int(a), int(b)) for turn in range(len(moves[0].effect_of))
                       for a, b in zip(*(m.apply(x, m.effect_of[turn]) for m, x in zip(moves, masks)))} - seen
            seen |= reached
            masks = [np.array([r[k] for r in reached], dtype=np.int64) for k in (0, 1)]
            depth += 1
        assert len(seen) == (table.dist <= depth).sum()


def test_pairing_pairs_every_edge_and_keeps_centres():
    cube = short.plan(N).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    edges = freeslice.Edges(cube)
    assert edges.unpaired(goal[None])[0] == 0
    centres = [s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1]
    for seed in (7, 8, 9):
        turns, reached = short.solve_centres(_scrambled(seed), goal, N, time.perf_counter() + 120)
        assert edges.unpaired(reached[None])[0] > 0
        ways = short.pair_edges(reached, N, time.perf_counter() + 60, time.perf_counter() + 120)
        assert ways and [len(w) for w in ways] == sorted(len(w) for w in ways)
        for paired in ways:
            after = short.apply_names(cube, reached, paired)
            assert edges.unpaired(after[None])[0] == 0
            assert (after[centres] == goal[centres]).all()
            assert _wing_parities(after, goal) == [0] * len(short.plan(N).wing_orbits)
        assert len(ways[0]) < 40  # the free-slice macros: about 25 turns


def _every_edge_one_pair(cube: BigCube, state: np.ndarray) -> bool:
    """Each composite edge (the pieces of two stickers between the same two faces) shows one colour
    pair, read on each piece's stickers by face."""
    pairs: dict[tuple, set] = {}
    for cubie, stickers in cube.pieces.items():
        if len(stickers) == 2:
            slot = tuple(c if abs(c) == cube.n - 1 else None for c in cubie)
            pairs.setdefault(slot, set()).add(tuple(int(state[s]) for s in sorted(stickers, key=cube.faces.__getitem__)))
    return all(len(seen) == 1 for seen in pairs.values())


def test_only_pairings_that_pair_every_edge_are_kept_of_those_cut_short():
    """pair_edges stopped at once gives what it has, edges left unpaired; paired_ways keeps exactly
    the ways that pair every edge on the replayed stickers (the 7x7x7's rows need that)."""
    cube = short.plan(5).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    _, reached = short.solve_centres(_scrambled(3, 5), goal, 5, time.perf_counter() + 120)
    for stop in (0.0, 60.0):
        now = time.perf_counter()
        ways = short.pair_edges(reached, 5, now + stop / 2, now + stop)
        whole = [way for way in ways if _every_edge_one_pair(cube, short.apply_names(cube, reached, way))]
        assert ways and short.paired_ways(reached, ways, 5) == whole
        assert whole == (ways if stop else [])  # cut short: nothing whole; with time: every way


@pytest.mark.parametrize("n", [4, 5])
def test_compiled_seams_after_set_ups_and_macros_are_those_of_the_stickers(n):
    cube = short.plan(n).cube
    macros = short.pairing_macros(n)
    edges = freeslice.Edges(cube)
    state = _scrambled(3, n)
    set_ups = np.array([0, 1, 5, len(macros.set_ups) - 1])
    chosen = np.random.default_rng(n).choice(len(macros.moves), 200, replace=False)
    read = macros.sources[chosen][:, edges.stickers].astype(np.int16)
    got = freeslice.seams_after(state, macros.set_up_sources, set_ups, read)
    for row, k in enumerate(set_ups):
        after = state[macros.set_up_sources[k]][macros.sources[chosen]]  # set-up, then each macro
        assert (got[row] == edges.seams(after)).all()


def test_last_two_edges_macros_pair_two_edges_and_break_nothing():
    cube = short.plan(N).cube
    macros = short.pairing_macros(N)
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    edges = freeslice.Edges(cube)
    centres = [s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1]
    assert len(macros.last_two) >= 96  # Dw R F' U R' F Dw' in every orientation
    for k in macros.last_two:
        names = [short.plan(N).names[m] for m in macros.moves[k]]
        after = short.apply_names(cube, goal, names)
        assert edges.unpaired(after[None])[0] == 2 and (after[centres] == goal[centres]).all(), names


def test_pll_parity_turns_swap_two_edges_and_nothing_else():
    for n in (4, 6):
        cube = BigCube(n)
        state = cube.apply(cube.solved(), reduction.pll_parity_turns(n))
        moved = {cube.cubie_of(s) for s in range(cube.size) if state[s] != cube.solved()[s]}
        assert {len(cube.pieces[c]) for c in moved} == {2}  # edge pieces only
        assert len(moved) == 4 * (n // 2 - 1)  # both composite edges of every wing orbit


def test_a_phase_out_of_time_says_so():
    goal = np.array([ord(c) for c in BigCube(N).solved()], dtype=np.uint8)
    try:
        short.solve_centres(_scrambled(3), goal, N, time.perf_counter() - 1)
    except beam.Timeout:
        return
    raise AssertionError("a phase given no time returned an answer")


def test_the_solver_is_shorter_than_three_cycles_alone():
    cube = BigCube(N)
    state = "".join(chr(c) for c in _scrambled(11))
    short_answer = reduction.solve_big_cube(state, N, time_limit=60)
    cycles_only = reduction.solve_big_cube(state, N, short_phases=False)
    for answer in (short_answer, cycles_only):
        assert _replay(cube, state, answer) == cube.solved()
    assert len(short_answer) < len(cycles_only)


def _replay(cube, state, solution):
    return cube.apply(state, solution)


def test_random_5x5x5_answers_are_short():
    """Two random states, each answer replayed: about 78 catalog turns by five.py's phases (100-200
    when they run out of time under load and the old steps finish; 3-cycles alone: 670)."""
    cube = BigCube(5)
    rng = random.Random(2025)
    for _ in range(2):
        state = cube.scrambled(rng, 1000)
        answer = reduction.solve_big_cube(state, 5, time_limit=20)  # (rotations are tried until 0.7 of it)
        assert _replay(cube, state, answer) == cube.solved()
        assert len(answer) < 250, len(answer)


def test_random_4x4x4_answers_are_short():
    """Four random states (1000 random turns), each answer replayed: today's reduction averages
    about 57 catalog turns (62 before the rotations); the beam pairing and 3-cycles it replaced gave
    about 295."""
    cube = BigCube(N)
    rng = random.Random(2024)
    lengths = []
    for _ in range(4):
        state = cube.scrambled(rng, 1000)
        answer = reduction.solve_big_cube(state, N, time_limit=20)  # (rotations are tried until 0.7 of it)
        assert _replay(cube, state, answer) == cube.solved()
        lengths.append(len(answer))
    assert sum(lengths) / len(lengths) <= 80, lengths


@pytest.mark.parametrize("n, sizes", [(6, (1, 2)), (7, (2, 2))])
def test_the_outer_ring_stage_keeps_the_inner_ring(n, sizes):
    """Every turn of the second stage (at most two layers) keeps the first stage's orbits (the
    inner ring's x-centres, and the 7x7x7's T-centres) home, and moves some of the outer ring's
    (its x-centres and one other orbit: the 7x7x7's T-centres, the 6x6x6's obliques)."""
    inner, outer = short.stages(n)
    assert outer.depth == 2 and (len(inner.orbits), len(outer.orbits)) == sizes
    p = short.plan(n)
    goal = np.array([ord(c) for c in p.cube.solved()], dtype=np.uint8)
    stickers = np.concatenate([p.centre_orbits[k].positions for k in inner.orbits])
    others = np.concatenate([p.centre_orbits[k].positions for k in outer.orbits])
    kept = short.restricted(n, "all", outer.depth).keep
    assert len(kept) == 36  # 6 faces x (outer, two-layer wide) x 3
    moved = 0
    for m in kept:
        after = short.apply_names(p.cube, goal, [p.names[m]])
        assert (after[stickers] == goal[stickers]).all(), p.names[m]
        moved += (after[others] != goal[others]).any()
    assert moved == 18  # the two-layer wide turns


def test_the_6x6x6s_two_oblique_orbits_move_in_pairs_under_the_outer_ring_turns():
    """Why the outer ring's stage takes one oblique orbit only: under its turns (at most two
    layers) each oblique piece and its neighbour of the other orbit (same row of the face, the
    nearer coordinate mirrored) move together, so the pairs can only be matched by deeper turns."""
    p = short.plan(6)
    cube = p.cube
    inner, outer = short.stages(6)
    (first,), (second,) = outer.orbits[1:], outer.partners
    at = {(cube.faces[s], tuple(cube.points[s])): int(s) for s in p.centre_orbits[second].positions}
    neighbour = {}
    for s in p.centre_orbits[first].positions:
        point, normal = list(cube.points[s]), NORMALS[cube.faces[s]]
        near = min((i for i in range(3) if normal[i] == 0), key=lambda i: abs(point[i]))
        point[near] = -point[near]
        neighbour[int(s)] = at[(cube.faces[s], tuple(point))]
    assert len(set(neighbour.values())) == 24
    for m in short.restricted(6, "all", outer.depth).keep:
        sources = np.asarray(perm.sources(cube.named_moves[p.names[m]]))
        image = {int(t): int(x) for x, t in enumerate(sources)}  # where each sticker's piece goes
        assert all(neighbour[image[a]] == image[b] for a, b in neighbour.items()), p.names[m]


@pytest.mark.parametrize("n, most", [(6, 260), (7, 400)])
def test_random_6x6x6_and_7x7x7_answers_are_short(n, most):
    """Two random states each (1000 random turns), answers replayed: about 175 catalog turns for
    the 6x6x6 reduced to a 5x5x5 (184 ring by ring, about 550 before the short phases), 245 for
    the 7x7x7 (300 ring by ring, about 1,710 by 3-cycles alone) on a quiet machine; more under
    load, where the 5x5x5 gets less of the time."""
    cube = BigCube(n)
    rng = random.Random(2027)
    for _ in range(2):
        state = cube.scrambled(rng, 1000)
        # 20 s: the rotations take up to 0.7 of any limit, and at 60 s these took 146 s in all
        answer = reduction.solve_big_cube(state, n, time_limit=20)
        assert _replay(cube, state, answer) == cube.solved()
        assert len(answer) < most, len(answer)
