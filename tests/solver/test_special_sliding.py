"""Sliding puzzles: optimality against plain BFS on the 8-puzzle, replay on generated states,
unreachable and malformed input, and the stored tables' checksum."""

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import StateError, UnreachableError
from solver.special import store
from solver.special.sliding import Board, parse_tiles, pdb, solve


pytestmark = pytest.mark.usefixtures("module_cache")


def neighbours(board, tiles):
    """Every state one move away: the blank swaps with an adjacent tile (written independently of
    the solver's move table)."""
    b = tiles.index(0)
    r, c = divmod(b, board.cols)
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < board.rows and 0 <= cc < board.cols:
            t = list(tiles)
            q = rr * board.cols + cc
            t[b], t[q] = t[q], 0
            yield tuple(t)


@pytest.fixture(scope="module")
def eight_puzzle_distances():
    board = Board(3, 3)
    dist = {board.goal(): 0}
    queue = deque([board.goal()])
    while queue:
        s = queue.popleft()
        for t in neighbours(board, s):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    assert len(dist) == 181440  # 9!/2: half the permutations are reachable
    return dist


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_eight_puzzle_solutions_are_optimal(seed, eight_puzzle_distances):
    states = list(eight_puzzle_distances)
    start = random.Random(seed).choice(states)
    moves = solve(start, 3, 3)
    board = Board(3, 3)
    assert board.apply(start, moves) == board.goal()
    assert len(moves) == eight_puzzle_distances[start]


def test_eight_puzzle_hardest_states(eight_puzzle_distances):
    hardest = [s for s, d in eight_puzzle_distances.items() if d == 31][:3]
    assert hardest
    for s in hardest:
        assert len(solve(s, 3, 3)) == 31


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40))
def test_three_by_four_random_walks_replay(seed, steps):
    board = Board(3, 4)
    rng = random.Random(seed)
    state = board.goal()
    for _ in range(steps):
        state = rng.choice(list(neighbours(board, state)))
    moves = solve(state, 3, 4)
    assert board.apply(state, moves) == board.goal()
    assert len(moves) <= steps and len(moves) % 2 == steps % 2


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 8), cols=st.integers(2, 8), seed=st.integers(0, 2**32 - 1))
def test_constructive_solutions_replay(rows, cols, seed):
    board = Board(rows, cols)
    tiles = list(range(rows * cols))
    random.Random(seed).shuffle(tiles)
    if not board.solvable(tiles):
        i, j = [k for k, t in enumerate(tiles) if t][:2]  # swap two tiles, not the blank
        tiles[i], tiles[j] = tiles[j], tiles[i]
    moves = solve(tiles, rows, cols, method="constructive")
    assert board.apply(tiles, moves) == board.goal()


def test_pattern_database_is_additive_lower_bound(eight_puzzle_distances):
    """Sum over the groups never exceeds the true distance (admissible), on every state."""
    board = Board(3, 3)
    groups = pdb.partition(board)
    assert sorted(t for g in groups for t in g) == list(range(1, 9))
    tables = pdb.tables(board)
    for s, d in list(eight_puzzle_distances.items())[::97]:
        where = {t: c for c, t in enumerate(s)}
        h = sum(int(tab[sum(where[t] * 9**k for k, t in enumerate(g))]) for g, tab in zip(groups, tables))
        assert h <= d


def test_unreachable_and_malformed_states():
    with pytest.raises(UnreachableError, match="parity"):
        solve((0, 2, 1, 3, 4, 5, 6, 7, 8), 3, 3)
    with pytest.raises(StateError, match="has 3 tiles"):
        solve((0, 1, 2), 3, 3)
    with pytest.raises(StateError, match="missing"):
        solve((0, 1, 1, 3, 4, 5, 6, 7, 8), 3, 3)
    with pytest.raises(StateError, match="word 2"):
        parse_tiles("0 x 1")
    assert parse_tiles(" 1 0\n2 3 ") == (1, 0, 2, 3)


def test_stored_table_is_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    import numpy as np

    data = np.arange(100, dtype=np.uint8)
    store.save("t", "x", {"v": 1}, data)
    store._loaded.clear()
    assert (store.load("t", "x", {"v": 1}) == data).all()
    assert store.load("t", "x", {"v": 2}) is None  # other parameters: not this table
    path = store.table_path("t", "x")
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    store._loaded.clear()
    assert store.load("t", "x", {"v": 1}) is None  # checksum mismatch: rebuilt by load_or_build
    assert (store.load_or_build("t", "x", {"v": 1}, lambda stop: data) == data).all()


def test_a_stored_table_checked_once_is_not_read_whole_again(tmp_path, monkeypatch):
    """Every process read a specialized solver's tables whole to check them (a 5x5x5's 980 MB: seconds
    of each command-line solve); a table found intact is stamped (solver.intact), and a rewritten
    one is checked again."""
    import os
    import time

    import numpy as np

    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    data = np.arange(100, dtype=np.uint8)
    store.save("t", "x", {"v": 1}, data)
    path = store.table_path("t", "x")
    stamp = path.with_suffix(".checked")
    store._loaded.clear()
    assert store.load("t", "x", {"v": 1}) is not None and not stamp.exists()  # written a moment ago
    old = time.time() - 10
    os.utime(path, (old, old))
    store._loaded.clear()
    assert store.load("t", "x", {"v": 1}) is not None and stamp.exists()
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))  # a new modification time: the stamp no longer matches
    store._loaded.clear()
    assert store.load("t", "x", {"v": 1}) is None
