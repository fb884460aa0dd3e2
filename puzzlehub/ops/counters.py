"""Counters shared by every process of a deployment: web processes (gunicorn runs several),
Celery pool children, on any machine. Each counter is a Redis hash in the broker's Redis (under
the broker's key prefix), one field per set of label values, so that a scrape answered by any one
web process reports the totals of all. With the embedded broker (no Redis) they count in this
process only. A count that cannot be written (Redis restarting) is dropped, never an error, and
so are the counts of the next REST seconds: no request waits on a Redis that does not answer."""

from __future__ import annotations

import logging
import time
from collections import defaultdict

import redis

from puzzlehub.celery import app

log = logging.getLogger(__name__)

KEY = "puzzlehub:counter:"
SEPARATOR = "\t"  # between label values in a field name

_clients: dict[str, redis.Redis] = {}
_local: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
_last_warning = 0.0
_resting_until = 0.0  # after a failed write, counts are dropped for a while: no request waits on a dead Redis
REST = 5.0


def broker_redis() -> tuple[redis.Redis | None, str]:
    """A client of the broker's Redis and the broker's key prefix; (None, "") without Redis."""
    url = app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None, ""
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
    return _clients[url], (app.conf.broker_transport_options or {}).get("global_keyprefix", "")


def add(amounts: dict[tuple[str, tuple[str, ...]], float]) -> None:
    """Add each amount, keyed by (counter, label values), in one round trip."""
    global _last_warning, _resting_until
    client, prefix = broker_redis()
    if client is not None and time.monotonic() < _resting_until:
        return
    if client is None:
        for (counter, labels), amount in amounts.items():
            _local[counter][SEPARATOR.join(labels)] += amount
        return
    try:
        with client.pipeline(transaction=False) as pipe:
            for (counter, labels), amount in amounts.items():
                pipe.hincrbyfloat(prefix + KEY + counter, SEPARATOR.join(labels), amount)
            pipe.execute()
    except redis.RedisError as exc:
        _resting_until = time.monotonic() + REST
        if time.monotonic() - _last_warning > 60:  # one line a minute while Redis is away, not one a request
            _last_warning = time.monotonic()
            log.warning("counters not written: %s", exc)


def read(counter: str) -> dict[tuple[str, ...], float]:
    """The counter's values by label values (raises redis.RedisError when Redis does not answer)."""
    client, prefix = broker_redis()
    fields = _local[counter] if client is None else {
        key.decode(): float(value) for key, value in client.hgetall(prefix + KEY + counter).items()
    }
    return {tuple(field.split(SEPARATOR)): value for field, value in fields.items()}
