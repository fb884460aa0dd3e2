"""Hostile definitions (tests/hostile_definitions.py) read by the solver's reader and by the `puzzle`
command.

Each is read or refused with a DefinitionError of one line (the command: exit 2 and that line on
stderr); nothing else may escape. How fast refusals are is bench/bench_definition_fuzz.py's figure;
HANG only catches a reader that hangs.
"""

import time

import pytest
from hostile_definitions import REAL, hostile_text, near_the_limit, nested, not_utf8, spliced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import cli
from solver.definition import safe_yaml
from solver.definition.formats import load_text
from solver.errors import DefinitionError

HANG = 30.0  # seconds; a busy machine reads a 2 MB document in a few
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def read(text):
    """The definition, or the refusal's message; fails on anything else."""
    started = time.monotonic()
    try:
        result = load_text(text)
    except DefinitionError as exc:
        result = str(exc)
        assert result and "\n" not in result, result
    assert time.monotonic() - started < HANG
    return result


# --- the reader --------------------------------------------------------------------------------

@FUZZ
@given(text=hostile_text)
def test_a_hostile_text_is_read_or_refused_in_one_line(text):
    read(text)


@FUZZ
@given(data=not_utf8())
def test_bytes_that_are_not_utf8_are_refused_naming_the_byte(data):
    result = read(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        assert result == f"definition is not UTF-8 text (byte {exc.start})"


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=near_the_limit())
def test_a_document_near_the_size_limit_is_read_or_refused(text):
    read(text)


@pytest.mark.parametrize("text, message", [
    ("format: puzzlehub/1\nname: x\nstickers: " + "9" * 5000 + "\n", "line 3: '99999999999999999999'... (5,000 characters) "
                                                                    "is not a readable int"),
    ("name: x\nmoves: [1]\nmade: 2001-02-30\n", "line 3: '2001-02-30' is not a readable timestamp"),
    ("a: {x: 1}\nb:\n  <<: {y: 2}\n", "line 3: YAML merge keys (<<) are not allowed"),
    ("? [a, b]\n: c\n", "line 1: a mapping's keys must be plain values"),
    ("name: a\n---\nname: b\n", "line 2: more than one YAML document"),
    ("name: \ud800\n", "definition is not Unicode text (character 7 is half a pair)"),
    # a piece number of a Solved block made a list as long as itself (22 GB for 10^9 and more)
    ("Name x\nSet A 2 1\nSolved\nA\n1 999999999999\nEnd\nMove M\nA\n2 1\nEnd\n",
     "line 5: Solved, set A: piece numbers must run from 1 without gaps"),
    # past 4,300 digits int() itself refused with a ValueError (a traceback from the command)
    ("Name x\nSet A 2 1\nSolved\nA\n" + "9" * 4301 + " 2\nEnd\nMove M\nA\n2 1\nEnd\n",
     "line 5: Solved, set A: 99999999999999999999... is far too large a number"),
])
def test_what_the_fuzzing_found_is_refused_by_line(text, message):
    assert read(text).startswith(message)


def test_the_reader_gives_what_yaml_gives_for_every_exported_definition():
    import yaml

    for text in REAL.values():
        assert safe_yaml.parse(text) == yaml.safe_load(text)


# --- the command -------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(content=st.one_of(not_utf8(), spliced().map(str.encode), nested().map(lambda t: t.encode())))
def test_the_command_exits_2_with_one_line_on_a_hostile_file(content, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("hostile") / "puzzle.yaml"
    path.write_bytes(content)
    capsys.readouterr()
    code = cli.main(["show", str(path)])
    out, err = capsys.readouterr()
    if code == 0:
        assert out and not err
    else:
        assert code == 2 and err.startswith("puzzle: error: ") and err.count("\n") == 1, (code, err)
