"""Effects of move sequences: checked against replay, known cube facts and the invariance of keys."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import catalog, perm
from solver.definition.formats import load_data
from solver.discover import effect
from solver.discover.effects import Effects
from solver.discover.moveset import MoveSet
from solver.discover.symmetry import automorphisms, closure
from solver.engine import apply_moves
from solver.errors import PuzzleError


def load(name):
    return load_data(catalog.build(name))


@pytest.fixture(scope="module")
def cube3():
    return Effects(load("cube3"))


def sequence_perm(defn, moves):
    p = perm.identity(defn.stickers)
    for name in moves:
        p = perm.compose(p, defn.move(name).perm)
    return p


@pytest.mark.parametrize("name", ["cube3", "cube2", "pyraminx", "skewb", "floppy", "loopover-3x3", "ball-ring"])
def test_effect_agrees_with_replay(name):
    defn = load(name)
    effects = Effects(defn)
    rng = random.Random(7)
    model = effects.model
    rotations = closure([p for _n, p in defn.symmetries], defn.stickers)
    for _ in range(25):
        moves = [rng.choice(defn.move_names) for _ in range(rng.randrange(1, 9))]
        result = effects.of_moves(moves)
        state = apply_moves(defn, moves)
        # the permutation read is the replayed one, up to a whole-puzzle rotation done after it
        assert any(perm.apply(r, perm.apply(result.perm, defn.goal)) == state for r in rotations)
        # the support is every piece with a sticker position moved by that permutation, and it is
        # what one sees: the pieces whose colours differ from the nearest goal
        touched = [slot for orbit in model.orbits for slot in orbit.slots
                   if any(result.perm[x] != x for x in slot)]
        slots = [slot for orbit in model.orbits for slot in orbit.slots]
        seen = min(sum(any(state[x] != g[x] for x in slot) for slot in slots) for g in defn.goals)
        assert result.support == len(touched) == seen
        # every listed cycle follows the permutation: a sticker of each slot lands in the next slot
        slot_of = {x: (o.name, s) for o in model.orbits for s, slot in enumerate(o.slots) for x in slot}
        for cycle in result.cycles:
            orbit = next(o for o in model.orbits if o.name == cycle["orbit"])
            names = effects.names[model.orbits.index(orbit)]
            slots = [names.index(p) if names else p for p in cycle["pieces"]]
            for a, b in zip(slots, slots[1:] + slots[:1]):
                assert slot_of[result.perm[orbit.slots[a][0]]] == (orbit.name, b)
        # the order: that many repeats give back a goal, fewer do not
        reached = [apply_moves(defn, moves * k) in defn.goal_set for k in range(1, result.order + 1)]
        assert reached[-1] and not any(reached[:-1])


def test_look_alike_pieces_trade_places_unseen():
    """Balls of one colour on the ball ring are interchangeable: a commutator that only swaps
    balls of equal colours has no effect one can see."""
    defn = load("ball-ring")
    assert apply_moves(defn, "L R L' R'".split()) == defn.goal
    assert effect(defn, "L R L' R'")["effect"] == "no effect"
    seq = "L R L R L' R' R' L' L' R L R L' R' R' L".split()
    changed = sum(a != b for a, b in zip(apply_moves(defn, seq), defn.goal))
    assert effect(defn, seq)["support"] == changed == 2


def test_known_cube_effects(cube3):
    a = cube3.of_moves("R U R' D R U' R' D'".split())
    assert a.text.startswith("corner 3-cycle (") and a.support == 3 and a.order == 3
    u = cube3.of_moves(["U"])
    assert u.text == "corner 4-cycle (ULB URB URF ULF) + edge 4-cycle (UB UR UF UL)"
    assert u.support == 8 and u.order == 4
    assert cube3.of_moves("R U R' U'".split()).order == 6
    assert cube3.of_moves("R L R' L'".split()).text == "no effect"


def test_cube_pieces_are_named_by_their_faces(cube3):
    corners, edges = cube3.names
    assert {frozenset(n) for n in corners} == {frozenset(a + b + c) for a in "UD" for b in "FB" for c in "LR"}
    assert len(edges) == 12 and all(len(n) == 2 and n[0] != n[1] for n in edges)


def test_cube3_automorphisms_are_the_48_symmetries_of_the_cube():
    moves = MoveSet.of(load("cube3"))
    autos, complete = automorphisms(moves.perms)
    assert complete and len(autos) == 48
    perms = set(moves.perms)
    for s in autos:
        assert all(perm.compose(perm.inverse(s), m, s) in perms for m in moves.perms)
    # 24 rotations keep each move's turning sense (quarter turns stay clockwise), 24 mirrors do not
    u = moves.perms[moves.index["U"]]
    clockwise = {moves.perms[moves.index[f]] for f in "UDLRFB"}
    assert sum(perm.compose(perm.inverse(s), u, s) in clockwise for s in autos) == 24


def test_loopover_automorphisms_are_torus_translations_and_square_symmetries():
    autos, complete = automorphisms(MoveSet.of(load("loopover-4x4")).perms)
    assert complete and len(autos) == 16 * 8
    assert closure(autos[1:], 16) is not None and len(closure(autos[1:], 16)) == 128


def test_same_class_for_mirror_inverse_and_setups(cube3):
    base = "R U R' U'".split()
    mirror = "L' U' L U".split()
    inverse = "U R U' R'".split()
    setup = "F D2 R U R' U' D2 F'".split()
    keys = {cube3.of_moves(s).key for s in (base, mirror, inverse, setup)}
    assert len(keys) == 1
    others = ["R U R' D R U' R' D'", "U L' F2 L U' B2 U L' F2 L U' B2", "U D' L2 U' D F2", "U"]
    assert len({cube3.of_moves(s.split()).key for s in others} | keys) == 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 17), min_size=1, max_size=8), st.lists(st.integers(0, 17), max_size=4))
def test_key_is_invariant_under_conjugation_and_inversion(cube3, x, s):
    names = cube3.moves.names
    seq = [names[i] for i in x]
    setup = [names[i] for i in s]
    undo = [cube3.defn.inverse_name(n) for n in reversed(setup)]
    inv = [cube3.defn.inverse_name(n) for n in reversed(seq)]
    key = cube3.of_moves(seq).key
    assert cube3.of_moves(setup + seq + undo).key == key
    assert cube3.of_moves(inv).key == key


def test_cube2_effects_are_read_modulo_whole_cube_rotations():
    effects = Effects(load("cube2"))
    assert len(effects.rotations) == 24
    assert effects.of_moves(["R", "L'"]).text == "no effect"  # a whole-cube turn
    plain = effects.of_moves("R U R' D R U' R' D'".split())
    turned = effects.of_moves("R U R' D R U' R' D' R L'".split())
    assert plain.key == turned.key and plain.support == turned.support == 3


def test_effect_entry_point_and_errors():
    defn = load("cube3")
    result = effect(defn, "R U R' D R U' R' D'")
    assert set(result) == {"effect", "effect_key", "support", "order", "cycles"}
    with pytest.raises(PuzzleError, match='unknown move "Q" at column 3'):
        effect(defn, "R Q")


def test_guarded_puzzles_have_effects_by_replay_but_no_discovery():
    from solver.discover import discover

    defn = load("sliding-2x3")
    moves = [defn.move_names[0]]
    state = apply_moves(defn, moves)
    result = Effects(defn).of_moves(moves)
    assert perm.apply(result.perm, defn.goal) == state
    with pytest.raises(PuzzleError, match="guarded"):
        discover(defn, time_limit=1)


def test_command_line_effect_and_discover(capsys):
    import json

    from solver.cli import main

    assert main(["effect", "cube3", "R U R' D R U' R' D'"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("corner 3-cycle (") and "support 3 pieces, order 3" in out
    assert main(["discover", "floppy", "--time-limit", "5", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results and {"moves", "length", "effect", "effect_key", "support", "order"} <= set(results[0])
    assert main(["discover", "floppy", "--max-support", "0"]) == 2
    assert main(["effect", "cube3", "R X"]) == 2
    assert 'unknown move "X" at column 3' in capsys.readouterr().err


def test_keys_do_not_depend_on_sticker_numbering_or_move_names():
    """cube3 with its stickers shuffled and moves renamed: every sequence keeps its effect key,
    its support and its order (the key is built from the moves alone, not from numbers or names)."""
    data = catalog.build("cube3")
    rng = random.Random(11)
    where = list(range(data["stickers"]))
    rng.shuffle(where)
    goal = [None] * len(where)
    for i, c in enumerate(data["goal"]):
        goal[where[i]] = c
    rename = {m["name"]: f"m{k}" for k, m in enumerate(data["moves"])}
    other = load_data({"format": "puzzlehub/1", "name": "shuffled", "goal": "".join(goal),
                       "moves": [{"name": rename[m["name"]], "cycles": [[where[x] for x in c] for c in m["cycles"]]}
                                 for m in data["moves"]]})
    plain, shuffled = Effects(load("cube3")), Effects(other)
    for _ in range(30):
        seq = [rng.choice(list(rename)) for _ in range(rng.randrange(1, 12))]
        a, b = plain.of_moves(seq), shuffled.of_moves([rename[m] for m in seq])
        assert (a.key, a.support, a.order) == (b.key, b.support, b.order)
