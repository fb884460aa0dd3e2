"""Big cubes (N >= 8) by batched commutators: each commutator moves exactly the 3-cycles its frame
predicts, and random states are solved, every answer replayed on the stickers."""

import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import UnreachableError
from solver.special.bigcube import batched, reduction
from solver.special.bigcube.model import BigCube


def _scrambled(n: int, rng: random.Random, length: int = 1000) -> str:
    return BigCube(n).scrambled(rng, length)


def _replay(n: int, state: str, solution: list[str]) -> str:
    return BigCube(n).apply(state, solution)


def _predicted(cells) -> dict[int, int]:
    """Where each sticker of the cells' 3-cycles goes (a -> b -> c -> a)."""
    return {int(u): int(v) for a, b, c in cells for u, v in ((a, b), (b, c), (c, a))}


def _moved(tab: batched.Tables, seq) -> dict[int, int]:
    p = tab.perm_of(seq)
    return {int(i): int(p[i]) for i in np.flatnonzero(p != np.arange(len(p)))}


@settings(deadline=None, max_examples=12)
@given(st.sampled_from([8, 9, 10]), st.integers(0, 2**32))
def test_a_batched_centre_commutator_moves_exactly_its_cells(n, seed):
    tab = batched.tables(n)
    rng = random.Random(seed)
    kind = tab.centres
    f = rng.randrange(len(kind.frames))
    slices = list(range(len(tab.inner)))
    rng.shuffle(slices)
    xs, zs = sorted(slices[:rng.randint(1, 3)]), sorted(slices[3:3 + rng.randint(1, 3)])
    seq = tab.centre_sequence(kind.frames[f], [tab.inner[i] for i in xs], [tab.inner[j] for j in zs])
    cells = [(kind.a[f, i, j], kind.b[f, i, j], kind.c[f, i, j]) for i in xs for j in zs]
    assert _moved(tab, seq) == _predicted(cells)


@settings(deadline=None, max_examples=12)
@given(st.sampled_from([8, 9, 10]), st.integers(0, 2**32))
def test_a_batched_wing_commutator_moves_its_cells_and_their_partners(n, seed):
    tab = batched.tables(n)
    rng = random.Random(seed)
    kind = tab.wings
    f = rng.randrange(len(kind.frames))
    xs = sorted(rng.sample(range(len(tab.inner)), rng.randint(1, len(tab.inner))))
    seq = tab.slice_sequence(kind.frames[f], [tab.inner[i] for i in xs])
    cells = [(kind.a[f, i], kind.b[f, i], kind.c[f, i]) for i in xs]
    partners = [tuple(tab.partner[[a, b, c]]) for a, b, c in cells]
    assert _moved(tab, seq) == _predicted(cells + partners)


@settings(deadline=None, max_examples=12)
@given(st.sampled_from([9, 11]), st.integers(0, 2**32))
def test_a_batched_t_centre_commutator_cycles_its_cells_and_moves_no_corner_or_middle_edge(n, seed):
    tab = batched.tables(n)
    rng = random.Random(seed)
    kind = tab.middles
    f = rng.randrange(len(kind.frames))
    xs = sorted(rng.sample(range(len(tab.inner)), rng.randint(1, len(tab.inner))))
    seq = tab.slice_sequence(kind.frames[f], [tab.inner[i] for i in xs])
    cells = [(kind.a[f, i], kind.b[f, i], kind.c[f, i]) for i in xs if kind.a[f, i] >= 0]
    middle = set(tab.places(kind).tolist())
    moved = _moved(tab, seq)
    assert {u: v for u, v in moved.items() if u in middle} == _predicted(cells)
    assert all(tab.orbit[u] >= 0 or tab.wing_sticker[u] for u in moved)  # centres and wings only


@settings(deadline=None, max_examples=3)
@given(st.sampled_from([8, 9, 10, 11, 12]), st.integers(0, 2**32))
def test_random_states_are_solved(n, seed):
    state = _scrambled(n, random.Random(seed))
    solution = reduction.solve_big_cube(state, n, time_limit=120, short_phases=False)  # (not nested: to_five.py)
    assert _replay(n, state, solution) == BigCube(n).solved()


def test_other_colours_by_goal():
    n = 9
    cube = BigCube(n)
    colours = dict(zip("WOGRBY", "abcdef"))
    goal = "".join(colours[c] for c in cube.solved())
    state = "".join(colours[c] for c in _scrambled(n, random.Random(5)))
    solution = reduction.solve_big_cube(state, n, goal=goal, time_limit=120)
    assert _replay(n, state, solution) == goal


@pytest.mark.parametrize("n", [33])
def test_the_largest_cube_within_a_minute(n):
    state = _scrambled(n, random.Random(n))
    started = time.monotonic()
    solution = reduction.solve_big_cube(state, n, time_limit=60)  # OutOfTime past 60 s
    assert time.monotonic() - started <= 75  # the budget is checked between commutators
    assert _replay(n, state, solution) == BigCube(n).solved()


def test_states_no_commutator_reaches_are_refused():
    n = 9
    solved = BigCube(n).solved()
    # An X-centre of F swapped with a T-centre of U: colour counts stay right, each orbit's do not.
    x_centre, t_centre = n * n + 4 * n + n + 1, n + n // 2
    moved = list(solved)
    moved[x_centre], moved[t_centre] = moved[t_centre], moved[x_centre]
    with pytest.raises(UnreachableError, match="colours their places need"):
        reduction.solve_big_cube("".join(moved), n)
