"""KPuzzle JSON and ksolve/twsearch files: reading hand-written files, writing ours, round trips.

The meaning of the formats is checked against a small interpreter written here from the formats'
own documentation, not with the code under test:
- cubing.js kpuzzle (combineTransformationData / applyTransformationDataToKPatternData): slot i takes
  the piece of slot permutation[i]; its orientation becomes orientation[permutation[i]] +
  orientationDelta[i], modulo numOrientations (or the pattern's orientationMod).
- twsearch docs/architecture.md and ksolveformat.txt: 1-based passive numbers; a ksolve move's
  orientation is written at the slot the piece comes from (state delta[i] = move o[perm[i]]).
Sticker view (docs/interop.md): a piece in orientation o shows its facelet t at facelet (t+o) mod k.
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from solver import api
from solver.definition.canonical import content_hash
from solver.errors import DefinitionError

ROOT = Path(__file__).resolve().parents[2]
CUBE3_STATES = 43_252_003_274_489_856_000

# The 3x3x3 in Kociemba's cubie model (corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB DR
# DF DL DB FR FL BL BR; cp[i] is the piece that comes to slot i, co[i] what it gains there), which
# composes exactly as KPuzzle does.
CORNERS = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7], [0] * 8),
    "R": ([4, 1, 2, 0, 7, 5, 6, 3], [2, 0, 0, 1, 1, 0, 0, 2]),
    "F": ([1, 5, 2, 3, 0, 4, 6, 7], [1, 2, 0, 0, 2, 1, 0, 0]),
    "D": ([0, 1, 2, 3, 5, 6, 7, 4], [0] * 8),
    "L": ([0, 2, 6, 3, 4, 1, 5, 7], [0, 1, 2, 0, 0, 2, 1, 0]),
    "B": ([0, 1, 3, 7, 4, 5, 2, 6], [0, 0, 1, 2, 0, 0, 2, 1]),
}
EDGES = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11], [0] * 12),
    "R": ([8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0], [0] * 12),
    "F": ([0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11], [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]),
    "D": ([0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11], [0] * 12),
    "L": ([0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11], [0] * 12),
    "B": ([0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1]),
}
CENTRE = {"U": 0, "L": 1, "F": 2, "R": 3, "B": 4, "D": 5}  # cubing.js's order


def kpuzzle_cube3() -> dict:
    moves = {}
    for m in CORNERS:
        turn = [0] * 6
        turn[CENTRE[m]] = 1
        moves[m] = {
            "CORNERS": {"permutation": CORNERS[m][0], "orientationDelta": CORNERS[m][1]},
            "EDGES": {"permutation": EDGES[m][0], "orientationDelta": EDGES[m][1]},
            "CENTERS": {"permutation": list(range(6)), "orientationDelta": turn},
        }
    return json.loads(json.dumps({  # a deep copy: tests change it
        "name": "3x3x3",
        "orbits": [
            {"orbitName": "EDGES", "numPieces": 12, "numOrientations": 2},
            {"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3},
            {"orbitName": "CENTERS", "numPieces": 6, "numOrientations": 4},
        ],
        "defaultPattern": {
            "EDGES": {"pieces": list(range(12)), "orientation": [0] * 12},
            "CORNERS": {"pieces": list(range(8)), "orientation": [0] * 8},
            "CENTERS": {"pieces": list(range(6)), "orientation": [0] * 6, "orientationMod": [1] * 6},
        },
        "moves": moves,
        "derivedMoves": {"RL": "R L'", "RL3": "(R L')3"},
    }))


def ksolve_move_twists(source, delta):
    """Our hand conversion for the file text: ksolve writes delta[i] at slot source[i]."""
    twists = [0] * len(source)
    for i, j in enumerate(source):
        twists[j] = delta[i]
    return twists


def ksolve_cube2(moves="URFDLB") -> str:
    lines = ["# the 2x2x2, corners only", "Name cube2-ksolve", "Set CORNERS 8 3", "Solved", "CORNERS",
             "1 2 3 4 5 6 7 8", "End"]
    for m in moves:
        source, delta = CORNERS[m]
        lines += ["", f"Move {m}  # a comment after the name", "CORNERS", " ".join(str(j + 1) for j in source),
                  " ".join(map(str, ksolve_move_twists(source, delta))), "End"]
    return "\n".join(lines) + "\n"


# -- a small interpreter of both formats, from their documentation -------------------------------


def parse_ksolve(text: str) -> dict:
    """Sets, solved state and moves of a ksolve file, all in KPuzzle's (0-based, delta) terms."""
    words = [line.split("#")[0].split() for line in text.splitlines()]
    words = [w for w in words if w]
    sets, solved, moves, i = {}, {}, {}, 0
    while i < len(words):
        w = words[i]
        if w[0] == "Set":
            sets[w[1]] = (int(w[2]), int(w[3]))
            i += 1
            continue
        if w[0] in ("Solved", "Move"):
            block, i = {}, i + 1
            while words[i] != ["End"]:
                name = words[i][0]
                n, k = sets[name]
                nums = [int(x) - 1 for x in words[i + 1]]
                i += 2
                twists = [0] * n
                if words[i] != ["End"] and words[i][0] not in sets:
                    twists = [None if x == "?" else int(x) for x in words[i]]
                    i += 1
                block[name] = (nums, twists)
            if w[0] == "Solved":
                solved = block
            else:
                moves[w[1]] = {s: (p, [o[p[j]] for j in range(len(p))]) for s, (p, o) in block.items()}
        i += 1
    return {"sets": sets, "solved": solved, "moves": moves}


