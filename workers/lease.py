"""A worker's hold on the jobs it has claimed while the solver runs them.

One heartbeat thread per worker process renews the lease of every job the process holds, every
JOB_HEARTBEAT seconds, and writes the latest progress the solver reported, whether or not the
solver calls back often (a compiled table build may not call at all). It brings back the job's
cancel flag, and between beats it listens for cancels the site announced (jobs.cancel_signal), so a
cancel stops a job within a fraction of a second whatever the heartbeat; the solver's cancel
callback only reads an event, so checking costs nothing between search steps. The thread is
started once and kept: a small job pays for no thread or connection of its own.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.conf import settings
from django.db import connection

from puzzlehub.jobs import cancel_signal, services

log = logging.getLogger(__name__)


class Lease:
    def __init__(self, *, job_id: int, owner: str, time_limit: float):
        self.job_id, self.owner, self.time_limit = job_id, owner, time_limit
        self.cancelled = threading.Event()  # the user asked to stop
        self.lost = threading.Event()  # the janitor gave the job to someone else: stop, write nothing
        self.fraction: float | None = None
        self.text = ""
        self.claimed = time.monotonic()

    def __enter__(self) -> Lease:
        _heartbeat().hold(self)
        return self

    def __exit__(self, *exc) -> None:
        _heartbeat().release(self)

    def report(self, info: dict) -> None:
        """The solver's progress callback: keep the latest figures for the next heartbeat."""
        seconds = float(info.get("seconds") or 0.0)
        fraction = info.get("fraction")
        if fraction is None:  # the solver cannot tell how far it is: show the share of time used
            fraction = seconds / self.time_limit if self.time_limit else 0.0
        self.fraction = max(0.0, min(0.99, float(fraction)))
        parts = [f"phase {info['phase']}"] if info.get("phase") is not None else []
        parts += [f"{key} {info[key]:,}" for key in ("depth", "bound", "nodes") if isinstance(info.get(key), int)]
        parts += [f"best {info['best']} moves"] if isinstance(info.get("best"), int) else []
        parts += [str(info["text"])] if info.get("text") else []
        self.text = " · ".join(parts + [f"{seconds:.1f} s"])

    def should_stop(self) -> bool:
        """The solver's cancel callback."""
        return self.cancelled.is_set() or self.lost.is_set()

    def beat(self) -> None:
        """Renew the lease once and write progress; sets `lost` or `cancelled` as the answer says."""
        held, cancel = services.heartbeat(job_id=self.job_id, owner=self.owner, progress=self.fraction, text=self.text)
        if not held:
            log.warning("job %s: lease lost; stopping without writing a result", self.job_id)
            self.lost.set()
        elif cancel:
            self.cancelled.set()


class Heartbeat:
    """The process's heartbeat thread and the leases it keeps."""

    def __init__(self):
        self.leases: dict[str, Lease] = {}
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="lease-heartbeat", daemon=True)
        self.thread.start()

    def hold(self, lease: Lease) -> None:
        with self.lock:
            self.leases[lease.owner] = lease

    def release(self, lease: Lease) -> None:
        with self.lock:
            self.leases.pop(lease.owner, None)

    def _run(self) -> None:
        # a lease is at least half a heartbeat old when it is first renewed: jobs shorter than that
        # are never written to by this thread; cancels are listened for far more often
        next_beat = time.monotonic() + settings.JOB_HEARTBEAT
        while True:
            time.sleep(min(cancel_signal.LISTEN, settings.JOB_HEARTBEAT))
            with self.lock:
                held = list(self.leases.values())
            self._listen(held)
            if time.monotonic() < next_beat:
                continue
            next_beat = time.monotonic() + settings.JOB_HEARTBEAT
            old_enough = time.monotonic() - settings.JOB_HEARTBEAT / 2
            for lease in held:
                if lease.claimed > old_enough or lease.lost.is_set() or lease.owner not in self.leases:
                    continue  # too new, lost, or finished meanwhile
                try:
                    lease.beat()
                except Exception:  # a database hiccup: the lease is longer than a few missed beats
                    log.exception("job %s: heartbeat failed", lease.job_id)
                    connection.close()

    @staticmethod
    def _listen(held: list[Lease]) -> None:
        waiting = [lease for lease in held if not lease.cancelled.is_set()]
        if not waiting:
            return
        cancelled = cancel_signal.announced([lease.job_id for lease in waiting])
        for lease in waiting:
            if lease.job_id in cancelled:
                lease.cancelled.set()


_heartbeats: dict[int, Heartbeat] = {}  # by process id: a forked child starts its own thread
_starting = threading.Lock()


def _heartbeat() -> Heartbeat:
    pid = os.getpid()
    with _starting:
        if pid not in _heartbeats:
            _heartbeats[pid] = Heartbeat()
        return _heartbeats[pid]
