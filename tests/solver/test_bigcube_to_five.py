"""The 6x6x6 and 7x7x7 reduced to a 5x5x5 (to_five.py, grouped.py): what each step promises is
checked on the replayed stickers of random states, and the geometry on every turn."""

import random
import time

import numpy as np
import pytest

from solver import perm
from solver.search.budget import Budget
from solver.special.bigcube import beam, grouped, short, to_five
from solver.special.bigcube.model import BigCube


def _codes(text: str) -> np.ndarray:
    return np.array([ord(c) for c in text], dtype=np.uint8)


def _sources(cube: BigCube, name: str) -> np.ndarray:
    return np.asarray(perm.sources(cube.named_moves[name]))


@pytest.mark.parametrize("n", [6, 7])
def test_every_big_turn_turns_the_inner_cube_as_one_of_its_own(n):
    """The layers but the second from each face are a smaller cube (4x4x4, 5x5x5) that each big
    turn turns as one of its own turns (or leaves alone: a second-layer slice)."""
    inner = grouped.inner(n)
    assert inner.m == n - 2
    state = _codes(inner.big.scrambled(random.Random(n), 200))
    small = inner.project(state)
    effects = {inner.project(state[_sources(inner.big, name)]).tobytes() for name in inner.big.named_moves}
    turned = {small[_sources(inner.small, name)].tobytes() for name in inner.small.named_moves}
    assert effects - {small.tobytes()} == turned


@pytest.mark.parametrize("n", [6, 7])
def test_the_5x5x5s_turns_keep_the_grouped_big_cube_whole_and_read_as_themselves(n):
    """With the middle layers grouped, a 5x5x5 catalog turn is one big catalog turn (Rw = Rw),
    which keeps every cell one colour and turns the 5x5x5 read off the big cube as itself."""
    five = grouped.five(n)
    assert (five.turn("Rw"), five.turn("L'"), five.turn("Dw2")) == ("Rw", "L'", "Dw2")
    big, small = _codes(five.big.solved()), _codes(five.small.solved())
    assert five.whole(big) and (five.project(big) == small).all()
    rng = random.Random(n)
    for name in rng.choices(sorted(five.small.named_moves), k=100):
        big, small = big[_sources(five.big, five.turn(name))], small[_sources(five.small, name)]
        assert five.whole(big) and (five.project(big) == small).all(), name
    assert not five.whole(big[_sources(five.big, "3Rw")])  # a turn splitting the middle group


@pytest.mark.parametrize("n", [6, 7, 8])
def test_every_rows_move_leaves_the_inner_cube_reduced(n):
    """The rows' moves (short's partner pairing) turn the inner cube by a face turn or not at all,
    so its centres stay home and its edges paired whatever the state."""
    inner = grouped.inner(n)
    how = to_five.rows_pairing(n)
    state = _codes(inner.big.scrambled(random.Random(1), 200))
    small = inner.project(state)
    faces = {small[_sources(inner.small, name)].tobytes() for name in inner.small.named_moves if "w" not in name}
    assert len(how.sequences) == {6: 144, 7: 252, 8: 576}[n]
    for sequence in how.sequences:
        after = short.apply_names(inner.big, state, [short.plan(n).names[k] for k in sequence])
        assert inner.project(after).tobytes() in faces | {small.tobytes()}, sequence


@pytest.mark.parametrize("n", [6, 7])
def test_a_turns_alternatives_turn_the_inner_cube_alike(n):
    """R and Rw turn the inner cube alike (its second layer is left out), 3Rw has no other; with
    every layer in a group (the 5x5x5 read off the big cube) each turn has only itself."""
    inner = grouped.inner(n)
    assert inner.alternatives("R") == ["R", "Rw"] and inner.alternatives("Lw2") == ["L2", "Lw2"]
    assert inner.alternatives("3Fw'") == ["3Fw'"]
    state = _codes(inner.big.scrambled(random.Random(n), 200))
    for name in inner.big.named_moves:
        effects = {inner.project(state[_sources(inner.big, other)]).tobytes() for other in inner.alternatives(name)}
        assert len(effects) == 1 and name in inner.alternatives(name)
        assert grouped.five(n).alternatives(name) == [name]


