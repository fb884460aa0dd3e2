"""Alg notation: groups, repeats, inverses, commutators and conjugates expand to the definition's
own move names; errors give the column; huge expansions are refused before they are built."""

import time

import pytest

from solver import api
from solver.alg import MAX_MOVES, expand
from solver.errors import NotationError


@pytest.fixture(scope="module")
def cube3():
    return api.load("cube3")


@pytest.mark.parametrize("text, expected", [
    ("R U R' U'", "R U R' U'"),
    ("RUR'U'", "R U R' U'"),                         # spaces optional: names matched longest first
    ("(R U R' U')2", "R U R' U' R U R' U'"),
    ("(R U)'", "U' R'"),
    ("(R U2)'", "U2 R'"),
    ("[R, U]", "R U R' U'"),
    ("[R: U]", "R U R'"),
    ("[F: [R, U]]", "F R U R' U' F'"),
    ("[R U: (F)2]'", "R U F' F' U' R'"),
    ("  ", ""),
])
def test_notation_expands_to_the_definitions_moves(cube3, text, expected):
    assert expand(cube3, text) == expected.split()


def test_suffixes_apply_to_moves_the_puzzle_does_not_name(two_ring_defn):
    # the two-rings puzzle has A and A' but no A2: "A2" is A twice, "(A B)'" uses the inverses
    assert expand(two_ring_defn, "A2 (A B)'") == ["A", "A", "B'", "A'"]


@pytest.fixture
def two_ring_defn():
    return api.load_text("""\
format: puzzlehub/1
name: two-rings
moves:
  - {name: A, cycles: [[0, 1, 2, 3]]}
  - {name: B, cycles: [[2, 3, 4, 5]]}
extenders:
  - {name: "A'", function: REVERSE, params: [A]}
  - {name: "B'", function: REVERSE, params: [B]}
goal: WWWWRR
""")


def test_the_expansion_is_what_is_replayed(cube3):
    written = api.apply_moves(cube3, api.parse_moves(cube3, "[R, U]3"))
    spelled = api.apply_moves(cube3, ("R U R' U' " * 3).split())
    assert written == spelled
    assert api.apply_moves(cube3, api.parse_moves(cube3, "(R U F)' R U F")) == cube3.goal


@pytest.mark.parametrize("text, message", [
    ("R U R' Q", 'alg: unknown move "Q" at column 8'),
    ("[R, U", 'alg: unbalanced "[" at column 1'),
    ("R (U F", 'alg: unbalanced "(" at column 3'),
    ("R U)", 'alg: unbalanced ")" at column 4'),
    ("R, U", 'alg: "," outside "[ ]" at column 2'),
    ("[R U]", 'alg: "[" needs "," (commutator) or ":" (conjugate) before "]" at column 1'),
    ("(R)0", "alg: a repeat count is at least 1 at column 4"),
])
def test_errors_point_at_the_column(cube3, text, message):
    with pytest.raises(NotationError) as info:
        expand(cube3, text)
    assert str(info.value).startswith(message)


def test_a_move_without_inverse_cannot_be_inverted():
    defn = api.load_text("""\
format: puzzlehub/1
name: one-way
moves:
  - {name: A, cycles: [[0, 1, 2]]}
goal: WRB
""")
    with pytest.raises(NotationError, match='move "A" has no inverse'):
        expand(defn, "(A)'")
    assert expand(defn, "(A)2") == ["A", "A"]


def test_huge_expansions_are_refused_before_they_are_built(cube3):
    started = time.perf_counter()
    with pytest.raises(NotationError, match="longer than"):
        expand(cube3, "((((R U)1000)1000)1000)1000")
    with pytest.raises(NotationError, match="longer than"):
        expand(cube3, "R " * (MAX_MOVES + 1))
    with pytest.raises(NotationError, match="nested deeper"):
        expand(cube3, "(" * 10_000 + "R" + ")" * 10_000)
    assert time.perf_counter() - started < 5  # refused, not built: a generous bound for a loaded machine


def test_cli_apply_accepts_alg_notation(cube3, capsys):
    from solver import cli
    assert cli.main(["apply", "cube3", "[R, U]6"]) == 0
    assert "WWWWWWWWW" in capsys.readouterr().out.replace(" ", "").replace("\n", "")
    assert cli.main(["apply", "cube3", "[R, U"]) == 2
    assert 'alg: unbalanced "[" at column 1' in capsys.readouterr().err
