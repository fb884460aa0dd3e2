"""The solve contract (solver.api.solve): a target length stops a solve at the first answer that
short, the time limit is the most it spends, a cancel stops a running solver within a fraction of
a second, and progress is reported. Every answer is replayed on the definition."""

import random
import threading
import time
from pathlib import Path

import pytest

from solver import api
from solver.engine import verify
from solver.errors import PuzzleError
from solver.search.budget import Budget, Cancelled
from solver.special.cube3 import facelet, optimal, random_cube
from solver.special.cube3.solve import solve_cubies


@pytest.fixture(scope="module")
def cube3():
    """The catalog cube, its tables loaded and kernels compiled as a worker does before forking
    (compiling is not part of a solve's time, and cannot be cancelled)."""
    optimal.warm_up()
    return api.load("cube3")


def random_state(seed):
    return tuple(facelet.to_stickers(random_cube(random.Random(seed))))


def cancel_after(seconds):
    """A cancel callback that starts saying stop `seconds` from now, and when it first said so."""
    said = {}
    start = time.monotonic()

    def cancel():
        if time.monotonic() - start < seconds:
            return False
        said.setdefault("at", time.monotonic())
        return True

    return cancel, said


def test_the_3x3x3_default_stops_at_twenty_moves_long_before_its_time_limit(cube3):
    """The default target (20 moves) is met in well under a second: a 20 s limit is not spent."""
    for seed in range(3):
        state = random_state(seed)
        started = time.monotonic()
        result = api.solve(cube3, state, time_limit=20)
        assert time.monotonic() - started < 10
        assert result["verified"] and verify(cube3, state, result["solution"])
        assert result["length"] <= 20
        assert result["method"] == "special:cube3"


def test_a_named_target_length_is_met_or_the_time_limit_ends_the_solve(cube3):
    state = random_state(7)
    loose = api.solve(cube3, state, time_limit=20, max_length=24)
    assert loose["verified"] and loose["length"] <= 24
    tight = api.solve(cube3, state, time_limit=2, max_length=0)  # unreachable target: the limit ends it
    assert tight["verified"] and 0 < tight["length"] <= 20
    assert tight["seconds"] >= 1.5


def test_bad_target_length_and_method_are_refused_naming_the_field(cube3):
    with pytest.raises(PuzzleError, match="max_length"):
        api.solve(cube3, cube3.goal, max_length=-1)
    with pytest.raises(PuzzleError, match="method: unknown method 'nope'; methods: special, "):
        api.solve(cube3, cube3.goal, method="nope")
    assert api.METHODS[0] == api.SPECIAL and "ida" in api.METHODS


def test_cancel_stops_a_running_optimal_3x3x3_solve_within_a_second(cube3):
    state = random_state(11)  # a random cube: an optimal proof takes minutes
    cancel, said = cancel_after(1.0)
    result = api.solve(cube3, state, optimal=True, time_limit=120, cancel=cancel)
    stopped = time.monotonic()
    assert result["stopped"] == "cancelled" and not result["optimal"]
    assert stopped - said["at"] < 1.0
    assert result["solution"] is not None and verify(cube3, state, result["solution"])


def test_cancel_before_any_answer_is_the_one_cancel_exception(cube3):
    cube = random_cube(random.Random(3))
    with pytest.raises(Cancelled):
        solve_cubies(cube, budget=Budget(time_limit=30, cancel=lambda: True))


def test_cancel_reaches_the_compiled_search_while_it_runs(cube3):
    """With an unreachable target the two-phase search would run its whole limit; a cancel from
    another thread's event (as a worker's heartbeat sets it) stops it within about POLL seconds."""
    cube = random_cube(random.Random(5))
    event = threading.Event()
    threading.Timer(0.8, event.set).start()
    started = time.monotonic()
    moves = solve_cubies(cube, budget=Budget(time_limit=60, cancel=event.is_set, max_length=0))
    assert time.monotonic() - started < 0.8 + 1.0
    assert moves and len(moves) <= 30