def interpret(fmt: str, text: str, sequence: list[str]):
    """(pieces, orientations, moduli) per orbit after the sequence, from the file alone."""
    if fmt == "kpuzzle":
        data = json.loads(text)
        sets = {o["orbitName"]: (o["numPieces"], o["numOrientations"]) for o in data["orbits"]}
        state = {}
        for name, (n, k) in sets.items():
            pat = data["defaultPattern"][name]
            mods = [m or k for m in pat.get("orientationMod", [0] * n)]
            state[name] = (list(pat["pieces"]), list(pat.get("orientation", [0] * n)), mods)
        moves = {m: {o: (v["permutation"], v["orientationDelta"]) for o, v in spec.items()}
                 for m, spec in data["moves"].items()}
    else:
        parsed = parse_ksolve(text)
        sets, moves = parsed["sets"], parsed["moves"]
        state = {}
        for name, (n, k) in sets.items():
            ids, twists = parsed["solved"].get(name, (list(range(n)), [0] * n))
            state[name] = (ids, [t or 0 for t in twists], [1 if t is None else k for t in twists])
    for token in sequence:
        base, times = token, 1
        if token not in moves:  # twsearch's powers: X2, X', X2'
            base = token.rstrip("'").rstrip("0123456789")
            amount = int(token[len(base):].rstrip("'") or 1)
            times = -amount if token.endswith("'") else amount
        for _ in range(times % 1000 if times > 0 else 0):
            state = step(sets, state, moves[base])
        if times < 0:
            order = 1
            while True:  # the move's order, by applying it to the identity
                probe = {s: (list(range(n)), [0] * n, [k] * n) for s, (n, k) in sets.items()}
                for _ in range(order):
                    probe = step(sets, probe, moves[base])
                if all(p == list(range(len(p))) and not any(o) for p, o, _ in probe.values()):
                    break
                order += 1
            for _ in range((order + times) % order):
                state = step(sets, state, moves[base])
    return sets, state


def step(sets, state, move):
    out = {}
    for name, (pieces, orient, mods) in state.items():
        if name not in move:
            out[name] = (pieces, orient, mods)
            continue
        perm, delta = move[name]
        out[name] = ([pieces[perm[i]] for i in range(len(perm))],
                     [(orient[perm[i]] + delta[i]) % mods[perm[i]] for i in range(len(perm))],
                     [mods[perm[i]] for i in range(len(perm))])
    return out


