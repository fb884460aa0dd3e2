"""Loading, validating, hashing and exporting definitions."""

import dataclasses
import random
import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import perm
from solver.definition.canonical import content_hash
from solver.definition.export import native_data, seed_data, to_yaml
from solver.definition.formats import load_data, load_text
from solver.errors import DefinitionError

SQUARE = """
format: puzzlehub/1
name: two-rings
moves:
  - name: A
    cycles: [[0, 1, 2, 3]]
  - name: B
    value: [2, 3, 4, 5, 2]
extenders:
  - {name: A', function: REVERSE, params: [A]}
  - {name: B2, function: REPEAT, params: [B, 2]}
  - {name: AB, function: SEQUENCE, params: [A, B]}
goal: WWWWRR
"""


def test_ball_ring_seed_loads_unchanged(ball_ring_text):
    defn = load_text(ball_ring_text)
    assert defn.name == "ball_ring"
    assert defn.stickers == 32
    assert defn.move_names == ["L", "R", "L'", "R'"]
    assert perm.compose(defn.move("L").perm, defn.move("L'").perm) == perm.identity(32)
    # L is the 18-cycle written in the seed, read with the seed's closing convention.
    assert perm.cycles(defn.move("L").perm) == [[0, 1, 2, 3, 4, 5, 6, 14, 17, 25, 24, 23, 22, 21, 20, 19, 16, 13]]
    assert dict(defn.seed_names) == {"colorSetName": "ball_ring", "representationName": "ball_ring"}


def test_extenders_resolve():
    defn = load_text(SQUARE)
    a, b = defn.move("A").perm, defn.move("B").perm
    assert defn.move("A'").perm == perm.inverse(a)
    assert defn.move("B2").perm == perm.compose(b, b)
    assert defn.move("AB").perm == perm.compose(a, b)


def test_extenders_may_refer_to_later_extenders():
    data = yaml.safe_load(SQUARE)
    data["extenders"].insert(0, {"name": "A2", "function": "SEQUENCE", "params": ["A'", "A'"]})
    defn = load_data(data)
    assert defn.move("A2").perm == perm.power(defn.move("A").perm, 2)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["moves"][1].update(value=[2, 3, 40, 2]), "goal has 6 stickers, moves use 41"),
        (lambda d: d.update(stickers=6) or d["moves"][1].update(value=[2, 3, 40, 2]),
         "moves[1] (B): position 40 is out of range 0..5"),
        (lambda d: d["moves"][0].update(cycles=[[0, 1], [1, 2]]), "move A: position 1 appears twice"),
        (lambda d: d.update(goal="WWWWR"), "goal has 5 stickers, moves use 6"),
        (lambda d: d["extenders"].append({"name": "X'", "function": "REVERSE", "params": ["X"]}),
         "extender X': unknown move X"),
        (lambda d: d["moves"].append({"name": "A", "cycles": [[4, 5]]}), "move A: defined twice"),
        (lambda d: d["moves"][0].update(cycles=[[0]]), "move A: the identity (it moves nothing)"),
        (lambda d: d["moves"][1].update(value=[2, 3, 4]), "not closed"),
        (lambda d: d["moves"][0].update(cycles=[[0, "x"]]), "moves[0] (A): positions are whole numbers"),
        (lambda d: d["extenders"].append({"name": "Z", "function": "MIRROR", "params": ["A"]}), "function must be one of"),
        (lambda d: d.update(colour="x"), "colour: unknown key"),
        (lambda d: d.update(layout={"cells": [[0, 0]]}), "layout.cells has 1 entries, the puzzle has 6 stickers"),
        (lambda d: d.update(goals=["WWWWRR"]), "goal, goals: give one or the other"),
        (lambda d: d["extenders"].extend([{"name": "P", "function": "SEQUENCE", "params": ["Q", "A"]},
                                          {"name": "Q", "function": "SEQUENCE", "params": ["P", "A"]}]),
         "circular definition"),
    ],
)
def test_validation_names_place_and_problem(change, message):
    data = yaml.safe_load(SQUARE)
    change(data)
    with pytest.raises(DefinitionError, match=re.escape(message)):
        load_data(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: &x [1, 2]\nb: *x\n", "anchors and aliases"),
        ("name: !!python/object:os.system x\n", "tags are not allowed"),
        ("x: " + "[" * 100 + "]" * 100, "nested deeper"),
        ("- just\n- a list\n", "expected a mapping"),
        ("name: [unclosed\n", "invalid YAML"),
        ("x" * (3 * 1024 * 1024), "limit"),
    ],
)
def test_hostile_files_are_refused(text, message):
    with pytest.raises(DefinitionError, match=message):
        load_text(text)


def test_alias_bomb_is_refused_quickly():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9)
    )
    with pytest.raises(DefinitionError, match="anchors and aliases"):
        load_text(bomb)