def test_progress_reports_phase_depth_nodes_and_best_length(cube3):
    seen = []
    api.solve(cube3, random_state(13), time_limit=5, max_length=19, progress=seen.append)
    assert seen and all({"phase", "depth", "nodes", "best", "seconds"} <= set(info) for info in seen)
    nodes = [info["nodes"] for info in seen]
    assert nodes == sorted(nodes) and nodes[-1] > 0
    assert [info["depth"] for info in seen] == list(range(len(seen)))


def test_cancel_and_time_limit_stop_an_optimal_sliding_search():
    """The 4x4 optimal search (IDA* over pattern databases) reads the budget's stop flag: a solve
    whose cancel or time limit has come stops at the kernel's first look instead of finishing."""
    defn = api.load("sliding-4x4")
    state = tuple(api.scramble(defn, moves=200, seed=3)["state"])
    warm = api.solve(defn, state, time_limit=600)  # tables and kernels; the search itself is quick
    assert warm["verified"] and warm["optimal"]
    cancelled = api.solve(defn, state, time_limit=600, cancel=lambda: True)
    assert cancelled["stopped"] == "cancelled" and cancelled["solution"] is None
    late = api.solve(defn, state, time_limit=1e-6)
    assert late["stopped"] == "time limit" and late["solution"] is None


def test_cancel_stops_a_flipit_search():
    """Flip-it's search (0.6 s for a random 20-cell board) reads the stop flag as it runs."""
    defn = api.load("flipit-20")
    state = api.scramble(defn, random_state=True, seed=3)["state"]
    cancel, said = cancel_after(0.05)
    result = api.solve(defn, state, time_limit=60, cancel=cancel)
    assert result["solution"] is None and result["stopped"] == "cancelled", result
    assert "at" in said


def test_a_specialized_table_build_is_one_time_work_that_only_a_cancel_stops(monkeypatch, tmp_path):
    """On a fresh machine a solve meets the Loopover 4x4 table build (seconds) as a step: a cancel
    stops it and keeps nothing, but a time limit shorter than the build does not throw it away;
    its seconds are counted apart (compile_seconds), like compiling, and the table is listed."""
    from solver.special.loopover import pdb_search

    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    pdb_search._setup.cache_clear()  # the process's memory of a table from another cache
    defn = api.load("loopover-4x4")
    state = api.scramble(defn, moves=8, seed=1)["state"]
    # the build takes about 1 s in a process with the kernels compiled, on a quiet machine (a cancel
    # after 1 s came once it had ended), more under load
    cancel, said = cancel_after(0.4)
    cancelled = api.solve(defn, state, optimal=True, time_limit=600, cancel=cancel)
    assert (cancelled["stopped"], cancelled["tables"]) == ("cancelled", [])
    assert "at" in said and not list(tmp_path.rglob("*.table"))  # stopped within the build
    result = api.solve(defn, state, optimal=True, time_limit=1.0)
    assert result["verified"] and result["optimal"], result
    assert [p.name for p in map(Path, result["tables"])] == ["loopover-4x4-pdb-v1.table"]
    assert result["compile_seconds"] > result["seconds"]  # the build, counted apart


def test_one_time_work_still_running_is_not_counted_by_the_watching_thread():
    """A specialized solver builds its tables (one-time work) inside the watched search: the thread
    that watches the clock must not see that spell, running in another thread, as the search's
    time (a fresh machine's first 15-puzzle solve stopped at once after a 40 s build, no answer)."""
    from solver.search.budget import one_time_work

    budget = Budget(time_limit=0.3)
    with budget.watching() as stop:
        with one_time_work():
            time.sleep(1.0)  # the watching thread polls every 0.1 s meanwhile
        assert stop[0] == 0
        assert not budget.out_of_time() and 0.2 < budget.remaining() <= 0.3
        time.sleep(0.5)  # the time that is the search's own: past the limit
        assert budget.out_of_time()
