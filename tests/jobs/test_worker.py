"""Jobs run by REAL Celery worker processes over Redis against the PostgreSQL test database:
submit, progress, result, cancel, time limit, SIGKILL recovery, lost messages, duplicate messages."""

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from puzzlehub.jobs import dispatch
from puzzlehub.jobs.models import Job
from solver import api as solver_api

from jobwaits import HARD, MEDIUM, finished, job_when, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def submit(alice, repo, client_for):
    """Solves with the plain bidirectional search: its timings here are known (QUICK, MEDIUM, HARD)
    and it compiles nothing, so that each test's job starts at once."""
    def send(**payload) -> int:
        payload.setdefault("method", "bidir")
        response = client_for(alice).post(f"/api/repos/alice/{repo.name}/solves/", payload, format="json")
        assert response.status_code == 202, response.content
        return response.json()["id"]
    return send


def assert_solves(cube3, job: Job):
    start = tuple(job.options["state"])
    moves = job.result["solution"]
    assert solver_api.apply_moves(cube3, moves, start) in cube3.goal_set  # replayed here, independently
    assert job.result["verified"] is True and job.result["length"] == len(moves)


def test_a_solve_runs_on_a_worker_and_its_answer_is_shortest_and_replays(worker, submit, client_for, alice, cube3):
    job = finished(submit(scramble="R U F2"))
    assert job.status == Job.SUCCEEDED, job.error
    assert_solves(cube3, job)
    # the bidirectional search is optimal: a plain breadth-first search finds no shorter answer
    plain = solver_api.solve(cube3, tuple(job.options["state"]), method="bfs", time_limit=30)
    assert job.result["length"] == plain["length"] == 3
    assert job.attempts == 1 and job.worker and job.started_at <= job.finished_at and job.progress == 1.0
    body = client_for(alice).get(f"/api/jobs/{job.id}/").json()
    assert {"id", "kind", "status", "progress", "result", "error", "created_at", "started_at", "finished_at",
            "attempts"} <= set(body)
    assert body["result"]["solution"] == job.result["solution"]


def test_progress_shows_while_running_and_cancel_stops_queued_and_running_jobs(worker, submit, client_for, alice):
    long_id = submit(scramble=HARD, time_limit=120)
    running = job_when(long_id, lambda j: j.status == Job.RUNNING and j.progress_text and j.progress > 0)
    assert "nodes" in running.progress_text
    queued_id = submit(scramble="F")  # the only worker slot is busy: this one waits
    time.sleep(1)
    assert Job.objects.get(id=queued_id).status == Job.QUEUED
    client = client_for(alice)
    assert client.post(f"/api/jobs/{queued_id}/cancel/").json()["status"] == "cancelled"  # at once
    asked = time.monotonic()
    assert client.post(f"/api/jobs/{long_id}/cancel/").json()["cancel_requested"] is True
    stopped = finished(long_id, timeout=20)
    assert stopped.status == Job.CANCELLED and time.monotonic() - asked < 10
    assert stopped.progress > 0 and "nodes" in stopped.progress_text and stopped.result is not None
    time.sleep(1.5)  # the worker is free now; the cancelled queued job still never ran
    assert Job.objects.get(id=queued_id).attempts == 0


def test_a_time_limit_stops_the_job_with_the_reason(worker, submit):
    started = time.monotonic()
    job = finished(submit(scramble=HARD, time_limit=1.5), timeout=30)
    assert job.status == Job.FAILED and job.error.startswith("time limit")
    assert job.attempts == 1 and time.monotonic() - started < 20


def test_the_same_solve_again_answers_from_the_stored_result(worker, submit, client_for, alice, cube3):
    first = finished(submit(scramble="L D2"))
    response = client_for(alice).post(f"/api/repos/alice/{first.repository.name}/solves/",
                                      {"scramble": "L D2", "method": "bidir"}, format="json")
    assert response.json()["status"] == "succeeded"
    again = Job.objects.get(id=response.json()["id"])
    assert again.result["cached_from"] == first.id and again.attempts == 0
    assert_solves(cube3, again)


