"""The move engine and the plain BFS searches."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import perm
from solver.definition.formats import load_data
from solver.engine import Codec, apply_moves, inverse_sequence, parse_moves, parse_state, verify
from solver.errors import NotationError, StateError
from solver.search import bfs
from solver.search.budget import Budget, Stopped

SOLVED_NET = "WWWWWWWWWOOOGGGRRRBBBOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def seed_u_layer():
    """The three U-layer moves exactly as SEEDS.md writes them, on the 54-sticker net."""
    return load_data({
        "name": "u-layer",
        "turnSet": {"baseTurns": [
            {"name": "U", "value": [0, 2, 8, 6, 0, 1, 5, 7, 3, 1, 9, 18, 15, 12, 9, 10, 19, 16, 13, 10, 11, 20, 17, 14, 11]},
            {"name": "U'", "value": [0, 6, 8, 2, 0, 1, 3, 7, 5, 1, 9, 12, 15, 18, 9, 10, 13, 16, 19, 10, 11, 14, 17, 20, 11]},
            {"name": "U2", "value": [0, 8, 0, 1, 7, 1, 2, 6, 2, 3, 5, 3, 9, 15, 9, 10, 16, 10, 11, 17, 11, 12, 18, 12, 13, 19, 13, 14, 20, 14]},
        ]},
        "goal": {"finalState": list(SOLVED_NET)},
    })


def test_seed_u_move_test_vector():
    defn = seed_u_layer()
    assert "".join(apply_moves(defn, ["U"])) == "WWWWWWWWWGGGRRRBBBOOOOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"
    assert apply_moves(defn, ["U", "U"]) == apply_moves(defn, ["U2"])
    assert apply_moves(defn, ["U", "U'"]) == defn.goal


def test_notation_errors_list_valid_moves():
    defn = seed_u_layer()
    with pytest.raises(NotationError, match='unknown move "R" at column 3; valid moves: U, U\', U2'):
        parse_moves(defn, "U R")


def test_state_parsing():
    defn = seed_u_layer()
    assert parse_state(defn, SOLVED_NET) == tuple(SOLVED_NET)
    assert parse_state(defn, " ".join(SOLVED_NET)) == tuple(SOLVED_NET)
    with pytest.raises(StateError, match="state has 53 stickers, the puzzle has 54"):
        parse_state(defn, SOLVED_NET[:-1])
    with pytest.raises(StateError, match="position 0 has colour 'Q'"):
        parse_state(defn, "Q" + SOLVED_NET[1:])


def random_definition(rng: random.Random, n: int, k: int, colours: str = "ABCD"):
    moves = []
    for i in range(k):
        p = list(range(n))
        rng.shuffle(p)
        if perm.is_identity(p):
            p[0], p[1] = p[1], p[0]
        moves.append({"name": f"m{i}", "cycles": perm.cycles(p)})
    extenders = [{"name": f"m{i}'", "function": "REVERSE", "params": [f"m{i}"]} for i in range(k)]
    goal = [rng.choice(colours) for _ in range(n)]
    return load_data({"format": "puzzlehub/1", "name": "rnd", "moves": moves, "extenders": extenders, "goal": goal})


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**9))
def test_sequence_then_inverse_is_identity(seed):
    rng = random.Random(seed)
    defn = random_definition(rng, rng.randint(3, 12), rng.randint(1, 3))
    moves = [rng.choice(defn.move_names) for _ in range(rng.randint(0, 12))]
    state = apply_moves(defn, moves)
    assert apply_moves(defn, inverse_sequence(defn, moves), state) == defn.goal


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**9))
def test_applying_a_sequence_is_applying_its_composition(seed):
    rng = random.Random(seed)
    defn = random_definition(rng, rng.randint(3, 12), rng.randint(1, 3))
    moves = [rng.choice(defn.move_names) for _ in range(rng.randint(1, 8))]
    composed = perm.compose(*[defn.move(m).perm for m in moves])
    assert apply_moves(defn, moves) == perm.apply(composed, defn.goal)


def brute_force_distance(defn, start, limit):
    """Shortest solution length by trying every sequence: independent of the BFS code."""
    for length in range(limit + 1):
        for seq in itertools.product(defn.move_names, repeat=length):
            if verify(defn, start, list(seq)):
                return length
    return None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_bfs_and_bidirectional_bfs_are_optimal(seed):
    rng = random.Random(seed)
    defn = random_definition(rng, rng.randint(3, 7), 2, colours="AB")
    start = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(rng.randint(0, 6))])
    codec = Codec(defn)
    expected = brute_force_distance(defn, start, 6)
    for search in (bfs.bfs, bfs.bidirectional_bfs):
        moves, _ = search(codec, codec.encode(start), Budget())
        assert verify(defn, start, moves)
        if expected is not None:
            assert len(moves) == expected


def sliding_2x3():
    """A 2x3 sliding puzzle written from scratch: tiles move into the blank (guarded moves)."""
    cells = [(r, c) for r in range(2) for c in range(3)]
    index = {rc: i for i, rc in enumerate(cells)}
    moves = []
    for name, (dr, dc) in {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}.items():
        cases = []
        for (r, c), blank in index.items():
            tile = (r + dr, c + dc)
            if tile in index:
                cases.append({"when": {blank: "0"}, "cycles": [[index[tile], blank]]})
        moves.append({"name": name, "cases": cases})
    return load_data({"format": "puzzlehub/1", "name": "slide-2x3", "moves": moves, "goal": "0 1 2 3 4 5"})


def test_guarded_bfs_solves_sliding_puzzle_and_counts_half_the_permutations():
    defn = sliding_2x3()
    codec = Codec(defn)
    total, layers = bfs.count_reachable(codec, 10**6)
    assert total == 720 // 2  # half of 6! is reachable
    assert sum(layers) == total
    start = apply_moves(defn, ["L", "L", "U", "R", "D"])
    for search in (bfs.bfs, bfs.bidirectional_bfs):
        moves, _ = search(codec, codec.encode(start), Budget())
        assert verify(defn, start, moves) and len(moves) <= 5
    # The bidirectional search steps backwards over guarded moves: both must agree on length everywhere.
    rng = random.Random(3)
    for _ in range(30):
        s = _random_walk(defn, rng, 25)
        a, _ = bfs.bfs(codec, codec.encode(s), Budget())
        b, _ = bfs.bidirectional_bfs(codec, codec.encode(s), Budget())
        assert len(a) == len(b) and verify(defn, s, b)


def _random_walk(defn, rng, steps):
    state = defn.goal
    for _ in range(steps):
        options = [m for m in defn.moves if m.case_for(state) is not None]
        state = apply_moves(defn, [rng.choice(options).name], state)
    return state


def test_guarded_move_that_cannot_be_made_is_reported():
    defn = sliding_2x3()
    with pytest.raises(NotationError, match="moves\\[0\\]: move D cannot be made"):
        apply_moves(defn, ["D"])
    assert not verify(defn, defn.goal, ["D"])


def test_budget_stops_a_search():
    rng = random.Random(5)
    defn = random_definition(rng, 40, 3, colours="ABCDEFGH")
    codec = Codec(defn)
    start = codec.encode(apply_moves(defn, [rng.choice(defn.move_names) for _ in range(30)]))
    with pytest.raises(Stopped, match="node limit"):
        bfs.bfs(codec, start, Budget(node_limit=5000))
    with pytest.raises(Stopped, match="cancelled"):
        bfs.bidirectional_bfs(codec, start, Budget(cancel=lambda: True, progress_every=0))


def test_bidirectional_bfs_over_several_goals_agrees_with_bfs():
    """cube2 has 24 solved states (its rotations): the array-layer search of unguarded puzzles
    meets any of them, as short as the plain search from the state."""
    from solver import catalog

    defn = load_data(catalog.build("cube2"))
    assert len(defn.goals) == 24
    codec = Codec(defn)
    rng = random.Random(7)
    for length in (1, 2, 3, 4, 4):
        start = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(length)])
        a, _ = bfs.bfs(codec, codec.encode(start), Budget())
        b, _ = bfs.bidirectional_bfs(codec, codec.encode(start), Budget())
        assert len(a) == len(b) and verify(defn, start, b)
