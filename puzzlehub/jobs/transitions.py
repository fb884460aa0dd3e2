"""One log line per change of a job's state (logger `puzzlehub.jobs.transitions`): job id, kind,
from and to state, the seconds spent in the state it leaves, and the worker. Lines are written
once the change is committed (a rolled-back change never happened). A new job comes from `new`.

Seconds in the state left: queued, since the job was created (first run) or sent again; running,
since it first started. Lease expiries are also counted for /metrics (puzzlehub.ops.counters).
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone

from puzzlehub.ops import counters

log = logging.getLogger("puzzlehub.jobs.transitions")

NEW = "new"


def record(*, job_id: int, kind: str, before: str, after: str, since: datetime | None = None,
           worker: str = "") -> None:
    transaction.on_commit(partial(_write, job_id, kind, before, after, since, worker, timezone.now()))


def lease_expired(*, kind: str) -> None:
    transaction.on_commit(partial(counters.add, {("lease_expiries", (kind,)): 1}))


def _write(job_id, kind, before, after, since, worker, at) -> None:
    duration = None if since is None else round(max(0.0, (at - since).total_seconds()) * 1000, 1)
    log.info("job %s (%s): %s -> %s", job_id, kind, before, after, extra={
        "job_id": job_id, "kind": kind, "from": before, "to": after, "duration_ms": duration,
        "worker": worker or None,
    })
