"""Choosing what to tabulate for a puzzle under a memory budget.

The whole state space when its table fits (then every solve is a walk down the table); otherwise,
per orbit, the orbit whole when it fits, else consecutive chunks of its classes as large as fit,
largest first, each one pattern database. Orbits of more than MAX_SLOTS slots are never whole:
their chunks are the few classes whose pieces rank within the cap (solver.search.ranking's wide
factors), as a ring's two crossing balls. No knowledge of particular puzzles: only orbit sizes,
twists and classes of look-alike pieces enter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver import deadline
from solver.errors import PuzzleError
from solver.search.pdb import DEFAULT_BUDGET, MAX_ENTRIES, build_seconds, stored_bytes
from solver.search.ranking import MAX_SLOTS, RANK_LIMIT, Part, Projection, full_projection, make_ranker


@dataclass
class Plan:
    full: Projection | None  # the full distance table, when it fits
    databases: list[Projection] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    additive: bool = False  # the databases count disjoint moves: their sum is the bound


def entries(model, projection: Projection) -> float:
    """Size of the projection's table (infinite when it cannot be ranked at all)."""
    try:
        return make_ranker(model, projection).size
    except PuzzleError:
        return float("inf")


def full_size(model) -> int | None:
    if not model.orbits or any(o.n > MAX_SLOTS for o in model.orbits):
        return None
    try:
        size = entries(model, full_projection(model))
    except PuzzleError:
        return None
    return size if size < RANK_LIMIT else None


MAX_BUILD_SECONDS = 60.0  # a table the plan asks for builds within about a minute (estimated)


def _fits(model, part: Part, cap: int) -> bool:
    """At most `cap` entries, and quick enough to build: a part too large for move tables is
    searched by ranking every successor, tens of times slower, so it is kept smaller."""
    deadline.check()  # planning a large puzzle ranks many candidate parts
    projection = Projection((part,))
    return entries(model, projection) <= cap and build_seconds(model, projection) <= MAX_BUILD_SECONDS


WIDE_ENTRIES = 1 << 22  # a table over a few pieces of an orbit of more than MAX_SLOTS slots (built in about a second)


def _chunks(model, r: int, cap: int) -> list[Part]:
    """Consecutive runs of the orbit's classes, each run as large as `cap` entries allow. An orbit
    too large for a slot mask gets only its first run, of at most WIDE_ENTRIES: the fallback's
    first phase places those pieces, and later runs would be placed keeping them, too deep a
    search for tables that see a few of so many pieces (the finisher places the rest)."""
    orb = model.orbits[r]
    twist = orb.k > 1
    wide = orb.n > MAX_SLOTS
    if wide:
        cap = min(cap, WIDE_ENTRIES)
    else:
        whole = Part(r, tuple(range(orb.n)), twist)
        if _fits(model, whole, cap):
            return [whole]
    classes = [list(np.flatnonzero(orb.classes == c)) for c in dict.fromkeys(orb.classes.tolist())]
    parts, current = [], []
    for members in classes:
        trial = current + members
        if _fits(model, Part(r, tuple(int(p) for p in trial), twist), cap):
            current = trial
            continue
        if current:
            parts.append(Part(r, tuple(int(p) for p in current), twist))
            if wide:
                return parts
        single = Part(r, tuple(int(p) for p in members), twist)
        current = members if _fits(model, single, cap) else []
    if current and len(current) < orb.n:
        parts.append(Part(r, tuple(int(p) for p in current), twist))
    return parts


def free_class(model) -> int | None:
    """The class every move moves, when each move case moves exactly it and one other piece (a
    sliding puzzle's blank): then databases over disjoint pieces that count only their own
    pieces' moves add up."""
    if not model.guarded or len(model.orbits) != 1 or model.orbits[0].k != 1:
        return None
    orb = model.orbits[0]
    candidates = None
    for c in range(model.tables.shape[0]):
        moved = np.flatnonzero(model.tables[c] != np.arange(orb.n))
        if len(moved) != 2:
            return None
        allowed = set()
        for g in range(model.guard_start[c], model.guard_start[c + 1]):
            if model.guard_slot[g] in moved:
                only = {int(x) for x in np.flatnonzero(model.guard_ok[g][: orb.n])}
                if len(only) == 1:
                    allowed |= only
        candidates = allowed if candidates is None else candidates & allowed
        if not candidates:
            return None
    cls = min(candidates)
    return cls if int((orb.classes == cls).sum()) == 1 else None


def _additive_plan(model, cap: int, budget_bytes: int) -> Plan | None:
    cls = free_class(model)
    if cls is None:
        return None
    orb = model.orbits[0]
    blank = tuple(int(p) for p in np.flatnonzero(orb.classes == cls))
    others = [list(np.flatnonzero(orb.classes == c)) for c in dict.fromkeys(orb.classes.tolist()) if c != cls]
    plan = Plan(None, additive=True)
    current: list = []
    for members in others + [None]:
        trial = current + (members or [])
        proj = Projection((Part(0, tuple(int(p) for p in trial) + blank, False, free=blank),))
        if members is not None and entries(model, proj) <= cap:
            current = trial
            continue
        if current:
            done = Projection((Part(0, tuple(int(p) for p in current) + blank, False, free=blank),))
            plan.databases.append(done)
            plan.sizes.append(entries(model, done))
        current = list(members or [])
    if sum(stored_bytes(n, 4) for n in plan.sizes) > budget_bytes:
        return None
    return plan


def only_wide(model, plan: Plan) -> bool:
    """Whether every planned database is over an orbit too large for a slot mask: each bounds a
    few of its many pieces (a ring's two crossings), too weak for an optimal search or a chain of
    phases from a random state; the fallback's phases place those pieces first."""
    return bool(plan.databases) and all(model.orbits[p.orbit].n > MAX_SLOTS for d in plan.databases for p in d.parts)


def make_plan(model, budget_bytes: int = DEFAULT_BUDGET) -> Plan:
    size = full_size(model)
    if size is not None and size <= MAX_ENTRIES and stored_bytes(size, 4) <= budget_bytes:
        return Plan(full_projection(model))
    cap = min(MAX_ENTRIES, 2 * budget_bytes)
    additive = _additive_plan(model, cap, budget_bytes)
    if additive is not None:
        return additive
    candidates = []
    for r, orb in enumerate(model.orbits):
        if orb.n < 2:
            continue
        for part in _chunks(model, r, cap):
            proj = Projection((part,))
            n = entries(model, proj)
            if n > 1:
                candidates.append((n, proj))
    plan = Plan(None)
    left = budget_bytes
    for n, proj in sorted(candidates, key=lambda c: -c[0]):
        if stored_bytes(n, 4) <= left:
            plan.databases.append(proj)
            plan.sizes.append(n)
            left -= stored_bytes(n, 4)
    return plan
