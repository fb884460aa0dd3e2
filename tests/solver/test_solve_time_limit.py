"""A solve's time limit holds in every phase, not only in the search: on puzzles whose analysis
(proving the state reachable) or planning (the search model, the choice of tables) alone takes
longer than the limit, `api.solve` returns within the limit plus 10%, with a verified answer or
none, and says which phase ran out."""

import time

import pytest

from solver import api, deadline
from solver.analysis import group
from solver.search import engine

pytestmark = pytest.mark.usefixtures("module_cache")

LIMIT = 2.0
ANALYSIS_LIMIT = 0.5  # the gigaminx analysis takes over 1.3 s on a quiet machine (the megaminx's 0.1 s)
PHASES = ("loading", "analysis", "recognition", "planning", "table building", "search")


def scrambled(name, seed):
    defn = api.load(name)
    return defn, api.scramble(defn, moves=60, seed=seed)["state"]


@pytest.fixture(scope="module", autouse=True)
def kernels_loaded():
    """Compile or load the search kernels the megaminx search runs (once per machine, not a phase
    of a solve), through the engine alone: the group analysis stays undone."""
    defn, state = scrambled("megaminx", 0)
    engine.solve(defn, state, optimal=True, time_limit=20)


def test_time_limit_holds_when_analysis_alone_takes_longer():
    name = "gigaminx"  # no specialized solver: every phase is the generic engine's
    defn, state = scrambled(name, 1)
    for cached in (group.orbit_chains, group.move_group, group.identical_runs):
        cached.cache_clear()  # the group is cached by content: other tests may have built this one
    analysis = time.monotonic()
    with deadline.limit(ANALYSIS_LIMIT):  # the analysis on its own does not finish within the limit
        with pytest.raises(deadline.OutOfTime):
            group.reachability(defn, state)
    assert time.monotonic() - analysis <= ANALYSIS_LIMIT * 1.1
    defn, state = scrambled(name, 2)  # a fresh definition: nothing of the analysis is kept
    started = time.monotonic()
    result = api.solve(defn, state, optimal=True, time_limit=LIMIT)
    # compiling a kernel is not part of a solve's time (it happens once per machine)
    assert time.monotonic() - started - result["compile_seconds"] <= LIMIT * 1.1
    if result["solution"] is None:
        assert result["stopped"] == "time limit" and result["phase"] in PHASES
    else:
        assert result["verified"] and api.verify(defn, state, result["solution"])


def test_out_of_time_names_the_phase():
    with deadline.limit(0.0), pytest.raises(deadline.OutOfTime) as stop:
        with deadline.phase("planning"):
            pass
    assert stop.value.phase == "planning"
    with deadline.phase("planning"):  # outside a solve nothing stops
        deadline.check()
