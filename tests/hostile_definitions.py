"""Hostile puzzle definitions as hypothesis strategies, for the reader's tests (tests/solver) and the
site's (tests/site): deep nesting, huge numbers, any Unicode (lone surrogates too), bytes that are
not UTF-8, YAML's tricks (anchors, aliases, tags, merge keys, several documents, keys that are
collections) and documents at the size limit, alone or spliced into real definitions of every format
we read."""

from hypothesis import strategies as st

from solver import api
from solver.definition import safe_yaml


REAL = {fmt: api.export_yaml(api.load("floppy"), fmt) for fmt in ("native", "seed", "kpuzzle", "ksolve")}


# --- the pieces hostile documents are made of --------------------------------------------------

any_unicode = st.text(st.characters(exclude_categories=()), max_size=40)  # surrogates and controls too
huge_number = st.one_of(
    st.integers(1, 6_000).map(lambda n: "9" * n),
    st.integers(1, 6_000).map(lambda n: "-1" + "0" * n),
    st.sampled_from(["1e999", "-1e999", ".inf", "-.inf", ".nan", "1e-999", "0x" + "f" * 5000, "0o7777", "1_000",
                     "190:20:30", "2001-02-30", "0000-01-01", "9" * 4300, "9" * 4301, "1." + "0" * 5000]),
)


@st.composite
def nested(draw):
    depth = draw(st.integers(15, 400))
    kind = draw(st.sampled_from(["flow list", "flow map", "json", "block list", "block map"]))
    if kind == "flow list":
        return "[" * depth + "]" * depth
    if kind == "flow map":
        return "{a: " * depth + "1" + "}" * depth
    if kind == "json":
        return '{"a": ' * depth + "[]" + "}" * depth
    if kind == "block list":
        return "\n" + "".join("  " * i + "-\n" for i in range(depth)) + "  " * depth + "- x"
    return "\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(depth)) + "  " * (depth + 1) + "x"


yaml_trick = st.sampled_from([
    "&a [x]", "*a", "!!python/object:os.system x", "!!binary aGk=", "!custom x", "!!set {a, b}",
    "{<<: {a: 1}}", "\n  <<: {a: 1}", "x\n---\nname: other", "\n? [a, b]\n: c", "{? {a: 1} : b}",
    "[&x a, *x, *x]", "|\n  block\n  text", ">-\n  folded", "'quoted ''text'''", '"\\ud800"', '"\\x00"',
    "%YAML 1.1", "~", "=", "yes", "{a: 1, a: 2}", "[a, b", "{a", "]", "\t", "- x\n- y", "@", "`",
])


@st.composite
def alias_bomb(draw):
    levels = draw(st.integers(2, 12))
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


hostile_value = st.one_of(huge_number, nested(), yaml_trick, any_unicode)


@st.composite
def spliced(draw):
    """A real definition (each format we read) with one of its lines, or a word in it, replaced by
    something hostile."""
    lines = REAL[draw(st.sampled_from(sorted(REAL)))].splitlines()
    at = draw(st.integers(0, len(lines) - 1))
    value = draw(hostile_value)
    words = lines[at].split(" ")
    if draw(st.booleans()):
        lines[at] = f"{words[0]} {value}"
    else:
        words[draw(st.integers(0, len(words) - 1))] = value
        lines[at] = " ".join(words)
    return "\n".join(lines) + "\n"


@st.composite
def not_utf8(draw):
    """A real definition with bytes that are not UTF-8 somewhere in it, or bytes alone."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    data = REAL[draw(st.sampled_from(sorted(REAL)))].encode()
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])) + data[at:]


@st.composite
def near_the_limit(draw):
    """Documents near MAX_BYTES: many small values in each format's shape, just over or under."""
    unit = draw(st.sampled_from([
        "  - {name: A, cycles: [[0, 1]]}\n", "- 0\n", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], ", "W ", "x: y\n", "a" * 100,
        '{"permutation": [0, 1], "orientationDelta": [0, 0]}, ', "Move R\nA\n2 1\nEnd\n",
    ]))
    head = draw(st.sampled_from(["format: puzzlehub/1\nname: big\nmoves:\n", "goal: ", "moves: [", "",
                                 '{"name": "k", "orbits": ', "Name big\nSet A 2 1\n"]))
    over = draw(st.sampled_from([-1000, 0, 1000]))
    return head + unit * ((safe_yaml.MAX_BYTES + over - len(head)) // len(unit))


hostile_text = st.one_of(spliced(), hostile_value.map(lambda v: f"name: {v}\n"), nested(), alias_bomb(), any_unicode,
                         yaml_trick)
