"""A solve's time limit across all its phases, not only the search.

A solve runs phases in turn (analysis, recognition, planning, table building, search,
verification). `limit(seconds)` opens the clock of one solve; `phase(name)` names what runs now;
code that may run long without a budget of its own (the group analysis, the planner) calls
`check()` between steps, which raises `OutOfTime` naming the phase once the time is up. The clock
lives in a context variable, so concurrent solves in threads keep their own, and code called
outside any solve never stops.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


class OutOfTime(Exception):
    """The time limit ran out in `phase`."""

    def __init__(self, phase: str):
        super().__init__(f"the time limit ran out during {phase}")
        self.phase = phase


@dataclass
class Clock:
    deadline: float | None  # time.monotonic() value; None: no limit
    phase: str = "loading"

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


_clock: ContextVar[Clock | None] = ContextVar("solve_clock", default=None)


@contextmanager
def _running(clock: Clock):
    token = _clock.set(clock)
    try:
        yield clock
    finally:
        _clock.reset(token)


def limit(seconds: float | None):
    """The clock of one solve: `seconds` from now (None: no limit)."""
    return _running(Clock(None if seconds is None else time.monotonic() + seconds))


def share(fraction: float):
    """A clock inside the current one that runs out after `fraction` of the time left (for a
    phase whose result the solve can do without)."""
    outer = _clock.get()
    left = None if outer is None else outer.remaining()
    return _running(Clock(None if left is None else time.monotonic() + fraction * left,
                          outer.phase if outer else "loading"))


@contextmanager
def phase(name: str):
    """Mark the phase that runs inside the block (checked once on entry)."""
    clock = _clock.get()
    if clock is None:
        yield
        return
    previous, clock.phase = clock.phase, name
    check()
    try:
        yield
    finally:
        clock.phase = previous


def check() -> None:
    """Raise OutOfTime when the current solve's time is up; cheap enough for inner loops."""
    clock = _clock.get()
    if clock is not None and clock.deadline is not None and time.monotonic() > clock.deadline:
        raise OutOfTime(clock.phase)


def remaining() -> float | None:
    """Seconds left for the current solve (None: no limit, or not inside a solve)."""
    clock = _clock.get()
    return None if clock is None else clock.remaining()


def current_phase() -> str | None:
    clock = _clock.get()
    return None if clock is None else clock.phase
