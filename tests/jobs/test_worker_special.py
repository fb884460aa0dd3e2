"""Solves by the specialized solver on a REAL Celery worker: the default method stops at the
3x3x3's target length (20 moves) instead of spending its time limit, a named target length is
kept, and a cancel stops a running optimal 3x3x3 solve at once (the heartbeat brings the cancel
in while the compiled search runs; the search reads it within about 0.1 s)."""

import random
import time

import pytest

from puzzlehub.jobs.models import Job
from solver import api as solver_api
from solver.special.cube3 import facelet, random_cube

from jobwaits import finished, job_when

pytestmark = pytest.mark.django_db(transaction=True)


def solves_url(repo):
    return f"/api/repos/alice/{repo.name}/solves/"


def random_state(seed):
    return list(facelet.to_stickers(random_cube(random.Random(seed))))


def submit(client, repo, **payload) -> int:
    response = client.post(solves_url(repo), payload, format="json")
    assert response.status_code == 202, response.content
    return response.json()["id"]


def replays(cube3, job):
    start = tuple(job.options["state"])
    return solver_api.apply_moves(cube3, job.result["solution"], start) in cube3.goal_set


def test_default_and_target_length_solves_end_at_the_target_not_the_time_limit(worker, alice, repo, client_for, cube3):
    client = client_for(alice)
    default_id = submit(client, repo, state=random_state(1), time_limit=60)
    target_id = submit(client, repo, state=random_state(2), method="special", max_length=22, time_limit=60)
    job = finished(default_id)
    assert job.status == Job.SUCCEEDED, job.error
    assert job.result["method"] == "special:cube3" and job.result["length"] <= 20 and replays(cube3, job)
    assert job.result["seconds"] < 30  # the 60 s limit is the most it may spend, not what it spends
    job = finished(target_id)
    assert job.status == Job.SUCCEEDED, job.error
    assert job.options["max_length"] == 22 and job.result["length"] <= 22 and replays(cube3, job)


def test_a_cancel_stops_a_running_optimal_3x3x3_solve(worker, alice, repo, client_for):
    client = client_for(alice)
    job_id = submit(client, repo, state=random_state(3), optimal=True, time_limit=120)
    running = job_when(job_id, lambda j: j.status == Job.RUNNING and "phase optimal" in j.progress_text)
    assert "best" in running.progress_text
    asked = time.monotonic()
    assert client.post(f"/api/jobs/{job_id}/cancel/").json()["cancel_requested"] is True
    job = finished(job_id, timeout=30)
    took = time.monotonic() - asked
    assert job.status == Job.CANCELLED, job.error
    # the heartbeat (0.5 s here) brings the cancel in; the search stops within about 0.1 s of it
    assert took < 3, took
