"""The `puzzle` command, run as a user runs it: a separate process, exit codes, stdout and stderr."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from solver import api, perm
from solver.definition.formats import load_text
from solver.engine import apply_moves, verify

ROOT = Path(__file__).resolve().parents[2]


def puzzle(*args, check=True):
    proc = subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"puzzle {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc


def assert_one_line_error(proc, fragment):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert fragment in lines[0], lines[0]


def test_apply_u_on_the_solved_cube():
    out = puzzle("apply", "cube3", "U").stdout.strip()
    assert out == "WWWWWWWWWGGGRRRBBBOOOOOOGGGRRRBBBOOOGGGRRRBBBYYYYYYYYY"


def test_info_json_keys_and_floppy_count():
    facts = json.loads(puzzle("info", "floppy", "--json").stdout)
    for key in ("name", "stickers", "moves", "orbits", "group_order", "state_count", "state_count_exact", "hash"):
        assert key in facts
    assert facts["state_count"] == 192 and facts["state_count_exact"] is True
    assert facts["stickers"] == 30


def test_solve_replays_and_is_optimal_on_floppy():
    result = json.loads(puzzle("solve", "floppy", "--scramble", "R U L D R U", "--optimal", "--json").stdout)
    assert result["verified"] and result["optimal"]
    state = puzzle("apply", "floppy", "R U L D R U").stdout.strip()
    assert puzzle("verify", "floppy", "--state", state, "--solution", " ".join(result["solution"])).returncode == 0
    assert result["length"] <= 6


def renumbered(text: str, seed: int) -> tuple[str, list[int]]:
    """The same seed-format puzzle with stickers renumbered at random and moves renamed."""
    defn = load_text(text)
    rng = random.Random(seed)
    relabel = list(range(defn.stickers))
    rng.shuffle(relabel)
    goal = [None] * defn.stickers
    for i, c in enumerate(defn.goal):
        goal[relabel[i]] = c
    turns = []
    for k, m in enumerate(defn.moves):
        p = [0] * defn.stickers
        for i, x in enumerate(m.perm):
            p[relabel[i]] = relabel[x]
        turns.append({"name": f"T{k}", "value": perm.closed_array(p)})
    return yaml.safe_dump({"name": "renumbered", "turnSet": {"baseTurns": turns}, "goal": {"finalState": goal}}), relabel


def test_user_definition_with_other_numbering_gets_same_counts_and_lengths(tmp_path, ball_ring_text):
    original = tmp_path / "ring.yaml"
    original.write_text(ball_ring_text)
    text, relabel = renumbered(ball_ring_text, seed=7)
    user = tmp_path / "user.yaml"
    user.write_text(text)
    a = json.loads(puzzle("info", str(original), "--json").stdout)
    b = json.loads(puzzle("info", str(user), "--json").stdout)
    assert a["state_count"] == b["state_count"] and a["group_order"] == b["group_order"]
    assert a["hash"] != b["hash"]
    scramble = "L R L' R L L R"
    user_scramble = " ".join({"L": "T0", "R": "T1", "L'": "T2", "R'": "T3"}[m] for m in scramble.split())
    ra = json.loads(puzzle("solve", str(original), "--scramble", scramble, "--optimal", "--json").stdout)
    rb = json.loads(puzzle("solve", str(user), "--scramble", user_scramble, "--optimal", "--json").stdout)
    assert ra["verified"] and rb["verified"] and ra["length"] == rb["length"]
    user_defn = load_text(text)
    assert verify(user_defn, apply_moves(user_defn, user_scramble.split()), rb["solution"])


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("info", "no-such-puzzle"), "no-such-puzzle"),
        (("apply", "cube3", "U X"), 'unknown move "X" at column 3'),
        (("solve", "floppy", "--state", "WW"), "state has 2 stickers, the puzzle has 30"),
        (("solve", "floppy"), "give exactly one of --scramble"),
        (("solve", "floppy", "--scramble", "R", "--time-limit", "abc"), "--time-limit: not a number of seconds"),
        # nan passed a `<= 0` check and limited nothing; inf is no limit either (leave it out)
        (("solve", "floppy", "--scramble", "R", "--time-limit", "nan"), "--time-limit: must be a positive number"),
        (("solve", "floppy", "--scramble", "R", "--time-limit", "inf"), "--time-limit: must be a positive number"),
        (("solve", "floppy", "--scramble", "R", "--time-limit", "0"), "--time-limit: must be a positive number"),
        (("discover", "floppy", "--time-limit", "nan"), "--time-limit: must be a positive number"),
        (("scramble", "floppy", "--moves", "100000000"), "moves: give a number of moves from 0 to 50,000"),
        (("show", "missing.yaml"), "missing.yaml: no such file"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(args, fragment):
    assert_one_line_error(puzzle(*args, check=False), fragment)


def test_unreachable_state_is_refused_with_a_reason():
    solved = puzzle("apply", "cube3", "U U'").stdout.strip()
    # Swap two stickers of one corner: a twist no move sequence makes.
    s = list(solved)
    s[8], s[14] = s[14], s[8]
    proc = puzzle("solve", "cube3", "--state", "".join(s), check=False)
    assert_one_line_error(proc, "cannot be solved")


def test_show_round_trips_through_both_formats(tmp_path):
    native = puzzle("show", "floppy").stdout
    seed = puzzle("show", "floppy", "--format", "seed").stdout
    (tmp_path / "n.yaml").write_text(native)
    (tmp_path / "s.yaml").write_text(seed)
    h = {json.loads(puzzle("info", str(tmp_path / f), "--json").stdout)["hash"] for f in ("n.yaml", "s.yaml")}
    h.add(json.loads(puzzle("info", "floppy", "--json").stdout)["hash"])
    assert len(h) == 1


def test_verify_says_not_solved_with_exit_1():
    state = puzzle("apply", "floppy", "R U").stdout.strip()
    proc = puzzle("verify", "floppy", "--state", state, "--solution", "R", check=False)
    assert proc.returncode == 1 and "not solved" in proc.stdout


def test_scramble_is_reproducible_and_replays():
    a = json.loads(puzzle("scramble", "cube3", "--moves", "20", "--seed", "4", "--json").stdout)
    b = json.loads(puzzle("scramble", "cube3", "--moves", "20", "--seed", "4", "--json").stdout)
    assert a == b and len(a["moves"]) == 20
    assert puzzle("apply", "cube3", " ".join(a["moves"])).stdout.strip() == a["state"]
    r = json.loads(puzzle("scramble", "floppy", "--random-state", "--seed", "1", "--json").stdout)
    assert r["moves"] is None and len(r["state"]) == 30


def test_draw_uses_the_layout():
    lines = puzzle("draw", "cube3").stdout.splitlines()
    assert len(lines) == 9 and lines[0].strip() == "W W W"


def test_solve_json_without_a_solution_exits_1_and_says_why():
    # A plain breadth-first search of a 12-move 3x3x3 cannot finish in 50 ms.
    args = ("solve", "cube3", "--method", "bfs", "--time-limit", "0.05", "--scramble", "R U F L D B R' U' F' L' D' B'")
    with_json = puzzle(*args, "--json", check=False)
    assert with_json.returncode == 1, with_json.stderr
    result = json.loads(with_json.stdout)
    assert result["solution"] is None and result["reason"] == "time limit"
    plain = puzzle(*args, check=False)
    assert plain.returncode == 1 and "time limit" in plain.stdout


def test_info_loads_no_compiled_kernels_and_remembers_its_counts(tmp_path):
    """`puzzle info` starts without numba (a third of a second) and reads the group's order and state
    count from the cache folder the second time (the stabiliser chain is not built again)."""
    script = ("import sys, json; from solver import cli; from solver.analysis import chain; "
              "built = []; init = chain.StabChain.__init__; "
              "chain.StabChain.__init__ = lambda self, *a, **k: (built.append(1), init(self, *a, **k))[1]; "
              "cli.main(['info', 'cube3', '--json']); print(json.dumps(['numba' in sys.modules, len(built)]))")
    env = {**os.environ, "PUZZLEHUB_CACHE": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=300) for _ in range(2)]
    (first, second) = [json.loads(r.stdout.strip().splitlines()[-1]) for r in runs]
    assert json.loads(runs[0].stdout.splitlines()[0]) == json.loads(runs[1].stdout.splitlines()[0])
    assert first[0] is False and second[0] is False
    assert first[1] > 0 and second[1] == 0


def _again(args: list[str], env: dict) -> tuple[dict, bool]:
    """`puzzle ARGS` run again in a new process: its JSON answer, and whether numba was imported."""
    script = f"import sys, json; from solver import cli; cli.main({args!r}); print(json.dumps('numba' in sys.modules))"
    again = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    answer, loaded = [json.loads(line) for line in again.stdout.strip().splitlines()[-2:]]
    return answer, loaded


def test_a_repeated_solve_walks_the_cached_table_without_numba(tmp_path):
    """With the complete distance table built (compiled) in the cache folder, a solve in a new
    process walks it as plain Python: numba (half a second to load) is never imported, and the
    answer is as short as the search's and replays."""
    scramble = "U R' L B U' R B' L' U R"
    env = {**os.environ, "PUZZLEHUB_CACHE": str(tmp_path)}
    args = ["solve", "pyraminx", "--scramble", scramble, "--optimal", "--json"]
    for command in (["pdb", "build", "pyraminx"], [*args, "--method", "bidir"]):
        first = subprocess.run([sys.executable, "-m", "solver", *command], cwd=ROOT, capture_output=True, text=True,
                               env=env, timeout=300)
        assert first.returncode == 0, first.stderr
    answer, loaded = _again(args, env)
    assert loaded is False
    assert answer["method"] == "table" and answer["verified"] and answer["optimal"]
    assert answer["length"] == json.loads(first.stdout)["length"]
    state = puzzle("apply", "pyraminx", scramble).stdout.strip()
    assert puzzle("verify", "pyraminx", "--state", state, "--solution", " ".join(answer["solution"])).returncode == 0


