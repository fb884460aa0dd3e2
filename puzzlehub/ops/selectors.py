"""Reads for operators, computed when asked (a scrape of /metrics, the operator page) from the
jobs table and the broker, so that every web process answers the same whatever it has served."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone
from puzzlehub.celery import app
from puzzlehub.jobs.dispatch import queue_keys
from puzzlehub.jobs.models import Job
from puzzlehub.ops import counters

# upper bounds (seconds) of the job-duration histogram: from an instant solve to an hour-long build
DURATION_BUCKETS = (0.1, 0.5, 1, 5, 10, 30, 60, 300, 600, 1800, 3600)
WORKERS_SEEN_WITHIN = timedelta(days=1)


def queue_depths() -> dict[str, int]:
    """Messages waiting in each job queue; raises the broker's error when it does not answer.

    Redis: kombu keeps a queue as lists (dispatch.queue_keys). The embedded filesystem broker: one
    file per message, named after its queue."""
    client, prefix = counters.broker_redis()
    if client is None:
        folder = Path((app.conf.broker_transport_options or {}).get("data_folder_in", "."))
        return {queue: len(list(folder.glob(f"*.{queue}.msg"))) for queue in settings.PUZZLEHUB_JOB_QUEUES}
    keys = {queue: queue_keys(queue, prefix) for queue in settings.PUZZLEHUB_JOB_QUEUES}
    with client.pipeline(transaction=False) as pipe:
        for queue in settings.PUZZLEHUB_JOB_QUEUES:
            for key in keys[queue]:
                pipe.llen(key)
        lengths = iter(pipe.execute())
    return {queue: sum(next(lengths) for _ in keys[queue]) for queue in settings.PUZZLEHUB_JOB_QUEUES}


def job_counts() -> dict[tuple[str, str], int]:
    """Jobs by (kind, status), every status of every kind listed (0 when none)."""
    counts = {(kind, status): 0 for kind, _ in Job.KIND_CHOICES for status, _ in Job.STATUS_CHOICES}
    for row in Job.objects.order_by().values("kind", "status").annotate(n=Count("id")):
        counts[row["kind"], row["status"]] = row["n"]
    return counts


def job_durations() -> list[dict]:
    """Finished jobs by (kind, outcome): how many took at most each bucket's seconds (from their first
    start to their end), their count and total seconds."""
    took = F("finished_at") - F("started_at")
    buckets = {f"le{i}": Count("id", filter=Q(took__lte=timedelta(seconds=b))) for i, b in enumerate(DURATION_BUCKETS)}
    rows = (Job.objects.filter(status__in=Job.FINISHED, started_at__isnull=False, finished_at__isnull=False)
            .annotate(took=took).order_by().values("kind", "status")
            .annotate(count=Count("id"), total=Sum("took"), **buckets))
    return [{"kind": row["kind"], "outcome": row["status"], "count": row["count"],
             "seconds": row["total"].total_seconds() if row["total"] else 0.0,
             "buckets": [(b, row[f"le{i}"]) for i, b in enumerate(DURATION_BUCKETS)]} for row in rows]


def running_jobs(limit: int = 100):
    return (Job.objects.filter(status=Job.RUNNING).select_related("user", "repository__owner")
            .order_by("started_at")[:limit])


def workers_seen() -> list[dict]:
    """Workers that claimed or renewed a job within WORKERS_SEEN_WITHIN, latest first: their last
    heartbeat, their running jobs, and whether a running job's lease has run out (the worker went silent)."""
    now = timezone.now()
    rows = (Job.objects.filter(heartbeat_at__gte=now - WORKERS_SEEN_WITHIN).exclude(worker="")
            .order_by().values("worker")
            .annotate(last_heartbeat=Max("heartbeat_at"), jobs=Count("id"),
                      running=Count("id", filter=Q(status=Job.RUNNING)),
                      expired=Count("id", filter=Q(status=Job.RUNNING, lease_expires__lt=now)))
            .order_by("-last_heartbeat"))
    return list(rows)


def recent_failures(limit: int = 20):
    return (Job.objects.filter(status=Job.FAILED).select_related("user", "repository__owner")
            .order_by("-finished_at")[:limit])
