"""A cube is a cube whatever moves it is written with: NxNxN cubes written with single-slice moves
(as permutation-array formats write them), faces only, or wide and slice turns mixed, in a shuffled
sticker numbering with made-up move names, go to the specialized solvers and are answered in their
own moves. The cubes come from an independent generator (outside_puzzles.slice_cube: geometry of its
own, one move per slice); every answer is replayed on the user's definition."""

from __future__ import annotations

import random
import time

import pytest
from outside_puzzles import slice_cube

from solver import api, catalog, perm
from solver.analysis.scramble import random_state
from solver.definition.formats import load_data
from solver.engine import apply_moves
from solver.errors import StateError
from solver.search.budget import Budget
from solver.simplify import simplify
from solver.special import families, layered_cube
from solver.special.bigcube.model import BigCube


def written(n: int, seed: int, style: str = "slices", inverses: bool = True, without: str = ""):
    """The NxNxN cube written in `style`: "slices" (one move per layer), "faces" (outer layers only),
    "mixed" (faces; wide turns from one side of each axis, single slices on the other side and the
    middle), "half" (faces with ' and 2, and slices), "turned" (faces, the inner layers but the middle
    one, and whole-cube turns); moves renamed at random and shuffled. `without`
    leaves out one layer's move (e.g. "x1")."""
    base = slice_cube(n, seed=seed)
    layer = {m.name: m.perm for m in base.moves if not m.name.startswith("-")}  # x0 .. z{n-1}
    moves = {}
    for axis in "xyz":
        turns = [layer[f"{axis}{k}"] for k in range(n)]
        if style in ("slices", "half"):
            chosen = {f"{axis}{k}": t for k, t in enumerate(turns)} if style == "slices" else \
                {f"{axis}{k}": t for k, t in enumerate(turns) if k in (0, n - 1) or n % 2 and k == n // 2}
        elif style == "faces":
            chosen = {f"{axis}0": turns[0], f"{axis}{n - 1}": turns[-1]}
        elif style == "turned":
            chosen = {f"{axis}{k}": t for k, t in enumerate(turns) if not (n % 2 and k == n // 2)}
            chosen[f"{axis}-whole"] = perm.compose(*turns)
        else:
            chosen = {f"{axis}w{d}": perm.compose(*turns[:d]) for d in range(1, n // 2 + 1)}
            chosen.update({f"{axis}{k}": turns[k] for k in range(n // 2, n)})
        chosen.pop(without, None)
        for name, p in chosen.items():
            moves[name] = p
            if inverses:
                moves[name + "'"] = perm.inverse(p)
            if style == "half":
                moves[name + "2"] = perm.power(p, 2)
    rng = random.Random(seed)
    names = rng.sample(range(10 ** 6), len(moves))
    order = list(moves)
    rng.shuffle(order)
    return load_data({"format": "puzzlehub/1", "name": f"{style}-{n}", "goal": list(base.goal),
                      "moves": [{"name": f"m{names[i]}", "cycles": perm.cycles(moves[key])}
                                for i, key in enumerate(order)]})


def solved_replayed(defn, seed: int, scramble: int = 60) -> dict:
    rng = random.Random(seed)
    state = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(scramble)])
    out = api.solve(defn, state)
    assert out["solution"] is not None, out
    assert apply_moves(defn, out["solution"], state) in defn.goals  # replayed here, not only by the api
    return out


@pytest.mark.parametrize("n", range(2, 9))
def test_slice_move_cubes_go_to_the_special_family_and_replay(n):
    defn = written(n, seed=100 + n)
    out = solved_replayed(defn, seed=n, scramble=5 if n == 2 else 15 * n)
    if n == 2:  # the generic engine serves 2x2x2s, the catalog's too (a near state: no 88M-entry table here)
        assert out["optimal"]
    else:
        assert out["method"] == ("special:cube3" if n == 3 else "special:bigcube")


@pytest.mark.parametrize("n", [*range(2, 14), 19])
def test_slice_move_cubes_from_random_states_within_a_time_limit(n):
    """Every size from 2 to 13 and a 19x19x19 (the tables of each size are built on its first
    solve, within the solve's time). The 19x19x19's state is a long random walk: a uniform one
    needs the whole group's stabiliser chain, 25 s of sifting for its 2,166 stickers."""
    defn = written(n, seed=200 + n)
    if n < 19:
        state, _ = random_state(defn, random.Random(n))
    else:
        rng = random.Random(n)
        state = apply_moves(defn, [rng.choice(defn.move_names) for _ in range(40 * n)])
    started = time.monotonic()
    # a 12x12x12's first solve took 61 s under load 9; up to 7 the rotations would use 0.7 of 120 s
    out = api.solve(defn, state, time_limit=30 if n <= 7 else 120)
    assert out["solution"] is not None, out
    assert apply_moves(defn, out["solution"], state) in defn.goals
    assert time.monotonic() - started <= 180  # catches hangs; figures in bench/bench_bigcube.py


@pytest.mark.parametrize("n, style, inverses", [(3, "faces", False), (5, "mixed", True), (6, "mixed", False),
                                                (4, "slices", False), (3, "turned", True), (5, "turned", False)])
def test_faces_only_mixed_and_one_way_move_sets(n, style, inverses):
    out = solved_replayed(written(n, seed=7 * n, style=style, inverses=inverses), seed=n)
    assert out["method"] == ("special:cube3" if n == 3 else "special:bigcube")


def test_a_3x3x3_with_slices_and_half_turns_gets_a_two_phase_answer():
    defn = written(3, seed=5, style="half")
    lengths = [solved_replayed(defn, seed=s, scramble=40)["length"] for s in range(3)]
    assert max(lengths) <= 22, lengths  # 20 face turns at most, and the middle layers turned home


def test_wide_turns_cost_one_move_each():
    """A user with wide turns gets them used: on each axis, the catalog's wide turns from one side
    are one user move each (not one per slice), and face turns are one move."""
    defn = written(5, seed=3, style="mixed")
    cube = layered_cube.recognize(defn)
    length = lambda name: len(simplify(defn, cube.user_moves([name])))  # noqa: E731 (as solver.api.solve does)
    for face, opposite in ("RL", "UD", "FB"):
        assert length(face) == length(opposite + "'") == 1
        assert min(length(face + "w"), length(opposite + "w")) == 1


def test_an_odd_cube_without_one_middle_layer_is_still_a_cube():
    """The other two middle layers still turn the face centres anywhere."""
    defn = written(5, seed=11, without="x2")
    assert solved_replayed(defn, seed=1)["method"] == "special:bigcube"


def test_cubes_that_are_not_layer_cubes_are_not_recognized():
    cube4 = written(4, seed=1, style="faces")  # faces only: the inner layers never turn alone
    assert layered_cube.recognize(cube4) is None
    for n, without in ((5, "x1"), (4, "y1"), (6, "z0")):  # a layer no move turns
        assert layered_cube.recognize(written(n, seed=n, without=without)) is None
    slices = written(4, seed=2)
    extra = [{"name": m.name, "cycles": perm.cycles(m.perm)} for m in slices.moves]
    extra.append({"name": "cycle", "cycles": [[0, 1, 2]]})  # a move that turns no layer
    other = load_data({"format": "puzzlehub/1", "name": "x", "goal": list(slices.goal), "moves": extra})
    assert layered_cube.recognize(other) is None
    assert families.find(other) is None or families.find(other).family != "bigcube"


@pytest.mark.parametrize("n", [4, 5])
def test_catalog_turns_read_as_layer_turns(n):
    """The translation's reading of SiGN names agrees with the catalog model's moves."""
    frame = layered_cube.frame(n)
    for name, p in BigCube(n).named_moves.items():
        axis, vector = layered_cube.catalog_turn(n, name)
        assert tuple(layered_cube.vector_perm(frame, axis, vector).tolist()) == tuple(p), name


def test_a_33x33x33_with_slice_moves_is_placed_on_the_catalog_cube():
    defn = slice_cube(33, seed=33)
    cube = layered_cube.recognize(defn)
    frame = layered_cube.frame(33)
    assert cube is not None and cube.to_catalog(defn.goal) == frame.goal
    for name in ("R", "5Uw'", "17Fw2"):
        turned = apply_moves(defn, cube.user_moves([name]))
        axis, vector = layered_cube.catalog_turn(33, name)
        assert cube.to_catalog(turned) == "".join(perm.apply(layered_cube.vector_perm(frame, axis, vector), frame.goal))


def test_the_catalogs_own_8x8x8_goes_to_the_reduction_too():
    out = solved_replayed(load_data(catalog.build("cube8")), seed=8, scramble=40)
    assert out["method"] == "special:bigcube"


def test_a_state_with_a_colour_the_goal_lacks_is_a_state_error():
    defn = written(4, seed=9)
    bad = list(defn.goal)
    bad[5] = "no such colour"
    with pytest.raises(StateError, match="sticker 5"):
        families.find(defn).solve(bad, Budget(time_limit=5))
