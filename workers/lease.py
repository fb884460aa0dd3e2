"""A worker's hold on one claimed job while the solver runs it.

A thread renews the lease every JOB_HEARTBEAT seconds and writes the latest progress the solver
reported, whether or not the solver calls back often (a compiled table build may not call at all).
It brings back the job's cancel flag; the solver's cancel callback only reads an event, so checking
costs nothing between search steps.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connection

from puzzlehub.jobs import services

log = logging.getLogger(__name__)


class Lease:
    def __init__(self, *, job_id: int, owner: str, time_limit: float):
        self.job_id, self.owner, self.time_limit = job_id, owner, time_limit
        self.cancelled = threading.Event()  # the user asked to stop
        self.lost = threading.Event()  # the janitor gave the job to someone else: stop, write nothing
        self.fraction: float | None = None
        self.text = ""
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"lease-{job_id}", daemon=True)

    def __enter__(self) -> Lease:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()

    def report(self, info: dict) -> None:
        """The solver's progress callback: keep the latest figures for the next heartbeat."""
        seconds = float(info.get("seconds") or 0.0)
        fraction = info.get("fraction")
        if fraction is None:  # the solver cannot tell how far it is: show the share of time used
            fraction = seconds / self.time_limit if self.time_limit else 0.0
        self.fraction = max(0.0, min(0.99, float(fraction)))
        parts = [f"{key} {info[key]:,}" for key in ("depth", "bound", "nodes") if isinstance(info.get(key), int)]
        parts += [str(info["text"])] if info.get("text") else []
        self.text = " · ".join(parts + [f"{seconds:.1f} s"])

    def should_stop(self) -> bool:
        """The solver's cancel callback."""
        return self.cancelled.is_set() or self.lost.is_set()

    def _beat(self) -> None:
        try:
            while not self._done.wait(settings.JOB_HEARTBEAT):
                try:
                    held, cancel = services.heartbeat(job_id=self.job_id, owner=self.owner,
                                                      progress=self.fraction, text=self.text)
                except Exception:  # a database hiccup: the lease is longer than a few missed beats
                    log.exception("job %s: heartbeat failed", self.job_id)
                    connection.close()
                    continue
                if not held:
                    log.warning("job %s: lease lost; stopping without writing a result", self.job_id)
                    self.lost.set()
                    return
                if cancel:
                    self.cancelled.set()
        finally:
            connection.close()  # this thread's own connection
