"""The janitor (puzzlehub.jobs.services.sweep) runs in beat's process, in a thread, every
JANITOR_EVERY seconds: expired leases go back to the queue, lost messages are sent again.

Not a task on a queue: behind a backlog of jobs its message would wait (and expire) exactly when
lost messages and silent workers matter most. Beat runs once per deployment; a second sweep
running at the same time is harmless (rows are locked and skipped).
"""

from __future__ import annotations

import logging
import threading
import time

from celery.signals import beat_init
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

QUIET_AFTER_FAILURE = 60.0  # seconds between two warnings while the database or Redis is away


def run_forever() -> None:
    from puzzlehub.jobs.services import sweep  # after Django is set up

    warned = 0.0
    while True:
        time.sleep(settings.JANITOR_EVERY)
        close_old_connections()  # a connection the database dropped (restarted) is opened anew
        try:
            sweep()
        except Exception as exc:  # the database restarting: try again next round
            if time.monotonic() - warned > QUIET_AFTER_FAILURE:
                log.warning("janitor: sweep failed (%s: %s); trying again every %g s",
                            type(exc).__name__, exc, settings.JANITOR_EVERY)
                warned = time.monotonic()


@beat_init.connect
def _start(**kwargs) -> None:
    threading.Thread(target=run_forever, name="janitor", daemon=True).start()
    log.info("janitor: sweeping every %g s", settings.JANITOR_EVERY)
