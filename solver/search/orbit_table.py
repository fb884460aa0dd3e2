"""Placing a few small orbits exactly: a distance table over whole orbits, and a search down it.

The finisher's algorithms move at most three slots of one orbit. An orbit of four slots may have
none that leaves the other orbits alone (a master skewb's corners: every short commutator that
cycles or twists them moves edges too). Such orbits are small (4! * 3^4 views each), so the
finisher places them first, together, with a pattern database over them (solver.search.pdb, kept
in the cache folder) as the bound of an IDA* that stops at their goal; the climbs after it use only
algorithms that leave them alone. The climbs' algorithms are even on every orbit, so the search
also gives the other orbits of distinct pieces the parities their pieces need (the finisher's
parity moves, which would move the placed orbits, are not made).
"""

from __future__ import annotations

import math
import time
from itertools import combinations

import numpy as np

from solver.search import pdb
from solver.search.budget import Budget, Stopped
from solver.search.plan import entries
from solver.search.ranking import Part, Projection

MAX_ENTRIES = 32_000_000  # of a table (16 MB at 4 bits, about a second to build once)
MAX_DEPTH = 40  # of the search (the master skewb's two corner orbits: at most 7 moves)
POLL = 1024  # nodes between looks at the deadline


class OrbitTable:
    """Pattern databases over whole orbits (one over all of them when it fits, else one over each
    pair) with the search placing those orbits."""

    def __init__(self, model, orbits: list[int]):
        on, ok, _, first = model.orbit_arrays
        self.model = model
        self.slots = np.concatenate([np.arange(first[r], first[r] + on[r]) for r in orbits])  # pieces are numbered alike

        def over(some):
            return Projection(tuple(Part(r, tuple(range(on[r])), bool(ok[r] > 1)) for r in sorted(some)))

        # an orbit's arrangements of its classes alone, counted before anything is ranked (a big
        # cube's hundreds of orbits are asked while the finisher looks for algorithms)
        self.small = all(_arrangements(model.orbits[r].classes) <= MAX_ENTRIES for r in orbits)
        # the skewb inside a professor skewb (two corner orbits and the face centres) reaches
        # 3,149,280 views that rank into 226 M entries; over pairs of its orbits, at most 1.4 M
        whole = over(orbits)
        pairs = len(orbits) > 1 and self.small and entries(model, whole) > MAX_ENTRIES
        self.projections = [over(p) for p in combinations(orbits, 2)] if pairs else [whole]
        self.databases: list = []

    @property
    def fits(self) -> bool:
        return self.small and all(entries(self.model, p) <= MAX_ENTRIES for p in self.projections)

    def build(self, deadline: float | None) -> bool:
        """The tables from the cache folder, built there first (by `deadline`); False when cut short."""
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            budget = Budget(time_limit=left)
            self.databases = [pdb.cached(self.model, p, budget=budget) for p in self.projections]
        except Stopped:
            return False
        return True

    def bound(self, loc: np.ndarray) -> int:
        return max(db.distance(self.model, loc) for db in self.databases)

    def _view(self, loc: np.ndarray) -> np.ndarray:
        """What the table's pieces show at the slots they sit in (class*k + twist), by slot."""
        model = self.model
        _, ok, ob, first = model.orbit_arrays
        codes = loc[self.slots]
        r = model.piece_orbit[self.slots]
        out = np.empty(model.n_slots, dtype=np.int64)
        out[first[r] + (codes - ob[r]) // ok[r]] = model.piece_class[self.slots] + (codes - ob[r]) % ok[r]
        return out[self.slots]

    def place(self, moves: list[np.ndarray], allowed: np.ndarray, loc: np.ndarray, goal_view: np.ndarray,
              parity_bits: list[int], need: int, deadline: float | None) -> list[int] | None:
        """Fewest moves (IDA*, the table as bound) that show the table's orbits as `goal_view`
        does and whose parity vectors (`parity_bits[m]` for move m) add up to `need`; None past
        `deadline` or MAX_DEPTH."""
        target = goal_view[self.slots]
        loc = loc.astype(np.int32)  # as the compiled ranking is loaded for
        n_moves = len(moves)
        nodes = 0
        path: list[int] = []

        def dfs(loc, g, bound, prev, parities) -> int:
            """0 when found (in `path`), else the least f over the bound."""
            nonlocal nodes
            h = self.bound(loc)
            if g + h > bound:
                return g + h
            if h == 0 and parities == need and (self._view(loc) == target).all():
                return 0
            nodes += 1
            if nodes % POLL == 0 and deadline is not None and time.monotonic() > deadline:
                raise Stopped("time limit")
            least = MAX_DEPTH + 1
            for m in range(n_moves):
                if not allowed[prev, m]:
                    continue
                path.append(m)
                f = dfs(moves[m][loc], g + 1, bound, m, parities ^ parity_bits[m])
                if f == 0:
                    return 0
                path.pop()
                least = min(least, f)
            return least

        bound = self.bound(loc)
        try:
            while bound <= MAX_DEPTH:
                bound = dfs(loc, 0, bound, n_moves, 0)
                if bound == 0:
                    return path
        except Stopped:
            pass
        return None


def _arrangements(classes: np.ndarray) -> int:
    """The ways to place pieces of these classes on as many slots."""
    out = math.factorial(len(classes))
    for count in np.unique(classes, return_counts=True)[1]:
        out //= math.factorial(int(count))
    return out
