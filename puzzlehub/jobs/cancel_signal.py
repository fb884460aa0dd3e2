"""A cancel reaches the worker running the job within a fraction of a second, not at its next
heartbeat: the site announces it in the broker's Redis and the worker's heartbeat thread looks for
announcements of the jobs it holds every LISTEN seconds (one MGET), while it renews leases in the
database only every JOB_HEARTBEAT seconds (2 s in production). The job row's `cancel_requested`
stays the truth: without Redis (the embedded broker) or while it is away, the heartbeat brings the
cancel as before."""

from __future__ import annotations

import logging

import redis

from puzzlehub.ops.counters import broker_redis

log = logging.getLogger(__name__)

KEY = "puzzlehub:cancel:"
KEEP = 3600  # seconds an announcement lives: far longer than any heartbeat gap
LISTEN = 0.2  # seconds between a worker's looks


def announce(job_id: int) -> None:
    client, prefix = broker_redis()
    if client is None:
        return
    try:
        client.set(f"{prefix}{KEY}{job_id}", 1, ex=KEEP)
    except redis.RedisError as exc:  # the heartbeat brings the cancel from the job row
        log.warning("cancel of job %s not announced: %s", job_id, exc)


def announced(job_ids: list[int]) -> set[int]:
    """Which of `job_ids` have a cancel announced (none when Redis does not answer)."""
    client, prefix = broker_redis()
    if client is None or not job_ids:
        return set()
    try:
        found = client.mget([f"{prefix}{KEY}{job_id}" for job_id in job_ids])
    except redis.RedisError:
        return set()
    return {job_id for job_id, value in zip(job_ids, found) if value is not None}
