"""The semantic diff of two definitions, checked against edits whose effect is known."""

from hypothesis import given, settings, strategies as st

from solver import api
from solver.definition.diff import diff

BASE = """\
format: puzzlehub/1
name: two-rings
moves:
  - {name: A, cycles: [[0, 1, 2, 3]]}
  - {name: B, cycles: [[2, 3, 4, 5]]}
extenders:
  - {name: "A'", function: REVERSE, params: [A]}
goal: WWWWRR
"""


def load(text):
    return api.load_text(text)


def test_identical_definitions_have_no_difference():
    d = diff(load(BASE), load(BASE))
    assert d["same_puzzle"] and d["base_hash"] == d["head_hash"]
    assert d["moves_added"] == d["moves_removed"] == d["moves_changed"] == d["moves_renamed"] == []
    assert d["goals"] is None and d["stickers"] is None and d["presentation_changed"] == []


def test_rewriting_is_not_a_change_but_renaming_the_puzzle_is_presentation():
    rewritten = BASE.replace("[[0, 1, 2, 3]]", "[[2, 3, 0, 1]]").replace("name: two-rings", "name: other")
    d = diff(load(BASE), load(rewritten))
    assert d["same_puzzle"]
    assert d["moves_changed"] == []
    assert d["presentation_changed"] == ["name"]


def test_added_removed_renamed_and_changed_moves():
    head = (BASE.replace("{name: B, cycles: [[2, 3, 4, 5]]}", "{name: C, cycles: [[2, 3, 4, 5]]}")
                .replace("[[0, 1, 2, 3]]", "[[0, 1, 3, 2]]")
                .replace("goal:", "  - {name: C2, function: REPEAT, params: [C, 2]}\ngoal:"))
    d = diff(load(BASE), load(head))
    assert not d["same_puzzle"]
    assert d["moves_renamed"] == [{"from": "B", "to": "C"}]
    assert [m["name"] for m in d["moves_added"]] == ["C2"]
    assert d["moves_added"][0]["cycles"] == "(2 4)(3 5)"
    assert d["moves_removed"] == []
    assert [m["name"] for m in d["moves_changed"]] == ["A", "A'"]  # the extender follows its move
    assert d["moves_changed"][0] == {"name": "A", "base": "(0 1 2 3)", "head": "(0 1 3 2)"}


def test_goal_and_sticker_changes():
    d = diff(load(BASE), load(BASE.replace("goal: WWWWRR", "goals: [WWWWRR, RRWWWW]")))
    assert d["goals"] == {"added": 1, "removed": 0} and not d["same_puzzle"]
    bigger = BASE.replace("goal: WWWWRR", "goal: WWWWRRR")
    assert diff(load(BASE), load(bigger))["stickers"] == {"base": 6, "head": 7}


cycle_moves = st.lists(st.permutations(range(6)), min_size=1, max_size=4, unique_by=tuple)


def definition_text(perms, goal):
    moves = "".join(
        f"  - {{name: M{i}, cycles: [{list(p)}]}}\n" for i, p in enumerate(perms)
    )
    return f"format: puzzlehub/1\nname: generated\nmoves:\n{moves}goal: {goal}\n"


@settings(max_examples=40, deadline=None)
@given(a=cycle_moves, b=cycle_moves, goal_a=st.sampled_from(["WWWRRR", "WRWRWR"]),
       goal_b=st.sampled_from(["WWWRRR", "WRWRWR"]))
def test_diff_is_antisymmetric_and_same_puzzle_iff_equal_hash(a, b, goal_a, goal_b):
    da, db = load(definition_text(a, goal_a)), load(definition_text(b, goal_b))
    forward, backward = diff(da, db), diff(db, da)
    assert forward["same_puzzle"] == (api.content_hash(da) == api.content_hash(db)) == backward["same_puzzle"]
    assert {m["name"] for m in forward["moves_added"]} == {m["name"] for m in backward["moves_removed"]}
    assert [(r["from"], r["to"]) for r in forward["moves_renamed"]] == \
        sorted((r["to"], r["from"]) for r in backward["moves_renamed"])
    assert {m["name"] for m in forward["moves_changed"]} == {m["name"] for m in backward["moves_changed"]}
    nothing = not (forward["moves_added"] or forward["moves_removed"] or forward["moves_renamed"]
                   or forward["moves_changed"] or forward["goals"] or forward["stickers"])
    assert nothing == forward["same_puzzle"]