def stickers_of(sets, solved, state, stickers, goal):
    """Our sticker colours for an interpreted state, through the export's sticker numbers."""
    where, base = {}, 0
    for name, (n, k) in sets.items():
        for s in range(n):
            for f in range(k):
                where[name, s, f] = stickers[base + s * k + f]
        base += n * k
    out = [None] * len(goal)
    for name, (n, k) in sets.items():
        ids0, orient0, _ = solved[name]
        home = {}
        for s in range(n):
            home.setdefault(ids0[s], (s, orient0[s]))
        ids, orient, _ = state[name]
        for s in range(n):
            s0, o0 = home[ids[s]]
            for f in range(k):
                t = (f - orient[s]) % k  # the piece's facelet shown at facelet f
                out[where[name, s, f]] = goal[where[name, s0, (t + o0) % k]]
    return tuple(out)


def kpuzzle_symbols(sets, state):
    """The colours our reader gives a file without puzzlehub data: orbit letter, piece, facelet;
    an orbit that counts every orientation modulo m has m stickers per piece."""
    out = []
    for oi, (name, (n, k)) in enumerate(sets.items()):
        ids, orient, mods = state[name]
        width = mods[0] if len(set(mods)) == 1 else k
        for s in range(n):
            for f in range(width):
                t = (f - orient[s]) % mods[s]
                out.append(f"{'abcdefghij'[oi]}{ids[s] + 1}" + (f".{t}" if mods[s] > 1 else ""))
    return tuple(out)


# -- reading hand-written files ------------------------------------------------------------------


def test_kpuzzle_cube3_has_the_cube3_state_count_and_kpuzzle_semantics():
    text = json.dumps(kpuzzle_cube3())
    defn = api.load_text(text)
    assert defn.stickers == 12 * 2 + 8 * 3 + 6  # a centre whose turn does not count is one sticker
    assert api.info(defn)["state_count"] == api.info(api.load("cube3"))["state_count"] == CUBE3_STATES
    assert {"U", "U2", "U'", "R2", "RL", "RL3"} <= set(defn.move_names)  # powers named as twsearch does
    assert "RL2" not in defn.move_names  # derived moves get no powers
    assert api.apply_moves(defn, ["RL3"]) == api.apply_moves(defn, "R L' R L' R L'".split())
    sequence = "R U F' D2 L B' U2 L2".split()
    sets, state = interpret("kpuzzle", text, sequence)
    assert api.apply_moves(defn, sequence) == kpuzzle_symbols(sets, state)


def test_ksolve_cube2_with_orientations_matches_the_kpuzzle_reading():
    text = ksolve_cube2()
    defn = api.load_text(text)
    assert defn.name == "cube2-ksolve" and defn.stickers == 24
    assert api.info(defn)["state_count"] == api.info(api.load("cube2"))["state_count"] == 88_179_840
    # the same corners written KPuzzle's way read to the same moves, though the twists are written
    # at the other end of each move
    data = kpuzzle_cube3()
    data["orbits"] = [o for o in data["orbits"] if o["orbitName"] == "CORNERS"]
    data["defaultPattern"] = {"CORNERS": data["defaultPattern"]["CORNERS"]}
    data["moves"] = {m: {"CORNERS": v["CORNERS"]} for m, v in data["moves"].items()}
    del data["derivedMoves"]
    data["name"] = "cube2-ksolve"
    assert content_hash(api.load_text(json.dumps(data))) == content_hash(defn)
    sequence = "R U' F2 L D' B U R'".split()
    sets, state = interpret("ksolve", text, sequence)
    assert api.apply_moves(defn, sequence) == kpuzzle_symbols(sets, state)


def test_fixed_corner_cube2_has_the_published_count():
    assert api.info(api.load_text(ksolve_cube2("URF")))["state_count"] == 3_674_160  # 7! 3^6


def test_identical_pieces_and_wildcards():
    # Four edges of which two are alike and one whose flip does not count: a ring that flips two of
    # them as it turns, and a swap.
    text = """Name alike
Set E 4 2
Solved
E
1 1 2 3
0 0 ? 0
End
Move T
E
2 3 4 1
1 0 0 1
End
Move S
E
2 1 3 4
End
"""
    defn = api.load_text(text)
    goal = defn.goal
    assert goal[0:2] == goal[2:4] and goal[4] == goal[5] and len(set(goal)) == 5
    assert api.info(defn)["state_count"] == len(interpreted_states("ksolve", text)) == 12  # 4!/2!
    sequence = ["T", "S", "T", "T'", "S", "T"]
    sets, state = interpret("ksolve", text, sequence)
    assert api.apply_moves(defn, sequence) == kpuzzle_symbols(sets, state)


