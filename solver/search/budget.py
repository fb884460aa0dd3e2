"""What every solve is given (the one contract of the generic searches and the specialized
solvers): a time limit (the most it may spend, not what it spends), a target length (stop at the
first answer this short), a node limit, a progress callback and a cancel callback.

Python searches call `tick` every so often; it reports progress and says whether to stop, so that
a time limit is honoured within a fraction of a second and a cancelled job stops between steps;
code without nodes to count (table plans, analysis, the big-cube phases) calls `check`.
Compiled kernels cannot call Python back, so a budget also has a stop flag (a one-element array
the kernels read every few thousand nodes): while `watching()`, a small thread asks cancel() every
POLL seconds and raises the flag. The kernels release the interpreter lock (nogil), so that thread,
and a worker's heartbeat, run while they search.

Compiling kernels (or loading them from numba's cache) is not the solve's time: a budget's clock
leaves out what the process spent compiling since the budget began (`compile_seconds`), so a
cold cache neither eats a time limit nor shows in a solve's `seconds`.

`solver.deadline` holds the budget of the solve that runs now, for code deep below that has no
budget passed to it (table builds, the group analysis); tables built under a budget are listed
in its `built`, shared with its parts.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

POLL = 0.1  # seconds between cancel() and clock checks while compiled kernels run
CANCEL_EVERY = 0.05  # seconds between two cancel() calls from `tick` and `check` (cheap, but not free)
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


class OutOfTime(Stopped):
    """The time limit ran out in `phase`."""

    def __init__(self, phase: str):
        super().__init__("time limit")
        self.phase = phase

    def __str__(self) -> str:
        return f"the time limit ran out during {self.phase}"


class _CompileClock:
    """Seconds this process has spent in numba's compiler (compiling, or loading from its cache)
    and in other one-time work: numba's compiler lock is held for exactly that, and nested spells
    count once. Spells still running count too (`now`): a budget's watching thread must not see
    a minute of compiling in the main thread as a minute of search."""

    def __init__(self):
        self.total = 0.0  # of the spells ended
        self.local = threading.local()
        self.running: dict[int, float] = {}  # thread -> when its spell running now began
        self.installed = False

    def enter(self) -> None:
        depth = getattr(self.local, "depth", 0)
        if depth == 0:
            self.running[threading.get_ident()] = time.monotonic()
        self.local.depth = depth + 1

    def leave(self) -> None:
        self.local.depth -= 1
        if self.local.depth == 0:
            me = threading.get_ident()
            self.total += time.monotonic() - self.running[me]  # counted before it leaves `running`: never missed
            del self.running[me]

    def now(self) -> float:
        moment = time.monotonic()
        return self.total + sum(moment - since for since in list(self.running.values()))

    def install(self) -> None:
        """Listen to numba's compiler-lock events, once numba is loaded (`puzzle info` and the like
        never load it)."""
        if self.installed or "numba" not in sys.modules:
            return
        from numba.core import event

        clock = self

        class Listener(event.Listener):
            def on_start(self, ev):
                clock.enter()

            def on_end(self, ev):
                clock.leave()

        event.register("numba:compiler_lock", Listener())
        self.installed = True


compiling = _CompileClock()


@contextmanager
def one_time_work():
    """Time spent inside is one-time work for the machine (a specialized solver's tables), left
    out of every budget's time and counted with compiling."""
    compiling.enter()
    try:
        yield
    finally:
        compiling.leave()


@dataclass
class Budget:
    time_limit: float | None = None
    node_limit: int | None = None
    progress: Callable[[dict], None] | None = None
    cancel: Callable[[], bool] | None = None
    max_length: int | None = None  # the target length
    optimal: bool = False  # the caller wants an answer proven shortest
    progress_every: float = 0.5  # seconds between progress reports
    started: float = field(default_factory=time.monotonic)
    stop_flag: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    phase: str = "search"  # what runs now, named when the time runs out
    built: list = field(default_factory=list)  # tables built under this budget (paths)
    compiled_before: float = field(default_factory=lambda: compiling.now())
    _last_report: float = 0.0
    _last_cancel: float = 0.0

    def __post_init__(self):
        compiling.install()

    @property
    def compile_seconds(self) -> float:
        """Seconds spent compiling kernels (and in other one-time work) since the budget began."""
        return compiling.now() - self.compiled_before

    @property
    def elapsed(self) -> float:
        """Seconds spent since the budget began, compiling left out."""
        return time.monotonic() - self.started - self.compile_seconds

    @property
    def deadline(self) -> float | None:
        """The end on time.monotonic's clock as of now: compiling met later moves it on (a cold
        numba cache compiling for a minute inside a phase must not leave the finisher no time)."""
        left = self.remaining()
        return None if left is None else time.monotonic() + left

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

    def check(self) -> None:
        """Raise OutOfTime (naming the phase) or Cancelled when the budget says stop; cheap enough
        for inner loops (cancel() is asked at most every CANCEL_EVERY seconds)."""
        if self.out_of_time():
            raise OutOfTime(self.phase)
        if self.stop_flag[0] == CANCELLED:
            raise Cancelled()
        if self.cancel is not None:
            now = time.monotonic()
            if now - self._last_cancel >= CANCEL_EVERY:
                self._last_cancel = now
                if self.cancelled():
                    raise Cancelled()

    def stop_reason(self) -> Stopped:
        """Why a kernel that read the stop flag stopped."""
        return Cancelled() if self.cancelled() else OutOfTime(self.phase)

    def met(self, length: int | None) -> bool:
        """Whether an answer of `length` moves reaches the target length."""
        return length is not None and self.max_length is not None and length <= self.max_length

    def tick(self, nodes: int, depth: int = 0, bound: int | None = None, **info) -> None:
        """Report progress now and then; raise Stopped when time, nodes or a cancel say so."""
        if self.node_limit is not None and nodes >= self.node_limit:
            raise Stopped("node limit")
        self.check()
        self.now_and_then(**{"nodes": nodes, "depth": depth, "bound": bound, "phase": self.phase, **info})

    def report(self, **info) -> None:
        """Pass progress (nodes, depth or phase, best length so far...) with the time spent."""
        if self.progress is not None:
            self.progress(dict(info, seconds=round(self.elapsed, 3)))

    def now_and_then(self, **info) -> None:
        """`report`, at most every progress_every seconds (for loops that would report too often)."""
        now = time.monotonic()
        if now - self._last_report >= self.progress_every:
            self._last_report = now
            self.report(**info)

    def part(self, time_limit: float | None = None, **changes) -> Budget:
        """A budget for one part of this one: at most `time_limit` seconds (never more than is
        left), the same cancel, progress, target and list of built tables; its own stop flag, so
        that its running out of time leaves this one going."""
        left = self.remaining()
        limit = left if time_limit is None else time_limit if left is None else min(time_limit, left)
        fields = dict(time_limit=limit, node_limit=self.node_limit, progress=self.progress, cancel=self.cancel,
                      max_length=self.max_length, optimal=self.optimal, progress_every=self.progress_every,
                      phase=self.phase, built=self.built)
        fields.update(changes)
        part = Budget(**fields)
        if self.stop_flag[0] == CANCELLED:
            part.stop_flag[0] = CANCELLED
        return part

    def with_limit(self, time_limit: float | None) -> Budget:
        """This budget, given a time limit where it had none (a solver's own default)."""
        if self.time_limit is not None or time_limit is None:
            return self
        return self.part(time_limit, started=self.started, compiled_before=self.compiled_before)

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
