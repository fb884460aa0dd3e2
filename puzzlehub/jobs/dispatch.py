"""Sending a job to its queue by task name (the site never imports the workers' code), and
reading which jobs' messages are waiting in the queues.

A send that cannot reach the broker is logged, not raised: the job's row is already committed, and
the janitor sends again every queued job whose message is not waiting in its queue (services.sweep).
"""

import base64
import json
import logging

import redis
from django.conf import settings
from kombu.exceptions import KombuError
from kombu.transport.redis import PRIORITY_STEPS, Channel as RedisChannel

from puzzlehub.celery import app
from puzzlehub.ops.counters import broker_redis

log = logging.getLogger(__name__)


def task_name(kind: str) -> str:
    return f"jobs.{kind}"


def send(*, job_id: int, kind: str, queue: str, time_limit: float) -> bool:
    """Queue the job's message (on `queue`: its kind's, or the catalog's backfill) with Celery
    limits a little above the job's own time limit: the solver stops itself at `time_limit`, the
    soft limit interrupts a step that overran, the hard limit ends the process."""
    grace = settings.JOB_TIME_GRACE
    try:
        app.send_task(
            task_name(kind), args=[job_id], queue=queue,
            soft_time_limit=time_limit + grace, time_limit=time_limit + 2 * grace,
            retry=True, retry_policy={"max_retries": 1, "interval_start": 0.2, "interval_step": 0.2},
        )
    except (KombuError, OSError) as exc:
        log.warning("job %s: the broker is unreachable (%s); the janitor will send it again", job_id, exc)
        return False
    return True


def queue_keys(queue: str, prefix: str) -> list[str]:
    """The Redis lists kombu keeps a queue in: its name, and one per priority step above 0 (name,
    separator, step), all under the broker's key prefix."""
    return [prefix + queue + (f"{RedisChannel.sep}{step}" if step else "") for step in PRIORITY_STEPS]


def _job_id(message: bytes) -> int | None:
    """The job id a message carries (Celery's protocol 2: the body is [args, kwargs, embed])."""
    try:
        envelope = json.loads(message)
        body = envelope["body"]
        if envelope.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0]) if args else None
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def waiting(queues) -> set[int] | None:
    """The ids of the jobs whose messages wait in `queues`; None when that cannot be known (no
    Redis broker, or Redis does not answer). A message a worker has taken is not waiting."""
    client, prefix = broker_redis()
    if client is None:
        return None
    try:
        with client.pipeline(transaction=False) as pipe:
            for queue in queues:
                for key in queue_keys(queue, prefix):
                    pipe.lrange(key, 0, -1)
            lists = pipe.execute()
    except redis.RedisError:
        return None
    return {job_id for messages in lists for job_id in map(_job_id, messages) if job_id is not None}