@pytest.mark.parametrize("n", [6, 7, 8])
def test_the_depths_chosen_for_the_rows_keep_the_inner_cube_and_match_more(n):
    """The inner cube's turns with their depths chosen reach the same inner cube, turn for turn,
    with fewer row pieces unlike the piece they are matched to (short's partner pairing, as the
    rows' beam counts them) than the turns as given, on random states and random turns."""
    inner, how = grouped.inner(n), to_five.rows_pairing(n)

    def unlike(state):
        return int((state[how.watched][how.pieces] != state[how.watched][how.neighbours]).sum())

    rng = random.Random(n)
    for _ in range(3):
        state = _codes(inner.big.scrambled(rng, 300))
        names = [rng.choice(["U", "R'", "F2", "D", "L", "B'", "3Rw", "3Uw'", "3Fw2"]) for _ in range(40)]
        chosen = to_five._depths_for_rows(state, names, n)
        assert [inner.alternatives(name) for name in names] == [inner.alternatives(name) for name in chosen]
        given, after = short.apply_names(inner.big, state, names), short.apply_names(inner.big, state, chosen)
        assert (inner.project(given) == inner.project(after)).all()
        assert unlike(after) < unlike(given)


def test_the_beam_by_cost_finds_the_cheaper_way():
    """Two cheap moves beat one dear move straight to the goal, which the depth of beam.search
    would take."""
    sources = np.array([[1, 2, 2], [2, 2, 2], [0, 1, 2]])  # shift left (1 turn), copy the last (4), nothing (1)
    moves = beam.MoveSet(sources, np.arange(3), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64))
    path = beam.by_cost(np.array([1, 2, 0], dtype=np.uint8), moves, np.array([1, 4, 1]), np.array([0, 1]),
                        np.array([2, 2]), 10, np.inf, time.perf_counter() + 60)
    assert path == [0, 0]


def test_the_rows_beam_short_of_time_narrows_and_still_matches_them():
    """An 8x8x8's rows from a random state (250 states wide: about 11 s on a quiet machine) aimed
    at 3 s and stopped at 4: the beam halves its width as its pace requires and still matches
    every row, where a beam kept wide runs out of time (a loaded machine's share, as CI's was)."""
    cube, how = BigCube(8), to_five.rows_pairing(8)
    to_five._rows(_codes(cube.solved()), 8, np.inf, np.inf)  # its kernel loaded before the clock starts
    scrambled = cube.scrambled(random.Random(4), 1000)
    names, _ = to_five._rows(_codes(scrambled), 8, time.perf_counter() + 3, time.perf_counter() + 4)
    after = _codes(cube.apply(scrambled, names))[how.watched]
    assert (after[how.pieces] == after[how.neighbours]).all()


@pytest.mark.parametrize("n", [6, 7])
def test_the_steps_before_the_5x5x5_leave_a_whole_5x5x5_it_can_solve(n):
    """Steps 1 and 2 on random states (the 6x6x6's inner cube by the 4x4x4's phases, the 7x7x7's by
    the 5x5x5's): every cell of the grouped 5x5x5 one colour, its corners and midges of one
    permutation parity (the 6x6x6's PLL parity fixed in its inner cube), checked on the replayed
    stickers."""
    cube, five = BigCube(n), grouped.five(n)
    goal = cube.solved()
    letters = sorted(set(goal))
    solved = np.array([letters.index(c) for c in goal])
    for seed in (1, 2):
        state = cube.scrambled(random.Random(seed), 1000)
        rotation, turns, reached = to_five.steps(state, n, goal, Budget().with_limit(60))
        replayed = np.array([letters.index(c) for c in cube.apply(rotation.turn(state, goal), turns)])
        assert (replayed == reached).all() and five.whole(replayed)
        small = five.small
        corners = [c for c, s in small.pieces.items() if len(s) == 3]
        midges = [c for c, s in small.pieces.items() if len(s) == 2 and 0 in c]
        colours = five.project(replayed)
        home = {frozenset(solved[five.stickers][list(small.pieces[c])]): k for k, c in enumerate(corners + midges)}
        now = [home[frozenset(colours[list(small.pieces[c])])] for c in corners + midges]
        assert perm.parity(now[:8]) == perm.parity([k - 8 for k in now[8:]])