def test_guarded_moves_and_reverse():
    text = """
format: puzzlehub/1
name: slide3
moves:
  - name: L
    cases:
      - when: {0: "_"}
        cycles: [[0, 1]]
      - when: {1: "_"}
        cycles: [[1, 2]]
extenders:
  - {name: R, function: REVERSE, params: [L]}
goal: ["_", "a", "b"]
"""
    defn = load_text(text)
    left, right = defn.move("L"), defn.move("R")
    assert left.guarded and right.guarded
    # R undoes L: after L with the blank at 0 the blank is at 1, which is what R's first case guards.
    assert right.cases[0].guard == ((1, "_"),)
    with pytest.raises(DefinitionError, match="SEQUENCE of guarded move L"):
        load_data({**yaml.safe_load(text), "extenders": [{"name": "X", "function": "SEQUENCE", "params": ["L", "L"]}]})


def test_symmetries_close_the_goals():
    text = """
format: puzzlehub/1
name: ring
moves: [{name: A, cycles: [[0, 1, 2, 3]]}]
goal: WRWR
symmetries: [{name: s, cycles: [[0, 1, 2, 3]]}]
"""
    defn = load_text(text)
    assert set(defn.goals) == {tuple("WRWR"), tuple("RWRW")}
    assert defn.given_goals == 1


def test_symmetries_with_too_many_goal_images_are_refused():
    # 8 distinct stickers under a transposition and an 8-cycle: 8! = 40320 images, above the bound.
    text = """
format: puzzlehub/1
name: line
moves: [{name: A, cycles: [[0, 1]]}]
goal: ABCDEFGH
symmetries: [{name: s, cycles: [[0, 1]]}, {name: t, cycles: [[0, 1, 2, 3, 4, 5, 6, 7]]}]
"""
    with pytest.raises(DefinitionError, match="symmetries: more than 5,000 solved states"):
        load_text(text)


# -- canonical hash -----------------------------------------------------------------------------

def _random_puzzle(rng: random.Random) -> dict:
    n = rng.randint(4, 14)
    moves = []
    for k in range(rng.randint(1, 4)):
        p = list(range(n))
        rng.shuffle(p)
        if perm.is_identity(p):
            p[0], p[1] = p[1], p[0]
        moves.append({"name": f"M{k}", "cycles": perm.cycles(p)})
    colours = "".join(rng.choice("ABC") for _ in range(n))
    return {"format": "puzzlehub/1", "name": "rnd", "moves": moves, "goal": colours}


def _rewrite(data: dict, rng: random.Random) -> dict:
    """The same puzzle written differently: cycles rotated and reordered, moves reordered, value form."""
    out = {**data, "name": "other-name", "moves": []}
    for m in data["moves"]:
        cycles = [c[k:] + c[:k] for c in m["cycles"] for k in [rng.randrange(len(c))]]
        rng.shuffle(cycles)
        if rng.random() < 0.5:
            flat = [x for c in cycles for x in c + [c[0]]]
            out["moves"].append({"name": m["name"], "value": flat})
        else:
            out["moves"].append({"name": m["name"], "cycles": cycles})
    rng.shuffle(out["moves"])
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_hash_is_invariant_under_rewriting(seed):
    rng = random.Random(seed)
    data = _random_puzzle(rng)
    assert content_hash(load_data(data)) == content_hash(load_data(_rewrite(data, rng)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_hash_differs_for_a_different_puzzle(seed):
    rng = random.Random(seed)
    data = _random_puzzle(rng)
    other = yaml.safe_load(yaml.safe_dump(data))
    move = other["moves"][0]
    p = perm.from_cycles(len(data["goal"]), move["cycles"])
    # Compose with a transposition: a different permutation for sure (and not the identity).
    changed = perm.compose(p, perm.from_cycles(len(p), [[0, 1]]))
    if perm.is_identity(changed):
        changed = perm.compose(p, perm.from_cycles(len(p), [[0, 2]]))
    move["cycles"] = perm.cycles(changed)
    assert content_hash(load_data(data)) != content_hash(load_data(other))


def test_extenders_hash_like_explicit_moves():
    defn = load_text(SQUARE)
    explicit = {
        "format": "puzzlehub/1",
        "name": "explicit",
        "moves": [{"name": m.name, "cycles": perm.cycles(m.perm)} for m in reversed(defn.moves)],
        "goal": "WWWWRR",
    }
    assert content_hash(load_data(explicit)) == content_hash(defn)


def test_the_hash_is_computed_once_per_definition_and_a_changed_copy_gets_its_own(monkeypatch):
    from solver.definition import canonical

    defn = load_text(SQUARE)
    forms = []
    monkeypatch.setattr(canonical, "canonical_form", lambda d: forms.append(d) or {"moves": d.move_names})
    assert content_hash(defn) == content_hash(defn) and len(forms) == 1
    fewer = dataclasses.replace(defn, moves=defn.moves[:-1])
    assert content_hash(fewer) != content_hash(defn) and len(forms) == 2


def test_exports_round_trip(ball_ring_text):
    defn = load_text(ball_ring_text)
    native = load_text(to_yaml(native_data(defn)))
    seed = load_text(to_yaml(seed_data(defn)))
    assert content_hash(native) == content_hash(seed) == content_hash(defn)
    assert native.layout == defn.layout and native.move_names == defn.move_names


def test_seed_export_refuses_guarded_moves():
    text = """
format: puzzlehub/1
name: g
moves: [{name: L, cases: [{when: {0: "_"}, cycles: [[0, 1]]}]}]
goal: ["_", "a"]
"""
    with pytest.raises(DefinitionError, match="no guarded moves"):
        seed_data(load_text(text))
