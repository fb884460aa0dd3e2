"""What every solve is given (the one contract of the generic searches and the specialized
solvers): a time limit (the most it may spend, not what it spends), a target length (stop at the
first answer this short), a node limit, a progress callback and a cancel callback.

Python searches call `tick` every so often; it reports progress and says whether to stop, so that
a time limit is honoured within a fraction of a second and a cancelled job stops between steps.
Compiled kernels cannot call Python back, so a budget also has a stop flag (a one-element array
the kernels read every few thousand nodes): while `watching()`, a small thread asks cancel() every
POLL seconds and raises the flag. The kernels release the interpreter lock (nogil), so that thread,
and a worker's heartbeat, run while they search.
"""

from __future__ import annotations

import math
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

POLL = 0.1  # seconds between cancel() and clock checks while compiled kernels run
CANCELLED, OUT_OF_TIME = 1, 2  # what the stop flag says


class Stopped(Exception):
    """Raised inside a search when its budget says stop; carries why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Cancelled(Stopped):
    """The caller's cancel() said stop before any answer was found (the one cancel exception)."""

    def __init__(self, reason: str = "cancelled"):
        super().__init__(reason)


@dataclass
class Budget:
    time_limit: float | None = None
    node_limit: int | None = None
    progress: Callable[[dict], None] | None = None
    cancel: Callable[[], bool] | None = None
    max_length: int | None = None  # the target length
    progress_every: float = 0.5  # seconds between progress reports
    started: float = field(default_factory=time.monotonic)
    stop_flag: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    _last_report: float = 0.0

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def deadline(self) -> float | None:
        return None if self.time_limit is None else self.started + self.time_limit

    def remaining(self) -> float | None:
        return None if self.time_limit is None else max(0.0, self.time_limit - self.elapsed)

    def kernel_deadline(self) -> float:
        """The deadline on time.perf_counter's clock (what compiled kernels read); inf without a limit."""
        left = self.remaining()
        return math.inf if left is None else time.perf_counter() + left

    def out_of_time(self) -> bool:
        return self.time_limit is not None and self.elapsed >= self.time_limit

    def cancelled(self) -> bool:
        if self.stop_flag[0] == CANCELLED:
            return True
        if self.cancel is not None and self.cancel():
            self.stop_flag[0] = CANCELLED
            return True
        return False

    def stop_reason(self) -> Stopped:
        """Why a kernel that read the stop flag stopped."""
        return Cancelled() if self.cancelled() else Stopped("time limit")

    def met(self, length: int | None) -> bool:
        """Whether an answer of `length` moves reaches the target length."""
        return length is not None and self.max_length is not None and length <= self.max_length

    def tick(self, nodes: int, depth: int = 0, bound: int | None = None) -> None:
        """Report progress now and then; raise Stopped when time, nodes or a cancel say so."""
        now = time.monotonic()
        if self.node_limit is not None and nodes >= self.node_limit:
            raise Stopped("node limit")
        if self.time_limit is not None and now - self.started >= self.time_limit:
            raise Stopped("time limit")
        if now - self._last_report >= self.progress_every:
            self._last_report = now
            if self.cancel is not None and self.cancel():
                raise Stopped("cancelled")
            if self.progress is not None:
                self.progress({"nodes": nodes, "depth": depth, "bound": bound, "seconds": round(now - self.started, 3)})

    def report(self, **info) -> None:
        """Pass progress (nodes, depth or phase, best length so far...) with the time spent."""
        if self.progress is not None:
            self.progress(dict(info, seconds=round(self.elapsed, 3)))

    def with_limit(self, time_limit: float | None) -> Budget:
        """This budget, given a time limit where it had none (a solver's own default)."""
        if self.time_limit is not None or time_limit is None:
            return self
        return Budget(time_limit=time_limit, node_limit=self.node_limit, progress=self.progress, cancel=self.cancel,
                      max_length=self.max_length, started=self.started, stop_flag=self.stop_flag)

    @contextmanager
    def watching(self):
        """Poll cancel() and the clock on a thread while compiled kernels run; they read the
        yielded stop flag (CANCELLED or OUT_OF_TIME)."""
        if self.cancel is None and self.time_limit is None:
            yield self.stop_flag
            return
        done = threading.Event()

        def spent() -> bool:
            if self.cancelled():
                return True
            if self.out_of_time():
                self.stop_flag[0] = OUT_OF_TIME
                return True
            return False

        def watch():
            while not done.wait(POLL) and not spent():
                pass

        if spent():  # already: the kernels stop at their first look
            yield self.stop_flag
            return

        thread = threading.Thread(target=watch, name="budget-cancel", daemon=True)
        thread.start()
        try:
            yield self.stop_flag
        finally:
            done.set()
            thread.join()
