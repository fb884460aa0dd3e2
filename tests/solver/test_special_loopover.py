"""Loopover: constructive solutions replay on generated boards of many shapes, parity refusal on
odd boards, optimal tables against plain BFS."""

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import StateError, UnreachableError
from solver.special.loopover import Board, Shift, length, optimal, pdb_search, solve, solve_constructive


pytestmark = pytest.mark.usefixtures("module_cache")


def shifted(tiles, rows, cols, s: Shift):
    """One shift applied to a row-major tile list, written independently of the solver."""
    grid = [list(tiles[r * cols:(r + 1) * cols]) for r in range(rows)]
    if s.kind == "row":
        k = s.amount % cols
        grid[s.index] = grid[s.index][-k:] + grid[s.index][:-k] if k else grid[s.index]
    else:
        col = [grid[r][s.index] for r in range(rows)]
        k = s.amount % rows
        col = col[-k:] + col[:-k] if k else col
        for r in range(rows):
            grid[r][s.index] = col[r]
    return tuple(x for row in grid for x in row)


def replay(tiles, rows, cols, shifts):
    for s in shifts:
        tiles = shifted(tiles, rows, cols, s)
    return tiles


def odd(tiles):
    seen, swaps = set(), 0
    for i in range(len(tiles)):
        j, n = i, 0
        while j not in seen:
            seen.add(j)
            j = tiles[j]
            n += 1
        swaps += max(n - 1, 0)
    return swaps % 2 == 1


@settings(max_examples=80, deadline=None)
@given(rows=st.integers(2, 9), cols=st.integers(2, 9), seed=st.integers(0, 2**32 - 1))
def test_constructive_solutions_replay(rows, cols, seed):
    tiles = list(range(rows * cols))
    random.Random(seed).shuffle(tiles)
    if rows % 2 and cols % 2 and odd(tiles):
        tiles[0], tiles[1] = tiles[1], tiles[0]
    shifts = solve_constructive(tiles, rows, cols)
    assert replay(tuple(tiles), rows, cols, shifts) == tuple(range(rows * cols))
    assert length(shifts) == sum(abs(s.amount) for s in shifts)
    assert all(0 < abs(s.amount) <= (cols if s.kind == "row" else rows) // 2 for s in shifts)


@pytest.mark.parametrize("rows,cols", [(3, 3), (5, 5), (3, 7), (9, 5)])
def test_odd_boards_refuse_odd_permutations(rows, cols):
    tiles = list(range(rows * cols))
    tiles[0], tiles[1] = tiles[1], tiles[0]
    with pytest.raises(UnreachableError, match="even permutation"):
        solve_constructive(tiles, rows, cols)


@pytest.mark.parametrize("rows,cols", [(2, 2), (4, 4), (3, 4), (4, 3), (6, 5), (2, 7)])
def test_even_boards_fix_the_final_swap(rows, cols):
    tiles = list(range(rows * cols))
    tiles[-1], tiles[-2] = tiles[-2], tiles[-1]
    shifts = solve(tiles, rows, cols, method="constructive")
    assert replay(tuple(tiles), rows, cols, shifts) == tuple(range(rows * cols))


def bfs_distances(rows, cols):
    moves = optimal.unit_shifts(rows, cols)
    goal = tuple(range(rows * cols))
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        for m in moves:
            t = shifted(s, rows, cols, m)
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2)])
def test_optimal_equals_bfs_on_every_state(rows, cols):
    dist = bfs_distances(rows, cols)
    for s, d in dist.items():
        shifts = solve(s, rows, cols)
        assert len(shifts) == d
        assert replay(s, rows, cols, shifts) == tuple(range(rows * cols))


def test_three_by_three_table():
    table = np.asarray(optimal.table(3, 3))
    reachable = table[table != optimal.UNREACHED]
    assert reachable.size == 181440  # 9!/2: only even permutations
    rng = random.Random(7)
    for _ in range(20):
        s = list(range(9))
        rng.shuffle(s)
        if odd(s):
            s[0], s[1] = s[1], s[0]
        shifts = solve(s, 3, 3)
        assert replay(tuple(s), 3, 3, shifts) == tuple(range(9))
        assert len(shifts) == optimal.distance(s, 3, 3) <= length(solve_constructive(s, 3, 3))
        # Optimal: no neighbour is closer than one less.
        assert all(optimal.distance(shifted(tuple(s), 3, 3, m), 3, 3) >= len(shifts) - 1
                   for m in optimal.unit_shifts(3, 3))


def test_bad_boards():
    with pytest.raises(StateError, match="rows"):
        Board(1, 5)
    with pytest.raises(StateError, match="has 15 tiles"):
        solve(list(range(15)), 4, 4)
    with pytest.raises(StateError, match="once"):
        solve([0] * 16, 4, 4)


def test_pattern_database_search_is_optimal():
    """Against the complete table on 3x3 (the search runs there too) and, on 3x4, against a
    shorter solution never existing: a BFS ball of radius 5 around the goal."""
    rng = random.Random(3)
    for _ in range(8):
        s = list(range(9))
        rng.shuffle(s)
        if odd(s):
            s[0], s[1] = s[1], s[0]
        shifts = pdb_search.solve(s, 3, 3)
        assert replay(tuple(s), 3, 3, shifts) == tuple(range(9))
        assert len(shifts) == optimal.distance(s, 3, 3)
    ball = {}
    frontier = [tuple(range(12))]
    ball[frontier[0]] = 0
    for d in range(1, 6):
        nxt = []
        for s in frontier:
            for m in optimal.unit_shifts(3, 4):
                t = shifted(s, 3, 4, m)
                if t not in ball:
                    ball[t] = d
                    nxt.append(t)
        frontier = nxt
    for s in rng.sample(frontier, 10):
        assert len(solve(s, 3, 4, method="optimal")) == 5
    far = list(range(12))
    rng.shuffle(far)
    shifts = solve(far, 3, 4, method="optimal")
    assert replay(tuple(far), 3, 4, shifts) == tuple(range(12))
    assert len(shifts) == ball[tuple(far)] if tuple(far) in ball else len(shifts) > 5
