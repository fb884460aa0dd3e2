"""The budget of the solve (or table build) that runs now, for code below that has none passed to it.

A solve runs phases in turn (analysis, recognition, planning, table building, search,
verification). `limit(budget)` makes a budget (solver.search.budget: time limit, cancel,
progress) the current one; `phase(name)` names what runs now; code that may run long without a
budget of its own (the group analysis, the planner, table builds) calls `check()` between steps,
which raises OutOfTime naming the phase once the time is up, or Cancelled. The budget lives in a
context variable, so concurrent solves in threads keep their own, and code called outside any
solve never stops.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from contextvars import ContextVar

from solver.search.budget import Budget, Cancelled, OutOfTime

__all__ = ["Cancelled", "OutOfTime", "check", "current", "current_phase", "limit", "phase", "remaining", "share", "within"]

_current: ContextVar[Budget | None] = ContextVar("solve_budget", default=None)


@contextmanager
def limit(budget: Budget | float | None):
    """Make `budget` the current one (a number: a plain budget of that many seconds; None: no limit)."""
    if not isinstance(budget, Budget):
        budget = Budget(time_limit=budget, phase="loading")
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def within(budget: Budget):
    """`budget` as the current one unless a solve is running already (whose budget then holds)."""
    running = _current.get()
    return limit(budget) if running is None else nullcontext(running)


def share(fraction: float):
    """A budget inside the current one that runs out after `fraction` of the time left (for a
    phase whose result the solve can do without); the same cancel."""
    outer = _current.get()
    if outer is None:
        return limit(None)
    left = outer.remaining()
    return limit(outer.part(None if left is None else fraction * left))


@contextmanager
def phase(name: str):
    """Mark the phase that runs inside the block (checked once on entry)."""
    budget = _current.get()
    if budget is None:
        yield
        return
    previous, budget.phase = budget.phase, name
    check()
    try:
        yield
    finally:
        budget.phase = previous


def check() -> None:
    """Raise OutOfTime or Cancelled when the current budget says stop; cheap enough for inner loops."""
    budget = _current.get()
    if budget is not None:
        budget.check()


def current() -> Budget | None:
    return _current.get()


def remaining() -> float | None:
    """Seconds left for the current solve (None: no limit, or not inside a solve)."""
    budget = _current.get()
    return None if budget is None else budget.remaining()


def current_phase() -> str | None:
    budget = _current.get()
    return None if budget is None else budget.phase
