"""IDA* in plain Python over move tables of every factor of the databases, kept in the cache folder:
for a process that has not loaded numba (a `puzzle solve` from the command line), whose start-up
and first kernel load cost more than a short optimal search (the dino cube's 10 moves: a few
thousand nodes). The same search as solver.search.ida's kernel (max of databases, sums within
additive sets, canonical move pairs, the goal checked on the whole state when the bound is 0);
past NODE_LIMIT children it gives up, and the compiled search takes over.

The tables are written by a process that has numba loaded (`prepare`), so only unguarded puzzles
whose factors are all position or orientation digits, and whose tables stay under TABLE_LIMIT,
are searched here.
"""

from __future__ import annotations

import numpy as np

from solver import compiled
from solver.search.budget import Budget
from solver.search.ida import MAX_DEPTH, Heuristic, Outcome, _move_tables, _shape, digits_of
from solver.search.kernels import is_goal, puzzle_arrays
from solver.search.ranking import KIND, MAX_SLOTS, PTW, SIZE

TABLE_LIMIT = 24_000_000  # entries of all factors' move tables together (96 MB, memory-mapped)
NODE_LIMIT = 50_000  # children looked at (under a tenth of a second: about 700,000 a second) before the compiled search is worth its start-up
TICK_EVERY = 4096  # children between looks at the budget


class _GiveUp(Exception):
    """More children than NODE_LIMIT: the compiled search is quicker from here."""


def applies(model, heuristic: Heuristic) -> bool:
    """Whether every factor can have a move table within the limit (unguarded moves, no piece twists;
    factors of one shape share theirs)."""
    factors = heuristic.factors
    if model.guarded or not len(factors) or (factors[:, KIND] == PTW).any():
        return False
    distinct = {_shape(factors, heuristic.groups, f): int(factors[f, SIZE]) for f in range(len(factors))}
    return sum(distinct.values()) * len(model.move_names) <= TABLE_LIMIT


def _tables(model, heuristic: Heuristic, build: bool):
    return _move_tables(model, heuristic.factors, heuristic.groups, heuristic.pieces, limit=float("inf"), build=build,
                        keep_from=0)


def prepare(model, heuristic: Heuristic) -> None:
    """Write the move tables for the next processes (the caller has numba loaded: seconds at most)."""
    if applies(model, heuristic):
        _tables(model, heuristic, build=True)


def search(model, heuristic: Heuristic, allowed: np.ndarray, loc: np.ndarray, goal_views: np.ndarray,
           budget: Budget) -> Outcome | None:
    """An optimal answer (weight 1), or None when this search does not apply: the tables are not
    in the cache, or it would take too long."""
    if not applies(model, heuristic):
        return None
    found = _tables(model, heuristic, build=False)
    if found is None:
        return None
    tables, toff = found
    try:
        with compiled.interpreted():  # the start's digits and the goal test: a few calls
            return _Search(model, heuristic, allowed, tables, toff, goal_views).run(loc, budget)
    except _GiveUp:
        return None


class _Search:
    def __init__(self, model, h: Heuristic, allowed, tables, toff, goal_views):
        self.model, self.h, self.goal_views = model, h, goal_views
        self.pz = puzzle_arrays(model)
        n_moves = allowed.shape[1]
        self.n_moves = n_moves
        # after[p]: the moves that may follow move p (p = n_moves at the start)
        self.after = [tuple(m for m in range(n_moves) if allowed[p, m]) for p in range(n_moves + 1)]
        flat = memoryview(np.ascontiguousarray(tables)).cast("B").cast("i")
        sizes = [int(s) for s in h.factors[:, SIZE]]
        # rows[f][m]: factor f's digit after move m, by its digit before
        self.rows = [[flat[int(toff[f]) + m * sizes[f]: int(toff[f]) + (m + 1) * sizes[f]] for m in range(n_moves)]
                     for f in range(len(sizes))]
        # per database: its factors with the radix of each, its body, bits and additive set
        self.databases = [(range(int(a), int(b)), [sizes[f] for f in range(int(a), int(b))],
                           memoryview(np.ascontiguousarray(body)).cast("B"), int(bits), int(s))
                          for (a, b), body, bits, s in zip(h.span, h.bodies, h.bits, h.sets)]
        self.additive = h.n_sets < len(self.databases)
        self.n_sets = h.n_sets
        self.nodes = 0

    def bound(self, digits, limit: int) -> int:
        """The lower bound of `digits`; without additive sets it stops at the first database
        above `limit` (the child is pruned whatever the rest say)."""
        sums = [0] * self.n_sets if self.additive else None
        h = 0
        for factors, radix, body, bits, s in self.databases:
            r = 0
            for f, size in zip(factors, radix):
                r = r * size + digits[f]
            v = body[r] if bits == 8 else (body[r >> 1] >> ((r & 1) << 2)) & 15
            if sums is not None:
                sums[s] += v
            elif v > h:
                h = v
                if h > limit:
                    return h
        return max(sums) if sums is not None else h

    def is_goal(self, path: list[int], loc: np.ndarray) -> bool:
        if len(self.goal_views) == 0:
            return True
        pz = self.pz
        whole = loc.copy()
        for m in path:
            whole = pz.tables[pz.case_start[m]][whole]
        return bool(is_goal(pz, whole, self.goal_views))

    def run(self, loc: np.ndarray, budget: Budget) -> Outcome:
        start = np.zeros(len(self.h.factors), dtype=np.int64)
        digits_of(loc, self.h.factors, self.h.groups, self.h.pieces, start, np.zeros(MAX_SLOTS + 2, dtype=np.int64))
        start = [int(d) for d in start]
        h0 = self.bound(start, MAX_DEPTH)
        if h0 == 0 and self.is_goal([], loc):
            return Outcome([], 1, True)
        bound = h0
        path: list[int] = []
        rows, after, n_moves = self.rows, self.after, self.n_moves
        factors = range(len(start))

        def dfs(digits, g: int, prev: int) -> int:
            """Depth-first below `digits` at depth g: -1 when a goal was found (path holds the
            moves), else the least f above the bound met."""
            least = 1 << 30
            for m in after[prev]:
                child = [rows[f][m][digits[f]] for f in factors]
                self.nodes += 1
                if self.nodes % TICK_EVERY == 0:
                    if self.nodes >= NODE_LIMIT:
                        raise _GiveUp
                    budget.tick(self.nodes, g, bound)
                h = self.bound(child, bound - g - 1)
                f = g + 1 + h
                if f > bound:
                    least = min(least, f)
                    continue
                path.append(m)
                if h == 0 and self.is_goal(path, loc):
                    return -1
                if g + 1 < bound:
                    below = dfs(child, g + 1, m)
                    if below < 0:
                        return -1
                    least = min(least, below)
                else:
                    least = min(least, g + 2)
                path.pop()
            return least

        while bound <= MAX_DEPTH:
            least = dfs(start, 0, n_moves)
            if least < 0:
                return Outcome(list(path), self.nodes, True)
            if least >= 1 << 30:
                return Outcome(None, self.nodes, True)  # nothing beyond: no goal is reachable
            bound = least
        return Outcome(None, self.nodes, False)
