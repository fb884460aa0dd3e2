"""A cancel stops a running job of every solver family on a REAL Celery worker: big cubes,
Loopover, sliding (its table build on a fresh cache), the generic engine, discovery and
pattern-database builds (the 3x3x3's two solvers: test_worker_special.py; Flip-it's search ends
in about 0.6 s, before a cancel could come in: tests/solver/test_solve_budget.py). The worker
hears of the cancel within 0.2 s (announced in Redis; the heartbeat, every 0.5 s here and 2 s in
production, brings it too); each solver then stops within about 0.1 s, so every job ends within
1 s of the request (the time is printed, `pytest -s`);
bench/bench_cancel.py measures the solvers' own stop latency. A job the janitor gave up on (its
worker stopped renewing the lease) stops on that worker as soon as it runs again."""

import os
import signal
import time

import pytest

from puzzlehub.jobs.models import Job
from solver import api as solver_api

from jobwaits import HARD, finished, job_when, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

STOPPED_WITHIN = 1.0  # seconds from the request to the job's end: 0.2 s to hear of it, 0.1 s in the solver


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


def test_a_cancel_stops_a_job_within_a_second_under_the_production_heartbeat(workers, transactional_db, alice,
                                                                             make_repo, client_for):
    """Production renews leases every 2 s: the cancel is announced to the worker at once
    (jobs.cancel_signal), not brought by the next beat."""
    if "main" in workers.running:  # this test's worker alone takes the job
        workers.kill("main", signal.SIGTERM)
    workers.start("two-second-beat", beat=False, env={"PUZZLEHUB_JOB_HEARTBEAT": "2", "PUZZLEHUB_JOB_LEASE": "20"})
    try:
        client = client_for(alice)
        repo, defn = _puzzle(make_repo, alice, "sliding-4x4")
        response = client.post(f"/api/repos/alice/{repo.name}/solves/",
                               {"state": _state(defn, 3), "optimal": True, "time_limit": 120}, format="json")
        # once the job page shows progress, i.e. after a first beat: the next is 2 s away
        took = _cancel_when(client, response.json()["id"], lambda job: job.progress_text != "")
        print(f"\nunder a 2 s heartbeat: stopped {took:.2f} s after the cancel request")
        assert took < STOPPED_WITHIN, took
    finally:
        workers.kill("two-second-beat", signal.SIGTERM)


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


def test_a_job_the_janitor_gave_up_on_stops_on_its_worker_and_is_never_run_twice(workers, transactional_db, settings,
                                                                                 alice, repo, client_for, cube3):
    """The worker process running a job freezes (SIGSTOP: no heartbeat) until its lease runs out and
    the janitor (run by the worker's other process) fails the job after its last attempt. Once the
    process runs again its next heartbeat finds the lease gone: the solver stops within seconds,
    writes nothing over the janitor's verdict, and no other attempt ever starts."""
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)
    settings.JOB_ATTEMPTS = 1  # jobs submitted now have one attempt: the janitor's next step is to give up
    workers.start("frozen", concurrency=2)  # a spare process for the janitor, as docs/jobs.md asks
    try:
        client = client_for(alice)
        state = list(solver_api.apply_moves(cube3, solver_api.parse_moves(cube3, HARD)))
        response = client.post(f"/api/repos/alice/{repo.name}/solves/",
                               {"state": state, "method": "bidir", "time_limit": 120}, format="json")
        job_id = response.json()["id"]
        running = job_when(job_id, lambda j: j.status == Job.RUNNING and "nodes" in j.progress_text)
        pid = int(running.worker.rsplit(":", 1)[1])  # the pool process running it
        os.kill(pid, signal.SIGSTOP)
        try:
            given_up = job_when(job_id, lambda j: j.status != Job.RUNNING, timeout=60)
        finally:
            os.kill(pid, signal.SIGCONT)
        resumed = time.monotonic()
        assert given_up.status == Job.FAILED and "gave up after 1 attempts" in given_up.error, given_up.error
        log = workers.logs["frozen"]
        wait_for(lambda: f"job {job_id}: lease lost before finishing" in log.read_text(), timeout=60)
        took = time.monotonic() - resumed
        print(f"\ngiven up: the solver stopped {took:.2f} s after its process ran again")
        assert took < 3.0, took
        job = Job.objects.get(id=job_id)
        assert (job.status, job.error, job.result, job.attempts) == (Job.FAILED, given_up.error, None, 1)
        assert log.read_text().count(f"job {job_id}: lease lost") == 2  # the heartbeat's, then the outcome's
    finally:
        workers.kill("frozen", signal.SIGTERM)
