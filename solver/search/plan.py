"""Choosing what to tabulate for a puzzle under a memory budget.

The whole state space when its table fits (then every solve is a walk down the table); otherwise,
per orbit, the orbit whole when it fits, else consecutive chunks of its classes as large as fit,
largest first, each one pattern database. No knowledge of particular puzzles: only orbit sizes,
twists and classes of look-alike pieces enter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver.errors import PuzzleError
from solver.search.pdb import DEFAULT_BUDGET, MAX_ENTRIES, stored_bytes
from solver.search.ranking import MAX_SLOTS, Part, Projection, full_projection, make_ranker


@dataclass
class Plan:
    full: Projection | None  # the full distance table, when it fits
    databases: list[Projection] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def entries(model, projection: Projection) -> int:
    return make_ranker(model, projection).size


def full_size(model) -> int | None:
    if not model.orbits or any(o.n > MAX_SLOTS for o in model.orbits):
        return None
    try:
        return entries(model, full_projection(model))
    except PuzzleError:
        return None


def _chunks(model, r: int, cap: int) -> list[Part]:
    """Consecutive runs of the orbit's classes, each run as large as `cap` entries allow."""
    orb = model.orbits[r]
    twist = orb.k > 1
    whole = Part(r, tuple(range(orb.n)), twist)
    if entries(model, Projection((whole,))) <= cap:
        return [whole]
    classes = [list(np.flatnonzero(orb.classes == c)) for c in dict.fromkeys(orb.classes.tolist())]
    parts, current = [], []
    for members in classes:
        trial = current + members
        if entries(model, Projection((Part(r, tuple(int(p) for p in trial), twist),))) <= cap:
            current = trial
            continue
        if current:
            parts.append(Part(r, tuple(int(p) for p in current), twist))
        single = Part(r, tuple(int(p) for p in members), twist)
        current = members if entries(model, Projection((single,))) <= cap else []
    if current and len(current) < orb.n:
        parts.append(Part(r, tuple(int(p) for p in current), twist))
    return parts


def make_plan(model, budget_bytes: int = DEFAULT_BUDGET) -> Plan:
    size = full_size(model)
    if size is not None and size <= MAX_ENTRIES and stored_bytes(size, 4) <= budget_bytes:
        return Plan(full_projection(model))
    cap = min(MAX_ENTRIES, 2 * budget_bytes)
    candidates = []
    for r, orb in enumerate(model.orbits):
        if orb.n > MAX_SLOTS or orb.n < 2:
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
