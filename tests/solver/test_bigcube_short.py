"""The short reduction's phases on 4x4x4 states from random catalog turns: what each phase promises
is checked on the replayed stickers, not on the phase's own bookkeeping."""

import random
import time

import numpy as np

from solver import perm
from solver.special.bigcube import beam, reduction, short
from solver.special.bigcube.model import BigCube

N = 4


def _scrambled(seed: int) -> np.ndarray:
    cube = BigCube(N)
    names = sorted(cube.named_moves)
    rng = random.Random(seed)
    state = cube.solved()
    for _ in range(300):
        state = perm.apply(cube.named_moves[rng.choice(names)], state)
    return np.array([ord(c) for c in state], dtype=np.uint8)


def _wing_parities(state: np.ndarray, goal: np.ndarray) -> list[int]:
    out = []
    for orbit in short.plan(N).wing_orbits:
        home = {(goal[x], goal[orbit.partner[x]]): k for k, x in enumerate(orbit.positions)}
        out.append(perm.parity([home[(state[x], state[orbit.partner[x]])] for x in orbit.positions]))
    return out


def test_centre_phases_solve_centres_with_even_wings():
    cube = short.plan(N).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    centres = [s for s in range(cube.size) if len(cube.pieces[cube.cubie_of(s)]) == 1]
    for seed in range(3):
        state = _scrambled(seed)
        turns, reached = short.solve_centres(state, goal, N, time.perf_counter() + 120)
        replayed = short.apply_names(cube, state, turns)
        assert (replayed == reached).all()
        assert (replayed[centres] == goal[centres]).all()
        assert _wing_parities(replayed, goal) == [0] * len(short.plan(N).wing_orbits)
        assert len(turns) < 40  # 3-cycles alone take over 100 turns for the 24 centres


def test_pairing_keeps_what_it_gains():
    cube = short.plan(N).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    pairing = short.edge_pairing(N, goal.tobytes())
    assert pairing.score(goal[None])[0] == 0
    turns, reached = short.solve_centres(_scrambled(7), goal, N, time.perf_counter() + 120)
    before = pairing.score(reached[None])[0]
    paired = short.pair_edges(reached, goal, N, time.perf_counter() + 5)
    after = short.apply_names(cube, reached, paired)
    assert pairing.score(after[None])[0] <= before
    solution = reduction.solve_big_cube("".join(chr(c) for c in after), N)
    assert "".join(chr(c) for c in short.apply_names(cube, after, solution)) == cube.solved()


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
    for name in solution:
        state = perm.apply(cube.named_moves[name], state)
    return "".join(state)
