"""The fallback's finisher: few-slot algorithms found from the move tables bring any state of a
big puzzle home, and the fallback returns a verified answer within its time limit."""

import random
import time

import numpy as np
import pytest

from solver import api
from solver.analysis.scramble import random_state
from solver.engine import verify
from solver.search import engine, macros
from solver.search.macros import Finisher
from solver.search.model import search_model

from analysis_geometry import renumbered
from search_puzzles import cube


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))

# room for the one-time search for the finisher's algorithms on a fresh cache (about 15 s of CPU
# for a megaminx), which a solve runs within its own time limit
LIMIT = 60


def test_algorithms_move_few_slots_and_finish_random_states():
    defn, pieces = cube(3, renumber=11)
    model = search_model(defn, pieces)
    finisher = Finisher(model)
    assert finisher.algorithms and finisher.complete
    for seq, effect in finisher.algorithms[:50]:
        assert 0 < finisher.support(effect) <= 3
        assert np.array_equal(finisher.effect(seq), effect)  # the sequence does what is recorded
    for i in random.Random(3).sample(range(len(finisher.library_seqs)), 50):  # so do the conjugates
        assert np.array_equal(finisher.effect(finisher.library_seqs[i]), finisher.library[i])
    rng = random.Random(5)
    for _ in range(3):
        state, _ = random_state(defn, rng)
        state = tuple(state)
        moves = finisher.finish(model.encode(state), model.goals_for(state)[0])
        assert moves is not None and verify(defn, state, [model.move_names[m] for m in moves])


def test_fallback_answers_within_its_time_limit(monkeypatch):
    """Tables too small for the phases to finish: the finisher takes over in time."""
    monkeypatch.setenv("PUZZLEHUB_PDB_BUDGET", "1M")
    defn, _ = cube(3, renumber=12)
    state, uniform = random_state(defn, random.Random(2))
    state = tuple(state)
    started = time.monotonic()
    result = engine.solve(defn, state, method="fallback", time_limit=LIMIT)
    assert time.monotonic() - started < LIMIT * 1.1
    assert result.optimal is False and result.moves is not None and verify(defn, state, result.moves)


# the longest of the orbits' shortest 3-cycles: on the cubes a commutator with a conjugate half,
# [U Uw', L D Dw' L'] (12 moves: face and wide turns only) for centres, [U, L D L'] for corners
SHORTEST_CYCLE = {"megaminx": 18, "cube4": 12, "cube5": 12, "cube6": 12}


@pytest.mark.parametrize("name", ["megaminx", "cube4", "cube5", "cube6"])
def test_finisher_homes_random_states_of_renumbered_puzzles(name):
    """A megaminx (whose edges no short algorithm flips: the flips are made of two 3-cycles), a
    4x4x4 (odd wing parity half the time, look-alike centres), a 5x5x5 (whose middle edges
    no short algorithm cycles alone: they are solved first) and a 6x6x6 (whose corners no
    commutator of two short sequences cycles alone), stickers and moves renamed."""
    defn, _, _ = renumbered(api.load(name), random.Random(3))
    model = search_model(defn)
    finisher = Finisher(model)
    shortest = []
    for r in range(len(model.orbits)):  # every orbit can be cycled and turned in place
        aims = [aim for aim in finisher.aims if aim.orbit == r] + finisher.rough.get(r, [])
        assert any(aim.powers[0][2] for aim in aims)
        if model.orbits[r].k > 1:
            assert any(not aim.powers[0][2] for aim in aims)
        if r not in finisher.rough:
            shortest.append(min(len(aim.powers[0][0]) for aim in aims if len(aim.powers[0][2]) == 3))
    assert max(shortest) <= SHORTEST_CYCLE[name]
    rng = random.Random(4)
    answers = {}
    for _ in range(3):
        state = tuple(random_state(defn, rng)[0])
        moves = finisher.finish(model.encode(state), model.goals_for(state)[0])
        assert moves is not None and verify(defn, state, [model.move_names[m] for m in moves])
        answers[state] = moves
    for state, moves in answers.items():  # finishing leaves the finisher as it was
        assert finisher.finish(model.encode(state), model.goals_for(state)[0]) == moves


