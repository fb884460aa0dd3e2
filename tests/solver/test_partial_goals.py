"""Partial goals: `?` where a sticker does not matter; the solve is one of a projected puzzle."""

import random

import pytest

from analysis_geometry import renumbered
from solver import api, perm
from solver.analysis.pieces import piece_model
from solver.errors import PuzzleError


@pytest.fixture(scope="module")
def cube3():
    defn, _, _ = renumbered(api.load("cube3"), random.Random(21))
    return defn


def _pieces(defn, orbit_size):
    """The slots (sticker positions) of the pieces with `orbit_size` stickers."""
    return [slot for o in piece_model(defn).orbits for slot in o.slots if len(slot) == orbit_size]


def _kept_only(defn, keep):
    return tuple(c if i in keep else "?" for i, c in enumerate(defn.goal))


def _bfs_distance(defn, tracked, start_positions):
    """Moves from the goal to where `tracked` stickers sit in the start, by breadth-first search
    over the positions of those stickers alone (a small puzzle of its own)."""
    moves = [m.perm for m in defn.moves]
    goal = tuple(tracked)
    seen = {goal: 0}
    frontier = [goal]
    while frontier and start_positions not in seen:
        fresh = []
        for where in frontier:
            for p in moves:
                nxt = tuple(p[x] for x in where)
                if nxt not in seen:
                    seen[nxt] = seen[where] + 1
                    fresh.append(nxt)
        frontier = fresh
    return seen[start_positions]


def test_a_partial_goal_solve_on_a_renumbered_3x3x3_is_optimal(cube3):
    corners, edges = _pieces(cube3, 3), _pieces(cube3, 2)
    keep = set(corners[0]) | set(corners[5]) | set(edges[3])  # two corners and an edge home, the rest `?`
    goal = _kept_only(cube3, keep)
    rng = random.Random(5)
    for _ in range(3):
        scramble = [rng.choice(cube3.move_names) for _ in range(25)]
        state = api.apply_moves(cube3, scramble)
        answer = api.solve(cube3, state, goal=goal, time_limit=60)
        assert answer["verified"] and answer["optimal"]
        end = api.apply_moves(cube3, answer["solution"], state)
        assert all(end[i] == cube3.goal[i] for i in keep)  # the kept stickers home, by replay
        # where the scramble took the kept stickers (the 3x3x3's pieces all differ: one place each)
        taken = perm.identity(cube3.stickers)
        for name in scramble:
            taken = perm.compose(taken, cube3.move(name).perm)
        tracked = sorted(keep)
        where = tuple(taken[x] for x in tracked)
        assert answer["length"] == _bfs_distance(cube3, tracked, where)


def test_the_unmasked_stickers_of_a_partial_goal_are_reached_and_no_more_is_asked(cube3):
    # the last layer's face colour only (an OLL-like goal): its pieces keep a readable twist
    top = next(name for name in cube3.move_names)
    moved = {x for x in range(cube3.stickers) if cube3.move(top).perm[x] != x}
    face_colour = max(set(cube3.goal[x] for x in moved), key=lambda c: sum(cube3.goal[x] == c for x in moved))
    goal = tuple("?" if i in moved and c != face_colour else c for i, c in enumerate(cube3.goal))
    state = api.apply_moves(cube3, api.scramble(cube3, moves=12, seed=2)["moves"])
    answer = api.solve(cube3, state, goal=goal, time_limit=60)
    end = api.apply_moves(cube3, answer["solution"], state)
    assert answer["verified"] and all(c == "?" or end[i] == c for i, c in enumerate(goal))


def test_bad_partial_goals_and_unknown_pieces_name_the_field(cube3):
    state = cube3.goal
    with pytest.raises(PuzzleError, match=r"^goal: position \d+ has"):
        wrong = list(cube3.goal)
        wrong[0] = next(c for c in cube3.colours if c != wrong[0])
        api.solve(cube3, state, goal=tuple(wrong))
    with pytest.raises(PuzzleError, match="^goal: every sticker is `?`"):
        api.solve(cube3, state, goal=("?",) * cube3.stickers)
    with pytest.raises(PuzzleError, match="^goal: position 3 has colour 'X'"):
        api.parse_goal(cube3, list(cube3.goal[:3]) + ["X"] + list(cube3.goal[4:]))
    corner = _pieces(cube3, 3)[0]
    swapped = list(cube3.goal)  # a corner with two stickers of one colour: no such piece
    swapped[corner[0]] = swapped[corner[1]]
    with pytest.raises(PuzzleError, match="^state: the piece at positions .* a piece this puzzle does not have"):
        api.solve(cube3, tuple(swapped), goal=_kept_only(cube3, set(corner)))


def test_look_alike_pieces_are_masked_all_or_none():
    ring = api.load("ball-ring")  # balls of two colours: look-alikes everywhere
    goal = ("?",) + ring.goal[1:]
    with pytest.raises(PuzzleError, match=r"^goal: position \d+ is `\?` but position \d+, a sticker that looks"):
        api.solve(ring, ring.goal, goal=goal)
