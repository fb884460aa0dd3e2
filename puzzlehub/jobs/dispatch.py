"""Sending a job to its queue by task name: the site never imports the workers' code.

A send that cannot reach the broker is logged, not raised: the job's row is already committed, and
the janitor sends every queued job that has not started again (services.sweep).
"""

import logging

from django.conf import settings
from kombu.exceptions import KombuError

from puzzlehub.celery import app

log = logging.getLogger(__name__)


def task_name(kind: str) -> str:
    return f"jobs.{kind}"


def send(*, job_id: int, kind: str, time_limit: float) -> bool:
    """Queue the job's message with Celery limits a little above the job's own time limit: the
    solver stops itself at `time_limit`, the soft limit interrupts a step that overran, the hard
    limit ends the process."""
    grace = settings.JOB_TIME_GRACE
    try:
        app.send_task(
            task_name(kind), args=[job_id], queue=kind,
            soft_time_limit=time_limit + grace, time_limit=time_limit + 2 * grace,
            retry=True, retry_policy={"max_retries": 1, "interval_start": 0.2, "interval_step": 0.2},
        )
    except (KombuError, OSError) as exc:
        log.warning("job %s: the broker is unreachable (%s); the janitor will send it again", job_id, exc)
        return False
    return True