def test_megaminx_fallback_answers_within_its_time_limit():
    defn, _, _ = renumbered(api.load("megaminx"), random.Random(5))
    state = tuple(random_state(defn, random.Random(6))[0])
    started = time.monotonic()
    result = engine.solve(defn, state, method="fallback", time_limit=LIMIT)
    assert time.monotonic() - started < LIMIT * 1.1
    assert result.optimal is False and result.moves is not None and verify(defn, state, result.moves)


def test_small_orbits_no_algorithm_keeps_alone_are_placed_first_by_an_exact_table():
    """A master skewb's two corner orbits (4 pieces of 3 twists) have no short algorithm that leaves
    its edges and centres alone: the finisher places them first by one search down an exact table,
    then climbs with algorithms that keep them; stickers, colours and moves renamed."""
    defn, _, _ = renumbered(api.load("master-skewb"), random.Random(7))
    model = search_model(defn)
    finisher = Finisher(model)
    corners = [r for r, o in enumerate(model.orbits) if (o.n, o.k) == (4, 3)]
    assert len(corners) == 2 and sorted(finisher.exact) == corners and finisher.complete
    assert not any(finisher.rough[r] == [] for r in finisher.rough)  # no orbit given up
    kept = np.isin(finisher.orbit_of_code, corners)
    assert (finisher.library[:, kept] == finisher.identity[kept]).all()
    rng = random.Random(8)
    for _ in range(3):
        state = tuple(random_state(defn, rng)[0])
        moves = finisher.finish(model.encode(state), model.goals_for(state)[0])
        assert moves is not None and verify(defn, state, [model.move_names[m] for m in moves])


def test_master_skewb_gets_an_answer_within_its_time_limit():
    """Through the engine, its finisher's one-time work done first in the fresh cache (the search
    for algorithms and the corners' table: up to 30 s under load, which a first solve may spend
    on its other one-time work instead): the answer replays to the goal."""
    defn = api.load("master-skewb")
    assert Finisher(search_model(defn)).complete
    state = tuple(random_state(defn, random.Random(10))[0])
    result = engine.solve(defn, state, time_limit=LIMIT)
    assert result.moves is not None and verify(defn, state, result.moves)


def test_a_search_for_algorithms_cut_short_resumes_and_ends_as_an_uncut_one(tmp_path, monkeypatch):
    """One-time work is never lost: each cut keeps what was found and where it stopped, the next
    finisher goes on from there, and the algorithms in the end are those of an uninterrupted search."""
    defn, pieces = cube(3, renumber=11)
    model = search_model(defn, pieces)
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path / "whole"))
    whole = Finisher(model)
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path / "cut"))
    reached, seconds = [], 0.5
    while True:
        finisher = Finisher(model, time.monotonic() + seconds)
        if finisher.complete:
            break
        progress = finisher._progress()
        if progress:  # cut in the search for algorithms, not in the aims made from them after it
            reached.append((progress["stage"], progress["next"]))
            # kept: only what the rest can choose from (a cube's cut in stage 2 found 130,000 narrow
            # ones; a professor skewb's 330,000 took longer to read back than a 10 s solve has)
            kinds = len(set(finisher._kinds(finisher.effects(progress["narrow"])).tolist()))
            assert len(progress["narrow"]) <= macros.NARROW_SCAN + macros.NARROW_MORE \
                + kinds * (macros.NARROW_LIMIT + macros.LIBRARY_LIMIT)
        seconds *= 3
    assert reached and reached == sorted(reached)  # never further back than the cut before
    assert [q for q, _ in finisher.algorithms] == [q for q, _ in whole.algorithms]
    assert not finisher._path("algorithm-search").exists()
    assert [q for q, _ in Finisher(model, time.monotonic()).algorithms] == [q for q, _ in whole.algorithms]  # stored


def test_a_finisher_cut_short_while_reading_back_its_progress_tells_what_that_costs(tmp_path, monkeypatch):
    """Cut short while replaying what an earlier search found, a finisher still tells what going on
    costs: with 0 every later solve started the replay again and was cut again (a TopSpin's
    10 s solves never got past it)."""
    defn, pieces = cube(3, renumber=7)
    model = search_model(defn, pieces)
    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    seconds = 0.2
    while not Finisher(model, time.monotonic() + seconds)._progress().get("narrow"):
        seconds *= 2
        assert seconds < 60
    cut = Finisher(model, time.monotonic())  # out of time at once: in the replay
    assert not cut.complete and cut.resume_seconds > 0
    assert not engine._worth_resuming(cut, 1.9 * cut.resume_seconds)