def test_any_solved_colouring_is_a_goal():
    """A 6x6x6 goal with other colours on the faces (not even a rotation of the catalog's: white
    opposite green): the rotations the inner centres try and the 5x5x5 read off the cube keep to
    it; replayed."""
    from solver.special.bigcube import reduction

    cube = BigCube(6)
    goal = "".join({"W": "a", "G": "b", "Y": "c", "B": "d", "R": "e", "O": "f"}[c] for c in cube.solved())
    goal = goal.translate(str.maketrans("bc", "cb"))
    rng = random.Random(5)
    state = cube.apply(goal, [rng.choice(sorted(cube.named_moves)) for _ in range(400)])
    answer = reduction.solve_big_cube(state, 6, goal, time_limit=10)
    assert cube.apply(state, answer) == goal


@pytest.mark.parametrize("n", [8, 10])
def test_a_nested_cube_is_solved_in_less_than_half_the_batched_commutators_turns(n):
    """The 8x8x8 (its inner cube a 6x6x6) and the 10x10x10 (its inner cube an 8x8x8, nested again)
    reduced to a 5x5x5 around their inner cube (reduced by this solver): replayed, and in less than half the turns
    of the batched commutators on the same state (about a fifth on random states)."""
    from solver.special.bigcube import reduction

    cube = BigCube(n)
    state = cube.scrambled(random.Random(n), 1000)
    answer = reduction.solve_big_cube(state, n, time_limit=60)
    assert cube.apply(state, answer) == cube.solved()
    batched = reduction.solve_big_cube(state, n, time_limit=60, short_phases=False)
    assert len(answer) < len(batched) / 2


def test_a_nested_cube_without_its_seconds_goes_to_the_batched_commutators_in_time():
    """Given less than the nested solve's seconds (and the reserve kept should it fail), an 8x8x8
    is answered by the batched commutators at once."""
    from solver.special.bigcube import reduction

    cube = BigCube(8)
    state = cube.scrambled(random.Random(3), 1000)
    started = time.monotonic()
    quick = reduction.solve_big_cube(state, 8, time_limit=10)
    assert time.monotonic() - started < 5  # (a nested solve takes 20 s or more)
    assert cube.apply(state, quick) == cube.solved()


@pytest.mark.parametrize("n", [5, 7])
def test_a_reduced_answer_leaves_a_3x3x3_that_outer_turns_solve(n):
    """`reduced` (what a nesting's inner cube asks for): the answer, replayed, leaves every centre
    home and every edge paired (each cell of the cube grouped {1}, {2 .. N-1}, {N} one colour), and
    the 3x3x3 read off it is one the 3x3x3 solver answers, whose outer turns then solve the big
    cube."""
    from solver.special.bigcube import reduction
    from solver.special.cube3 import solve as cube3_solve

    cube = BigCube(n)
    three = grouped.Grouping(n, ((0,), tuple(range(1, n - 1)), (n - 1,)))
    state = cube.scrambled(random.Random(n), 1000)
    answer = reduction.solve_big_cube(state, n, time_limit=10, reduced=True)
    reached = cube.apply(state, answer)
    assert three.whole(_codes(reached)) and reached != cube.solved()
    small = "".join(reached[i] for i in three.stickers)
    rest = [three.turn(name) for name in cube3_solve.solve_facelets(small)]
    assert cube.apply(reached, rest) == cube.solved()