def test_a_worker_killed_with_sigkill_mid_job_is_replaced_by_another_and_one_result_is_stored(workers, transactional_db, submit, cube3):
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)
    workers.start("doomed", beat=False)
    job_id = submit(scramble=MEDIUM, time_limit=120)
    first = job_when(job_id, lambda j: j.status == Job.RUNNING)
    workers.kill("doomed", signal.SIGKILL)  # no chance to write anything
    killed_at = time.monotonic()
    workers.start("main")  # another machine's worker, with the janitor's schedule
    job = finished(job_id, timeout=120)
    assert job.status == Job.SUCCEEDED, job.error
    assert job.attempts == 2 and job.worker != first.worker
    assert time.monotonic() - killed_at > 2  # not before the lease ran out
    assert_solves(cube3, job)
    assert Job.objects.count() == 1


def test_jobs_whose_messages_were_lost_finish_within_seconds_each_exactly_once(workers, transactional_db, broker,
                                                                               submit, cube3):
    """Redis loses the queued messages (restarted without persistence: this run's keys deleted)
    while five jobs (the quota) wait. With the production figures (janitor every 3 s, resend after 5 s, the old
    fallback after 300 s) every job finishes within seconds of a worker coming up, each run once."""
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)
    job_ids = [submit(scramble=scramble) for scramble in ("B U'", "R U", "F2 L", "D R'", "U2 B")]
    assert broker.queued("solve") >= len(job_ids)  # sent on commit, before the response
    broker.lose_everything()
    assert broker.queued("solve") == 0
    production = {"PUZZLEHUB_JANITOR_EVERY": "3", "PUZZLEHUB_JOB_RESEND_AFTER": "5", "PUZZLEHUB_JOB_REDISPATCH": "300"}
    try:
        workers.start("resend", concurrency=2, env=production)
        ready = time.monotonic()
        jobs = [finished(job_id, timeout=60) for job_id in job_ids]
        took = time.monotonic() - ready
        time.sleep(2)  # any second message sent for a job arrives and finds nothing to do
    finally:
        workers.kill("resend", signal.SIGTERM)
    assert took < 10, f"the lost jobs finished {took:.1f} s after the worker was ready"
    for job in jobs:
        job.refresh_from_db()
        assert job.status == Job.SUCCEEDED and job.attempts == 1, (job.id, job.status, job.attempts, job.error)
        assert job.dispatched_at > job.created_at  # sent again by the janitor
        assert_solves(cube3, job)
    log = workers.logs["resend"].read_text()
    assert sum(f"job {job_id} (solve): queued -> running" in log for job_id in job_ids) == len(job_ids)


def test_duplicate_messages_run_a_job_once(worker, submit, cube3):
    worker.start("second", beat=False)
    try:
        job_id = submit(scramble="D' U2 L2 D B F2 B F L D", time_limit=120)  # about a second of work
        job = Job.objects.get(id=job_id)
        for _ in range(3):
            dispatch.send(job_id=job_id, kind=job.kind, queue=job.queue, time_limit=job.time_limit)
        job = finished(job_id, timeout=60)
        time.sleep(1)  # the other messages arrive and find nothing to do
        job = Job.objects.get(id=job_id)
        assert job.status == Job.SUCCEEDED and job.attempts == 1
        assert_solves(cube3, job)
    finally:
        worker.kill("second", signal.SIGTERM)


def test_a_worker_main_process_that_dies_is_started_again_by_its_supervisor(workers, transactional_db, submit, cube3):
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)
    supervisor = workers.start("main", supervised=True)
    try:
        def celery_main():
            children = subprocess.run(["pgrep", "-P", str(supervisor.pid)], capture_output=True, text=True).stdout.split()
            found = []
            for pid in children:
                try:
                    if "celery" in Path(f"/proc/{pid}/cmdline").read_text():
                        found.append(int(pid))
                except FileNotFoundError:  # gone since pgrep saw it
                    pass
            return found
        (first,) = wait_for(celery_main)
        os.kill(first, signal.SIGKILL)
        (second,) = wait_for(lambda: [pid for pid in celery_main() if pid != first], timeout=30)
        job = finished(submit(scramble="U' F"), timeout=90)
        assert job.status == Job.SUCCEEDED  # served by the new main process
        assert_solves(cube3, job)
    finally:
        workers.kill("main", signal.SIGTERM)
