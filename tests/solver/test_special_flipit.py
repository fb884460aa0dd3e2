"""Flip-it: lengths against plain BFS for small boards, replay, bad input."""

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import StateError
from solver.special.flipit import apply, goal, solve


def jumps_from(cells):
    """Every legal jump, written independently of the solver: (from, to)."""
    e = cells.index("_")
    for j in range(len(cells)):
        if abs(j - e) >= 2:
            row = list(cells)
            lo, hi = sorted((j, e))
            for m in range(lo + 1, hi):
                row[m] = {"B": "W", "W": "B"}[row[m]]
            row[e], row[j] = row[j], "_"
            yield "".join(row)


def bfs_length(start, target=None):
    target = target or goal(start)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s == target:
            return dist[s]
        for t in jumps_from(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return None


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 9).flatmap(lambda n: st.tuples(
    st.integers(0, n - 1), st.lists(st.sampled_from("BW"), min_size=n - 1, max_size=n - 1))))
def test_lengths_equal_plain_bfs(case):
    e, colours = case
    start = "".join(colours[:e]) + "_" + "".join(colours[e:])
    jumps = solve(start)
    assert apply(start, jumps) == goal(start)
    assert len(jumps) == bfs_length(start)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 8).flatmap(lambda n: st.tuples(
    st.permutations(["_"] + ["B"] * (n - 1)), st.lists(st.sampled_from("BW"), min_size=n, max_size=n))))
def test_other_goals_by_two_sided_search(case):
    """The catalog's goal `_WWW...` from any start: lengths against plain BFS."""
    cells, flips = case
    start = "".join(c if c == "_" else f for c, f in zip(cells, flips))
    target = "_" + "W" * (len(start) - 1)
    jumps = solve(start, target)
    assert apply(start, jumps) == target
    assert len(jumps) == bfs_length(start, target)


def test_seed_example():
    jumps = solve("_BBBB")
    assert apply("_BBBB", jumps) == "_WWWW"
    assert len(jumps) == bfs_length("_BBBB")


def test_bad_input():
    with pytest.raises(StateError, match="exactly one empty"):
        solve("BBBBB")
    with pytest.raises(StateError, match="cells must be"):
        solve("_BBXB")
    with pytest.raises(StateError, match="3..22 cells"):
        solve("_B")
    with pytest.raises(StateError, match="not a legal jump"):
        apply("_BBBB", [(1, 0)])


def test_a_stopped_search_returns_at_once_and_the_next_starts_clean():
    """A stop leaves the search's scratch as it was (clearing tens of millions of entries took
    longer than the stop itself): it is thrown away, and the next search of that size is exact."""
    from solver.search.budget import Budget, Cancelled
    from solver.special import flipit

    cells = "B_WBWBWBWBWB"
    with pytest.raises(Cancelled):
        flipit.empty_path(cells, budget=Budget(cancel=lambda: True))
    assert len(cells) not in flipit._scratch
    moves = solve(cells)
    assert apply(cells, moves) == goal(cells) and len(moves) == bfs_length(cells)