def test_a_tiny_puzzles_first_solve_builds_its_table_without_numba(tmp_path):
    """A puzzle of a few hundred states (the floppy cube: 192) builds its complete table as plain
    Python on an empty cache, never importing numba; the answer is as short as a bidirectional
    search's in another process and replays."""
    scramble = "R U L D R U"
    args = ["solve", "floppy", "--scramble", scramble, "--optimal", "--json"]
    answer, loaded = _again(args, {**os.environ, "PUZZLEHUB_CACHE": str(tmp_path / "empty")})
    assert loaded is False
    assert answer["method"] == "table" and answer["verified"] and answer["optimal"]
    other = subprocess.run([sys.executable, "-m", "solver", *args, "--method", "bidir"], cwd=ROOT, capture_output=True,
                           text=True, env={**os.environ, "PUZZLEHUB_CACHE": str(tmp_path / "other")}, timeout=300)
    assert answer["length"] == json.loads(other.stdout)["length"]
    state = puzzle("apply", "floppy", scramble).stdout.strip()
    assert puzzle("verify", "floppy", "--state", state, "--solution", " ".join(answer["solution"])).returncode == 0


def test_a_repeated_optimal_search_runs_in_plain_python_without_numba(tmp_path):
    """A puzzle without a complete table (the dino cube): the first solve searches compiled and
    leaves its move tables in the cache folder; the next process searches in plain Python, never
    importing numba, and finds an answer as short, that replays."""
    state = json.dumps(list(api.scramble(api.load("dino"), random_state=True, seed=5)["state"]))
    env = {**os.environ, "PUZZLEHUB_CACHE": str(tmp_path)}
    args = ["solve", "dino", "--state", state, "--optimal", "--json"]
    first = subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=300)
    assert first.returncode == 0, first.stderr
    answer, loaded = _again(args, env)
    assert loaded is False
    assert answer["method"] == "ida" and answer["verified"] and answer["optimal"]
    assert answer["length"] == json.loads(first.stdout)["length"]
    assert verify(api.load("dino"), tuple(json.loads(state)), answer["solution"])
