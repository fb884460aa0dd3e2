"""The lease protocol on the real database: claims are exclusive, only the holder writes, the janitor
requeues silent jobs, fails them after their last attempt, and resends lost messages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from puzzlehub.jobs import dispatch, services
from puzzlehub.jobs.models import Job


@pytest.fixture
def job(make_user, make_repo):
    alice = make_user("alice")
    return services.submit_solve(user=alice, repository=make_repo(alice), scramble="R U")


def expire(job_id):
    Job.objects.filter(id=job_id).update(lease_expires=timezone.now() - timedelta(seconds=1))


def test_only_one_of_two_deliveries_claims_the_job(job):
    first = services.claim(job_id=job.id, owner="a:1", worker="a")
    second = services.claim(job_id=job.id, owner="b:1", worker="b")
    assert first is not None and first.status == Job.RUNNING and first.attempts == 1
    assert second is None
    assert Job.objects.get(id=job.id).lease_owner == "a:1"


def test_only_the_lease_holder_writes_the_outcome(job):
    services.claim(job_id=job.id, owner="a:1", worker="a")
    expire(job.id)
    assert services.sweep()["requeued"] == 1
    assert services.claim(job_id=job.id, owner="b:1", worker="b").attempts == 2
    # the first worker comes back from the dead: its heartbeat and its result are refused
    assert services.heartbeat(job_id=job.id, owner="a:1") == (False, False)
    assert not services.finish(job_id=job.id, owner="a:1", status=Job.SUCCEEDED, result={"solution": ["x"]})
    assert services.finish(job_id=job.id, owner="b:1", status=Job.SUCCEEDED, result={"solution": ["U'", "R'"]})
    done = Job.objects.get(id=job.id)
    assert done.status == Job.SUCCEEDED and done.result == {"solution": ["U'", "R'"]} and done.worker == "b"
    assert not services.finish(job_id=job.id, owner="b:1", status=Job.FAILED)  # written once


def test_a_live_lease_is_not_taken_and_heartbeats_keep_it(job, settings):
    services.claim(job_id=job.id, owner="a:1", worker="a")
    before = Job.objects.get(id=job.id).lease_expires
    assert services.heartbeat(job_id=job.id, owner="a:1", progress=0.25, text="depth 3") == (True, False)
    after = Job.objects.get(id=job.id)
    assert after.lease_expires > before and after.progress == 0.25 and after.progress_text == "depth 3"
    assert services.sweep()["requeued"] == 0
    assert services.claim(job_id=job.id, owner="b:1", worker="b") is None


def test_an_expired_lease_can_be_claimed_by_a_redelivered_message(job):
    services.claim(job_id=job.id, owner="a:1", worker="a")
    expire(job.id)
    taken = services.claim(job_id=job.id, owner="b:1", worker="b")
    assert taken.lease_owner == "b:1" and taken.attempts == 2


def test_the_janitor_fails_a_job_after_its_last_attempt_with_the_reason(job, settings):
    for attempt in range(1, settings.JOB_ATTEMPTS + 1):
        assert services.claim(job_id=job.id, owner=f"w:{attempt}", worker="w").attempts == attempt
        expire(job.id)
        counts = services.sweep()
    assert counts["failed"] == 1
    failed = Job.objects.get(id=job.id)
    assert failed.status == Job.FAILED and f"after {settings.JOB_ATTEMPTS} attempts" in failed.error
    assert services.claim(job_id=job.id, owner="w:9", worker="w") is None


def test_a_cancel_reaches_the_worker_through_its_heartbeat(job):
    services.claim(job_id=job.id, owner="a:1", worker="a")
    assert services.cancel(job=job, user=job.user).status == Job.RUNNING  # running: asked, not forced
    assert services.heartbeat(job_id=job.id, owner="a:1") == (True, True)
    assert services.finish(job_id=job.id, owner="a:1", status=Job.CANCELLED, progress=0.4, text="depth 5")
    done = Job.objects.get(id=job.id)
    assert done.status == Job.CANCELLED and done.progress == 0.4 and done.progress_text == "depth 5"


def test_queued_jobs_whose_message_is_no_longer_in_the_queue_are_sent_again(job, settings, broker):
    """(The real resend through Redis to a worker is in test_worker.py.)"""
    assert services.sweep()["resent"] == 0  # just sent: not lost yet
    old = timezone.now() - timedelta(seconds=settings.JOB_RESEND_AFTER + 1)
    Job.objects.filter(id=job.id).update(dispatched_at=old)
    dispatch.send(job_id=job.id, kind=job.kind, queue=job.queue, time_limit=job.time_limit)  # its message waits in the queue
    assert services.sweep()["resent"] == 0
    broker.lose_everything()  # Redis restarted: the message is gone
    assert services.sweep()["resent"] == 1
    assert Job.objects.get(id=job.id).dispatched_at > old
    assert services.sweep()["resent"] == 0  # its clock restarted


def test_a_job_waiting_for_another_build_is_sent_only_after_the_fallback(job, settings, broker):
    Job.objects.filter(id=job.id).update(dispatched_at=None)  # never sent: it waits for another's tables
    between = (settings.JOB_RESEND_AFTER + settings.JOB_REDISPATCH) / 2  # long past the quick resend
    Job.objects.filter(id=job.id).update(created_at=timezone.now() - timedelta(seconds=between))
    assert services.sweep()["resent"] == 0
    Job.objects.filter(id=job.id).update(created_at=timezone.now() - timedelta(seconds=settings.JOB_REDISPATCH + 1))
    assert services.sweep()["resent"] == 1
