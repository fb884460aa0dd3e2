"""Solving through solver.search.engine: optimal against the plain BFS, every answer replays,
budgets and cancels stop the search."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.engine import Codec, apply_moves, verify
from solver.errors import PuzzleError, UnreachableError
from solver.search import bfs, engine
from solver.search.budget import Budget
from solver.search.model import search_model

from search_puzzles import cube2, sliding


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    return tmp_path


def scramble(defn, rng, n):
    state = defn.goal
    for _ in range(n):
        options = [m for m in defn.move_names if defn.move(m).case_for(state) is not None]
        state = apply_moves(defn, [rng.choice(options)], state)
    return state


def bfs_length(defn, state):
    codec = Codec(defn)
    moves, _ = bfs.bidirectional_bfs(codec, codec.encode(state), Budget())
    return len(moves)


PUZZLES = {
    "cube2-UR": lambda seed: cube2("UR", symmetric=False, renumber=seed),
    "cube2-URF-quarter": lambda seed: cube2("URF", symmetric=False, renumber=seed, powers=(1, 3)),
    "sliding-2x3": lambda seed: sliding(2, 3, renumber=seed),
    "sliding-3x3": lambda seed: sliding(3, 3, renumber=seed),
}


@settings(max_examples=16, deadline=None)
@given(st.sampled_from(sorted(PUZZLES)), st.sampled_from(["table", "ida", "astar", "bidir", None]), st.integers(0, 10**6))
def test_optimal_against_bfs(name, method, seed):
    rng = random.Random(seed)
    defn, pieces = PUZZLES[name](seed % 5)
    search_model(defn, pieces)
    state = scramble(defn, rng, rng.randint(0, 25))
    result = engine.solve(defn, state, optimal=True, method=method)
    assert result.optimal and result.complete
    assert verify(defn, state, result.moves)
    assert len(result.moves) == bfs_length(defn, state)


def test_ida_with_pattern_databases_only(monkeypatch):
    """A budget too small for the full table: IDA* over per-chunk databases is still optimal."""
    monkeypatch.setenv("PUZZLEHUB_PDB_BUDGET", "200K")
    defn, pieces = cube2("URF", symmetric=False, renumber=9)
    model = search_model(defn, pieces)
    from solver.search.plan import make_plan

    plan = make_plan(model, engine.memory_budget())
    assert plan.full is None and plan.databases
    rng = random.Random(4)
    for _ in range(3):
        state = scramble(defn, rng, 30)
        result = engine.solve(defn, state, optimal=True)
        assert result.method == "ida" and result.optimal
        assert verify(defn, state, result.moves)
        assert len(result.moves) == bfs_length(defn, state)


def test_several_goals():
    """The 2x2x2 turned by all six faces has 24 solved states (whole-cube rotations)."""
    defn, pieces = cube2("URFDLB", symmetric=True, renumber=2)
    search_model(defn, pieces)
    rng = random.Random(8)
    state = scramble(defn, rng, 6)
    result = engine.solve(defn, state, optimal=True, method="astar")
    assert verify(defn, state, result.moves)
    assert len(result.moves) <= 6
    rotated = defn.goals[5]
    assert engine.solve(defn, rotated, optimal=True, method="astar").moves == []


def test_fallback_phases_bring_pieces_home(monkeypatch):
    """No room for a full table: the phases home the corners a few at a time; the answer replays
    and is not claimed optimal."""
    monkeypatch.setenv("PUZZLEHUB_PDB_BUDGET", "300K")
    defn, pieces = cube2("URF", symmetric=False, renumber=4)
    model = search_model(defn, pieces)
    from solver.search.plan import make_plan

    plan = make_plan(model, engine.memory_budget())
    stages = engine.phases(model, plan)
    homed = [sum(len(p.parts[0].pieces) for p in stage) for stage in stages]
    assert len(stages) >= 2 and homed == sorted(homed) and homed[-1] == model.n_pieces
    rng = random.Random(3)
    for _ in range(3):
        state = scramble(defn, rng, 30)
        result = engine.solve_by_phases(model, plan, model.encode(state), model.goals_for(state), Budget())
        names = result.moves
        assert result.optimal is False and verify(defn, state, names)
        auto = engine.solve(defn, state, method="fallback")
        assert verify(defn, state, auto.moves) and len(auto.moves) >= bfs_length(defn, state)


def test_unreachable_states_are_refused():
    defn, pieces = sliding(2, 3, renumber=0)
    model = search_model(defn, pieces)
    goal = list(defn.goal)
    a, b = [i for i, c in enumerate(goal) if c in ("1", "2")]
    goal[a], goal[b] = goal[b], goal[a]  # one swap of two tiles: the wrong parity
    with pytest.raises(PuzzleError, match="not reachable|no goal"):
        engine.solve(defn, tuple(goal), optimal=True, method="table")
    corners, corner_pieces = cube2("UR", symmetric=False, renumber=0)
    cmodel = search_model(corners, corner_pieces)
    slot = cmodel.orbits[0].slots[0]
    twisted = list(corners.goal)
    twisted[slot[0]], twisted[slot[1]], twisted[slot[2]] = twisted[slot[1]], twisted[slot[2]], twisted[slot[0]]
    with pytest.raises(UnreachableError, match="twist"):
        engine.solve(corners, tuple(twisted), optimal=True)


def test_time_limit_and_cancel(monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_PDB_BUDGET", "64")  # next to no databases: a search of many seconds
    defn, pieces = cube2("URFDLB", symmetric=False, renumber=3, powers=(1, 3))
    search_model(defn, pieces)
    state = scramble(defn, random.Random(5), 40)
    engine.solve(defn, state, optimal=True, method="ida", time_limit=0.2)  # tables built, kernels loaded
    for limit in (0.3, 0.8):
        started = time.monotonic()
        result = engine.solve(defn, state, optimal=True, method="ida", time_limit=limit)
        spent = time.monotonic() - started
        assert not result.complete and result.stopped == "time limit" and result.optimal is False
        assert spent < limit * 1.1 + 0.05
    calls = []
    result = engine.solve(defn, state, optimal=True, method="ida", cancel=lambda: calls.append(1) or len(calls) > 1)
    assert result.stopped == "cancelled" and result.moves is None
    seen = []
    result = engine.solve(defn, state, optimal=True, method="ida", node_limit=200_000, progress=seen.append)
    assert result.stopped == "node limit" and result.nodes >= 200_000


def test_additive_databases_for_sliding_puzzles(monkeypatch):
    """With no room for the full table, a sliding puzzle gets disjoint databases (each counting only
    its own tiles' moves) whose sum is the bound; solutions stay optimal."""
    monkeypatch.setenv("PUZZLEHUB_PDB_BUDGET", "60K")
    defn, pieces = sliding(3, 3, renumber=7)
    model = search_model(defn, pieces)
    from solver.search.plan import make_plan

    plan = make_plan(model, engine.memory_budget())
    assert plan.additive and len(plan.databases) >= 2
    rng = random.Random(2)
    for _ in range(3):
        state = scramble(defn, rng, 40)
        result = engine.solve(defn, state, optimal=True)
        assert result.method == "ida" and result.optimal and verify(defn, state, result.moves)
        assert len(result.moves) == bfs_length(defn, state)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["cube2-UR", "sliding-2x3"]), st.integers(0, 10**6))
def test_with_derived_pieces(name, seed):
    """The same searches with the pieces the analysis derives from the moves (no hand-made model)."""
    rng = random.Random(seed)
    defn, _ = PUZZLES[name](seed % 5)  # a fresh definition: its model is derived, not given
    state = scramble(defn, rng, rng.randint(0, 25))
    for method in ("table", "ida"):
        result = engine.solve(defn, state, optimal=True, method=method)
        assert result.optimal and verify(defn, state, result.moves)
        assert len(result.moves) == bfs_length(defn, state)


def test_bidir_on_a_puzzle_too_big_to_rank_uses_the_plain_search():
    """cube3's full state does not rank into 64 bits: "bidir" must still answer, optimally."""
    from solver import api, catalog
    from solver.definition.formats import load_data

    cube = load_data(catalog.build("cube3"))
    start = api.apply_moves(cube, ["L", "D2", "F'"])
    result = api.solve(cube, start, method="bidir")
    assert result["verified"] and result["optimal"] and result["length"] == 3
