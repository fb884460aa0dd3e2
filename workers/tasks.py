"""Celery tasks: one per queue, thin. Each loads its job, claims it, runs the solver under a lease
and writes the outcome back through puzzlehub.jobs.services (the janitor runs in beat: workers.janitor).

Messages carry only the job id (JSON). A message delivered twice finds the job claimed or finished
and does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db.backends.signals import connection_created

from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from solver import memory
from solver.errors import PuzzleError
from workers import runners
from workers.lease import Lease

log = logging.getLogger(__name__)


@connection_created.connect
def _commit_without_waiting_for_disk(sender, connection, **kwargs) -> None:
    """A worker's writes (claim, heartbeat, outcome) do not wait for the disk. One lost in a
    database crash is redone by the lease protocol itself: a lost claim leaves the job queued, a
    lost outcome leaves a lease that expires, and the job runs again."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO OFF")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run(job_id: int, runner) -> str:
    name = worker_name()
    owner = f"{name}:{uuid.uuid4().hex[:12]}"  # one token per attempt, even in the same process
    job = services.claim(job_id=job_id, owner=owner, worker=name)
    if job is None:
        return "not claimed"  # finished, cancelled, or held by a live lease elsewhere
    lease = Lease(job_id=job.id, owner=owner, time_limit=job.time_limit)
    try:
        with lease:
            status, result, error = runner(job, lease)
    except SoftTimeLimitExceeded:
        status, result, error = Job.FAILED, None, f"time limit: stopped after {job.time_limit:g} s and a grace period"
    except PuzzleError as exc:
        status, result, error = Job.FAILED, None, str(exc)
    except Exception as exc:  # a bug: record it on the job rather than retrying it forever
        log.exception("job %s failed", job_id)
        status, result, error = Job.FAILED, None, f"internal error: {type(exc).__name__}: {exc}"
    memory.give_back()  # the job's transient tables were freed: keep the process's size flat
    if not services.finish(job_id=job.id, owner=owner, status=status, result=result, error=error,
                           progress=lease.fraction, text=lease.text):
        log.warning("job %s: lease lost before finishing; outcome discarded", job_id)
        return "lease lost"
    return status


@shared_task(name="jobs.solve", acks_late=True, ignore_result=True)
def solve(job_id: int) -> str:
    return run(job_id, runners.solve)


@shared_task(name="jobs.pdb", acks_late=True, ignore_result=True)
def pattern_database(job_id: int) -> str:
    return run(job_id, runners.pattern_database)


@shared_task(name="jobs.discover", acks_late=True, ignore_result=True)
def discover(job_id: int) -> str:
    return run(job_id, runners.discovery)


@shared_task(name="revisions.analyse", ignore_result=True, soft_time_limit=600, time_limit=660)
def analyse_revisions(content_hash: str) -> int:
    """The facts a request had no time for (puzzlehub.repos.analysis), for every pending revision of
    the puzzle: the counts, and the drawing of a layout-less puzzle. Sent twice, the second finds
    nothing pending."""
    from django.db.models import Q

    from puzzlehub.repos.analysis import fill_pending, fill_presentation
    from puzzlehub.repos.models import Revision
    from puzzlehub.repos.services import load_definition

    waiting = Revision.objects.filter(Q(facts__pending=True) | Q(facts__layout_pending=True), content_hash=content_hash)
    first = waiting.first()
    if first is None:
        return 0
    defn = load_definition(first.definition)
    done = 0
    if waiting.filter(facts__layout_pending=True).exists():
        done += fill_presentation(content_hash, defn)
    if waiting.filter(facts__pending=True).exists():
        done += fill_pending(content_hash, defn)
    return done
