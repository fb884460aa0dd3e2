import random
from collections import Counter

from analysis_geometry import cuboid, sliding

from solver import perm
from solver.analysis import statespace
from solver.analysis.group import reachability
from solver.analysis.scramble import families, random_moves, random_state
from solver.definition.model import Case, Definition, Move


def test_families_group_powers_of_one_turn():
    d = cuboid((3, 3, 3), inverses=True, halves=True)
    fam = families(d)
    names = d.move_names
    by_family = {}
    for name, f in zip(names, fam):
        by_family.setdefault(f, []).append(name)
    assert sorted(sorted(v) for v in by_family.values()) == sorted(
        sorted([f, f + "'", f + "2"]) for f in "UDRLFB")


def test_random_moves_never_waste_a_move():
    d = cuboid((3, 3, 3), inverses=True, halves=True)
    moves = random_moves(d, 300, random.Random(1))
    assert len(moves) == 300
    for a, b in zip(moves, moves[1:]):
        assert a[0] != b[0]  # same face
    for a, b, c in zip(moves, moves[1:], moves[2:]):
        opposite = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
        assert not (opposite[a[0]] == b[0] and a[0] == c[0])  # U D U is U2 D
    assert len(Counter(m[0] for m in moves)) == 6


def test_guarded_random_moves_replay():
    d = sliding(3, 3)
    moves = random_moves(d, 200, random.Random(3))
    state = d.goal
    prev = None
    for name in moves:
        case = d.move(name).case_for(state)
        assert case is not None
        if prev is not None:
            assert perm.compose(prev, case.perm) != perm.identity(d.stickers)
        state, prev = perm.apply(case.perm, state), case.perm


def test_random_states_are_reachable_and_uniform():
    d = cuboid((3, 1, 3), faces=("R", "L", "F", "B"))
    rng = random.Random(0)
    counts = Counter()
    for _ in range(192 * 30):
        state, uniform = random_state(d, rng)
        assert uniform
        counts[state] += 1
    assert len(counts) == 192
    assert max(counts.values()) < 80 and min(counts.values()) > 5
    assert all(reachability(d, s) is None for s in counts)


def test_sliding_random_state_is_uniform_and_solvable():
    d = sliding(2, 3)
    rng = random.Random(5)
    counts = Counter()
    for _ in range(360 * 20):
        state, uniform = random_state(d, rng)
        assert uniform
        counts[state] += 1
    assert len(counts) == 360  # 6!/2
    assert all(reachability(d, s) is None for s in counts)


def test_cube_random_state_is_a_reachable_scramble():
    d = cuboid((3, 3, 3))
    state, uniform = random_state(d, random.Random(9))
    assert uniform and state != d.goal and reachability(d, state) is None


def test_small_guarded_puzzle_random_state_is_uniform_over_the_listed_states():
    d = Definition(name="blank-ring", stickers=4, goals=(("_", "a", "a", "b"),), moves=(
        Move("next", tuple(Case(perm.from_cycles(4, [[b, (b + 1) % 4]]), ((b, "_"),)) for b in range(4))),
        Move("skip", tuple(Case(perm.from_cycles(4, [[b, (b + 2) % 4]]), ((b, "_"), ((b + 1) % 4, "a")))
                           for b in range(4))),
    ))
    seen, _ = statespace.reachable_states(d)
    listed = {statespace.unpack(d, key) for key in seen}
    assert d.goal in listed and len(listed) == len(seen)
    rng = random.Random(1)
    counts = Counter()
    for _ in range(len(listed) * 60):
        state, uniform = random_state(d, rng)
        assert uniform
        counts[state] += 1
    assert set(counts) == listed
    assert min(counts.values()) > 20