def test_a_finisher_cut_short_serves_as_it_is_when_too_little_time_is_left_to_resume_it():
    """Going on with a search cut short first reads back what it found (seconds for a big puzzle):
    with less time left than that is worth, the process's finisher serves with what it has; with
    more, a new one goes on from where it stopped."""
    from solver.search.budget import Budget

    defn, pieces = cube(3, renumber=5)
    model = search_model(defn, pieces)
    engine._finishers.pop(id(model), None)
    first = engine._finisher(model, Budget(time_limit=0.3))
    assert not first.complete
    assert engine._finisher(model, Budget(time_limit=engine.RETRY_SECONDS / 2)) is first
    resumed = engine._finisher(model, Budget(time_limit=LIMIT))
    assert resumed is not first and resumed.complete
    assert engine._finisher(model, Budget(time_limit=0.1)) is resumed


@pytest.mark.parametrize("left,right", [(30, 20), (17, 41)])
def test_narrow_algorithms_of_more_slots_carry_the_chosen_piece_where_it_is_wanted(left, right):
    """On rings of two cycles (generated, two sizes), the narrow algorithms of more than three
    slots are found ([l, r]: two 3-cycles), and the setup of a pair (a, b) from their tables makes
    a conjugate that takes the piece at slot a to slot b."""
    from outside_puzzles import ring

    model = search_model(ring(left, right))
    finisher = Finisher(model)
    assert finisher.wide
    rng = random.Random(left)
    _, _, first_code, _ = model.orbit_arrays
    for wide in finisher.wide:
        for moves, effect, table in wide.aims:
            assert np.array_equal(finisher.effect(moves), effect) and finisher.support(effect) > 3
            for _ in range(5):
                a, b = rng.sample(range(wide.n), 2)
                setup = table.setup((a, b))
                if setup is None:
                    continue
                x = finisher.effect(setup)
                conjugate = np.argsort(x)[effect[x]]  # x, then the algorithm, then x undone
                assert conjugate[first_code[wide.orbit] + a] == first_code[wide.orbit] + b
                assert len(setup) == table.depth[table.index((a, b))]


def test_a_puzzle_of_many_goals_is_finished_to_the_goal_it_reaches_shortest():
    """A 4x4x4 has a goal for each whole-cube rotation: the finisher answers towards each (stickers
    and moves renamed) and keeps the shortest, which replays to one of them. (Towards the third of
    them the climb once turned round until its deadline: the library counted a gain twice.)"""
    defn, _, _ = renumbered(api.load("cube4"), random.Random(12))
    model = search_model(defn)
    finisher = Finisher(model)
    state = tuple(random_state(defn, random.Random(13))[0])
    loc, goals = model.encode(state), model.goals_for(state)
    assert len(goals) == 24
    each = [finisher.finish(loc, goal, time.monotonic() + 20) for goal in goals]
    assert all(moves is not None for moves in each) and len({len(moves) for moves in each}) > 1
    shortest = finisher.finish_shortest(loc, goals)
    assert len(shortest) == min(map(len, each))
    assert verify(defn, state, [model.move_names[m] for m in shortest])


def test_a_goal_the_state_cannot_reach_does_not_keep_the_finisher_from_the_others():
    """A user's second goal with two edges swapped, which no turns reach, shows the most from a
    state an edge 3-cycle away from the first goal: the finish goes on to the first goal (before,
    it stopped at the unreachable one and the solve had no answer)."""
    defn, _, _ = renumbered(api.load("cube3"), random.Random(5))
    model = search_model(defn)
    first = list(defn.goal)
    edges = next(o for o in model.pieces.orbits if len(o.slots) == 12)
    p, q, r = edges.slots[:3]
    second, state = first[:], first[:]
    for a, b, c in zip(p, q, r):
        second[a], second[b] = first[b], first[a]
        state[b], state[c], state[a] = first[a], first[b], first[c]
    loc = model.encode(tuple(state))
    goals = np.array([model.view(model.encode(tuple(second))), model.view(model.encode(tuple(first)))])
    finisher = Finisher(model)
    shown = (goals == model.view(loc)).sum(1)
    assert shown[0] > shown[1]
    assert finisher.finish(loc, goals[0], time.monotonic() + 5) is None
    moves = finisher.finish_shortest(loc, goals, time.monotonic() + LIMIT)
    assert moves is not None and verify(defn, tuple(state), [model.move_names[m] for m in moves])