def interpreted_states(fmt: str, text: str) -> set:
    """Every state the file's moves reach, by breadth-first search in the interpreter."""
    sets, start = interpret(fmt, text, [])
    moves = parse_ksolve(text)["moves"] if fmt == "ksolve" else None

    def key(state):
        return tuple((tuple(p), tuple(o)) for p, o, _ in state.values())

    seen, frontier = {key(start)}, [start]
    while frontier:
        nxt = []
        for state in frontier:
            for move in moves.values():
                new = step(sets, state, move)
                if key(new) not in seen:
                    seen.add(key(new))
                    nxt.append(new)
        frontier = nxt
    return seen


# -- writing ours: round trips and both representations of a scramble ----------------------------

EXPORTABLE = ["cube3", "pyraminx", "skewb", "megaminx", "ball-ring", "rex", "fto", "floppy", "loopover-3x3"]


@pytest.mark.parametrize("fmt", ["kpuzzle", "ksolve"])
@pytest.mark.parametrize("name", EXPORTABLE)
def test_round_trip_keeps_the_hash_and_a_scramble_means_the_same(name, fmt):
    defn = api.load(name)
    text = api.export_yaml(defn, fmt)
    again = api.load_text(text)
    assert content_hash(again) == content_hash(defn)
    sequence = random.Random(name).choices(defn.move_names, k=30)
    if fmt == "kpuzzle":
        meta = json.loads(text)["puzzlehub"]
    else:
        meta = {line.split()[2]: line.split()[3:] for line in text.splitlines() if line.startswith("# puzzlehub ")}
    sets, state = interpret(fmt, text, sequence)
    _, solved = interpret(fmt, text, [])
    stickers = [int(x) for x in meta["stickers"]]
    assert api.apply_moves(defn, sequence) == stickers_of(sets, solved, state, stickers, defn.goal)


def test_written_files_use_pieces_with_orientations_and_only_base_moves():
    text = api.export_yaml(api.load("cube3"), "ksolve")
    assert "Set CORNERS 8 3" in text and "Set EDGES 12 2" in text
    assert [line.split()[1] for line in text.splitlines() if line.startswith("Move ")] == list("UDLRFB")
    data = json.loads(api.export_yaml(api.load("megaminx"), "kpuzzle"))
    assert {o["orbitName"]: o["numOrientations"] for o in data["orbits"]} == {"CORNERS": 3, "EDGES": 2, "FIXED": 1}
    assert len(data["moves"]) == 12


def test_a_file_without_our_comments_reads_as_the_same_puzzle():
    defn = api.load("skewb")
    text = "\n".join(line for line in api.export_yaml(defn, "ksolve").splitlines() if not line.startswith("#"))
    plain = api.load_text(text)
    assert plain.stickers == defn.stickers
    assert api.info(plain)["state_count"] == api.info(defn)["state_count"]


