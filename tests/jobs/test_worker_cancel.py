"""A cancel stops a running job of every solver family on a REAL Celery worker: big cubes,
Loopover, sliding (its table build on a fresh cache), the generic engine, discovery and
pattern-database builds (the 3x3x3's two solvers: test_worker_special.py; Flip-it's search ends
in about 0.6 s, before a heartbeat could bring a cancel in: tests/solver/test_solve_budget.py). The heartbeat (every
0.5 s here) brings the cancel in; each solver then stops within about 0.1 s. The time from the
request to the job's end is printed (`pytest -s`); the bound asserted is generous, for loaded
machines; bench/bench_cancel.py measures the solvers' own stop latency."""

import time

import pytest

from puzzlehub.jobs.models import Job
from solver import api as solver_api

from jobwaits import HARD, finished, job_when

pytestmark = pytest.mark.django_db(transaction=True)

STOPPED_WITHIN = 10.0  # seconds from the request to the job's end: 0.5 s heartbeat, 0.1 s solver, load


def _puzzle(make_repo, alice, name):
    defn = solver_api.load(name)
    return make_repo(alice, name, definition=solver_api.export_yaml(defn)), defn


def _state(defn, seed):
    return list(solver_api.scramble(defn, random_state=True, seed=seed)["state"])


def _cancel_when(client, job_id, ready) -> float:
    """Cancel once `ready(job)` holds; seconds from the request to the job's end."""
    job_when(job_id, lambda j: j.status == Job.RUNNING and ready(j))
    asked = time.monotonic()
    assert client.post(f"/api/jobs/{job_id}/cancel/").json()["cancel_requested"] is True
    job = finished(job_id, timeout=60)
    took = time.monotonic() - asked
    assert job.status == Job.CANCELLED, (job.status, job.error, job.progress_text)
    if job.kind == Job.SOLVE:  # stopped before its answer, not cancelled after it
        assert job.result["solution"] is None and job.result["stopped"] == "cancelled", job.result
    return took


def _running(job) -> bool:
    return True


def _showing(*words):
    return lambda job: all(word in job.progress_text for word in words)


FAMILIES = [
    # (puzzle, solve options, when to cancel): the short ones (a second or two) at once, the long
    # ones once the job page shows their progress
    ("cube4", {}, _running),
    ("loopover-4x4", {"optimal": True}, _running),
    ("sliding-4x4", {"optimal": True}, _showing("phase")),  # a fresh cache: its tables are built first
]


@pytest.mark.parametrize("name, options, ready", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_a_cancel_stops_a_running_special_solve(worker, alice, make_repo, client_for, name, options, ready):
    client = client_for(alice)
    repo, defn = _puzzle(make_repo, alice, name)
    # seed 3: a state whose answers take seconds (a 15-move Loopover 4x4 optimum, 3 s quiet)
    response = client.post(f"/api/repos/alice/{repo.name}/solves/",
                           dict(options, state=_state(defn, 3), time_limit=120), format="json")
    assert response.status_code == 202, response.content
    took = _cancel_when(client, response.json()["id"], ready)
    print(f"\n{name}: stopped {took:.2f} s after the cancel request")
    assert took < STOPPED_WITHIN, took


def test_a_cancel_stops_a_running_generic_search(worker, alice, repo, client_for, cube3):
    client = client_for(alice)
    state = list(solver_api.apply_moves(cube3, solver_api.parse_moves(cube3, HARD)))
    response = client.post(f"/api/repos/alice/{repo.name}/solves/",
                           {"state": state, "method": "bidir", "time_limit": 120}, format="json")
    took = _cancel_when(client, response.json()["id"], _showing("nodes"))
    print(f"\ngeneric bidir: stopped {took:.2f} s after the cancel request")
    assert took < STOPPED_WITHIN, took


def test_a_cancel_stops_a_running_discovery(worker, alice, repo, client_for):
    client = client_for(alice)
    response = client.post(f"/api/repos/alice/{repo.name}/discoveries/", {"time_limit": 120}, format="json")
    assert response.status_code == 202, response.content
    took = _cancel_when(client, response.json()["id"], _showing("s"))
    print(f"\ndiscovery: stopped {took:.2f} s after the cancel request")
    assert took < STOPPED_WITHIN, took


def test_a_cancel_stops_a_running_table_build(worker, alice, make_repo, client_for):
    client = client_for(alice)
    repo, _ = _puzzle(make_repo, alice, "megaminx")
    response = client.post(f"/api/repos/alice/{repo.name}/pdbs/", {}, format="json")
    assert response.status_code == 202, response.content
    took = _cancel_when(client, response.json()["id"], _showing("phase table building"))
    print(f"\npattern-database build: stopped {took:.2f} s after the cancel request")
    assert took < STOPPED_WITHIN, took
