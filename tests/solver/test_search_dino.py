"""The Dino Cube (12!/2 states, no table of the whole puzzle fits): solved optimally by the generic
engine in any sticker numbering and with any move names, checked against breadth-first search on
its stickers; its pattern databases are ones that build by move tables, in seconds."""

import math
import random

import pytest

from solver import api, catalog
from solver.engine import Codec, apply_moves, verify
from solver.search import bfs, pdb, plain_ida
from solver.search.budget import Budget
from solver.search.engine import memory_budget
from solver.search.ida import IdaSearch, combine
from solver.search.model import search_model
from solver.search.plan import make_plan
from solver.search.ranking import make_ranker

from analysis_geometry import renumbered

pytestmark = pytest.mark.usefixtures("module_cache")


@pytest.fixture(scope="module")
def dino():
    defn = api.load_data(catalog.build("dino"))
    return renumbered(defn, random.Random(19))[0]


def test_dino_definition_has_the_known_state_count(dino):
    facts = api.info(dino)
    assert facts["state_count"] == math.factorial(12) // 2 and facts["state_count_exact"]
    assert [(o["pieces"], o["stickers_per_piece"]) for o in facts["orbits"]] == [(12, 2)]


def test_dino_plan_uses_tables_that_build_by_move_tables(dino):
    model = search_model(dino)
    plan = make_plan(model, memory_budget())
    assert plan.full is None and plan.databases
    covered = set()
    for projection in plan.databases:
        assert pdb.by_move_tables(model, make_ranker(model, projection))
        covered |= {p for part in projection.parts for p in part.pieces}
    assert covered == set(range(12))  # every edge is in some table


def test_dino_solved_optimally_against_bfs(dino):
    rng = random.Random(7)
    codec = Codec(dino)
    for length in (3, 6, 9, 12):
        state = apply_moves(dino, [rng.choice(dino.move_names) for _ in range(length)])
        result = api.solve(dino, state, optimal=True, time_limit=120)
        assert result["optimal"] and result["verified"] and result["complete"]
        assert verify(dino, state, result["solution"])
        shortest, _ = bfs.bidirectional_bfs(codec, codec.encode(state), Budget())
        assert result["length"] == len(shortest)


def test_dino_random_states_solved(dino):
    for seed in range(3):
        state = api.scramble(dino, random_state=True, seed=seed)["state"]
        result = api.solve(dino, state, optimal=True, time_limit=120)
        assert result["optimal"] and result["verified"] and result["complete"]
        assert verify(dino, state, result["solution"])


def test_plain_python_search_is_optimal_once_its_move_tables_are_cached(dino, tmp_path, monkeypatch):
    """The IDA* a process without numba runs: nothing before the move tables are in the cache
    folder, then answers as short as breadth-first search's (and the compiled IDA*'s) that replay."""
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    model = search_model(dino)
    heuristic = combine(model, [pdb.cached(model, p) for p in make_plan(model, memory_budget()).databases])
    allowed, codec, rng = model.canonical_pairs(), Codec(dino), random.Random(23)
    states = [apply_moves(dino, [rng.choice(dino.move_names) for _ in range(length)]) for length in (0, 4, 7, 10)]
    assert plain_ida.applies(model, heuristic)
    assert plain_ida.search(model, heuristic, allowed, model.encode(states[-1]), model.goals_for(states[-1]), Budget()) is None
    plain_ida.prepare(model, heuristic)
    for state in states:
        loc, goal_views = model.encode(state), model.goals_for(state)
        found = plain_ida.search(model, heuristic, allowed, loc, goal_views, Budget())
        assert found is not None and found.proven
        moves = [model.move_names[m] for m in found.moves]
        assert verify(dino, state, moves)
        shortest, _ = bfs.bidirectional_bfs(codec, codec.encode(state), Budget())
        assert len(moves) == len(shortest) == len(IdaSearch(model, heuristic, allowed, goal_views).run(loc, Budget()).moves)


def test_a_first_solve_on_an_empty_cache_builds_the_small_tables_and_answers_optimally(dino, tmp_path, monkeypatch):
    """Without --optimal and under a 10 s limit, as a user asks: the plan's two small tables are
    built before the first try, which then answers as short as breadth-first search (the chains and
    their finisher's one-time search for algorithms, taken instead, gave no answer in 10 s on a
    busy machine)."""
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    codec = Codec(dino)
    state = api.scramble(dino, random_state=True, seed=5)["state"]
    result = api.solve(dino, state, time_limit=10)
    assert result["verified"] and verify(dino, state, result["solution"])
    shortest, _ = bfs.bidirectional_bfs(codec, codec.encode(tuple(state)), Budget())
    assert result["optimal"] and result["length"] == len(shortest)
    assert len(list((tmp_path / "pdb").glob("*.pdb"))) >= 2