@pytest.mark.parametrize("name, why", [
    ("cube2", "one solved state"),  # the whole cube turns: 24 solved states
    ("sliding-3x3", "no guarded moves"),
])
def test_what_cannot_be_written(name, why):
    for fmt in ("kpuzzle", "ksolve"):
        with pytest.raises(DefinitionError, match=why):
            api.export_yaml(api.load(name), fmt)


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("Name x\nSet A 3 2\nSolved\nA\n1 2\nEnd\n", "line 5: Solved, set A has 2 numbers, expected 3"),
    ("Name x\nSet A 2 2\nSolved\nEnd\nMove X\nA\n2 1\n0 5\nEnd\n", "line 8: Move X, set A: orientation 5 is out of range 0..1"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nMove X\nA\n1 1\nEnd\n", "line 7: set A: a move's numbers must be 1..2, each once"),
    ("Name x\nSet A 2 1\nSolved\nA\n1 3\nEnd\nMove X\nA\n2 1\nEnd\n", "line 5: Solved, set A: piece numbers must run from 1 without gaps"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nMove X\nB\n2 1\nEnd\n", "line 6: Move X: expected a set name or End"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nMove X\nA\n2 1\n", "end of file: expected End closing Move X (line 5)"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nIllegal\nEnd\n", "line 5: Illegal is not supported"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nMove X\nA\n2 x\nEnd\n", "line 7: Move X, set A: 'x' is not a whole number"),
    ("Name x\nSet A 2 1\nSolved\nEnd\nMove X\nA\n1 2\nEnd\n", "move X: moves nothing"),
])
def test_malformed_ksolve_is_refused_with_the_line(text, message):
    with pytest.raises(DefinitionError) as info:
        api.load_text(text)
    assert message in str(info.value)


def _broken(change):
    data = kpuzzle_cube3()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["moves"]["R"]["EDGES"].update(permutation=[0] * 12), "moves.R.EDGES.permutation: not a permutation"),
    (lambda d: d["moves"]["U"]["CORNERS"]["orientationDelta"].__setitem__(2, 3),
     "moves.U.CORNERS.orientationDelta[2]: expected a whole number 0..2, got 3"),
    (lambda d: d["defaultPattern"].pop("EDGES"), "defaultPattern.EDGES: missing"),
    (lambda d: d["orbits"][1].update(numPieces="8"), "orbits[1].numPieces: expected a whole number, got a string"),
    (lambda d: d["moves"]["U"].update(WINGS={}), "moves.U.WINGS: no such orbit"),
    (lambda d: d["derivedMoves"].update(Q="R Q2"), "derivedMoves.Q: 'Q2' is not one of the moves"),
    (lambda d: d.update(colours=[]), "colours: unknown key"),
])
def test_malformed_kpuzzle_is_refused_with_the_json_path(change, message):
    with pytest.raises(DefinitionError) as info:
        api.load_text(_broken(change))
    assert message in str(info.value)


def test_cli_import_and_export(tmp_path):
    def puzzle(*args):
        return subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)

    out = puzzle("export", "pyraminx", "--format", "ksolve")
    assert out.returncode == 0 and "Set EDGES 6 2" in out.stdout
    (tmp_path / "p.tws").write_text(out.stdout)
    native = puzzle("import", str(tmp_path / "p.tws"))
    assert native.returncode == 0
    assert content_hash(api.load_text(native.stdout)) == content_hash(api.load("pyraminx"))
    (tmp_path / "cube.txt").write_text(json.dumps(kpuzzle_cube3()))
    assert "format: puzzlehub/1" in puzzle("import", str(tmp_path / "cube.txt"), "--format", "kpuzzle").stdout
    (tmp_path / "bad.def").write_text("Name x\nSet A 3 2\nSolved\nA\n1 2\nEnd\n")
    bad = puzzle("import", str(tmp_path / "bad.def"))
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    assert "line 5" in bad.stderr and "Traceback" not in bad.stderr
    refused = puzzle("export", "sliding-3x3", "--format", "kpuzzle")
    assert refused.returncode == 2 and "guarded" in refused.stderr


def test_our_data_must_agree_with_the_pieces():
    text = api.export_yaml(api.load("cube3"), "ksolve")
    lines = text.splitlines()
    goal_line = next(i for i, line in enumerate(lines) if line.startswith("# puzzlehub goal "))
    lines[goal_line] = "# puzzlehub goal " + " ".join(["W"] * 54)  # every piece alike: not what the file says
    with pytest.raises(DefinitionError, match="puzzlehub goal: its colours do not match"):
        api.load_text("\n".join(lines))
    stickers_line = goal_line - 1
    lines = text.splitlines()
    lines[stickers_line] = "# puzzlehub stickers " + " ".join(["0"] * 54)
    with pytest.raises(DefinitionError, match="puzzlehub stickers: expected each of 0..53 once"):
        api.load_text("\n".join(lines))
