"""Find algorithms for a state: the shortest move sequences that take it to a goal, several of them.

All sequences of the shortest length first, then longer ones up to `extra` moves more, until
`count` are found, optionally with only some of the moves, towards the puzzle's goal or a partial
goal (solver.partial). The search is IDA* on colour states with a perimeter: every state within k
moves of a goal, found breadth-first backwards (k as deep as PERIMETER_STATES allow), gives an
exact distance inside it and k + 1 outside, so each bound's search enumerates every sequence of
that length. Sequences are canonical: no move followed by one that undoes it or merges with it into
a move of the set, and of two moves that commute only one order. When nothing is found within the
time, the solver's own answer is given instead, marked not shortest.
"""

from __future__ import annotations

from dataclasses import replace
from operator import itemgetter

from solver import perm
from solver.definition.model import Definition
from solver.engine import Codec
from solver.errors import PuzzleError
from solver.partial import partial_goal
from solver.search.budget import Budget, Stopped

PERIMETER_STATES = 300_000  # backward states kept (memory: about 100 bytes each)
MAX_COUNT = 100
CHECK_EVERY = 4096  # nodes between time checks


def restricted(defn: Definition, moves: list[str] | None) -> Definition:
    """The definition with only `moves` (every move when None)."""
    if moves is None:
        return defn
    unknown = [m for m in moves if m not in defn.move_index]
    if unknown or not moves:
        raise PuzzleError(f"moves: no move named {unknown[0]!r}" if unknown else "moves: give at least one move")
    kept = tuple(defn.move(m) for m in dict.fromkeys(moves))
    return replace(defn, moves=kept, base_moves=tuple(m.name for m in kept), extenders=())


def find_algorithms(defn: Definition, state, *, goal=None, count: int = 10, extra: int = 2, moves=None,
                    max_length: int = 30, time_limit: float | None = 30.0, progress=None, cancel=None) -> dict:
    """{algorithms: [{moves, length, shortest}], shortest: the proven shortest length or None,
    searched_to: every length up to this was searched, complete: nothing left out in that range}."""
    if defn.guarded:
        raise PuzzleError("moves: finding algorithms needs moves that always apply (this puzzle's are guarded)")
    if not 1 <= count <= MAX_COUNT:
        raise PuzzleError(f"count: between 1 and {MAX_COUNT}")
    original, start = defn, tuple(state)
    if goal is not None:
        projection = partial_goal(defn, tuple(goal))
        defn, start = projection.defn, projection.state(start)
    defn = restricted(defn, moves)
    budget = Budget(time_limit=time_limit, cancel=cancel, progress=progress)
    search = _Search(defn, budget)
    found: list[list[str]] = []
    shortest = searched = None
    try:
        bound = search.h(search.codec.encode(start))
        while bound <= max_length and len(found) < count:
            if shortest is not None and bound > shortest + extra:
                break
            search.dfs(search.codec.encode(start), bound, found, count)
            searched = bound
            if found and shortest is None:
                shortest = bound
            bound += 1
    except Stopped:
        pass
    out = [{"moves": m, "length": len(m), "shortest": len(m) == shortest} for m in found]
    if not out:  # nothing in time: the solver's answer, not proven shortest
        out = _solver_answer(original, state, goal, moves, budget)
    return {"algorithms": out, "shortest": shortest, "searched_to": searched,
            "complete": searched is not None and (len(found) < count)}


def _solver_answer(defn, state, goal, moves, budget) -> list[dict]:
    from solver import api  # here: api imports the discovery package

    left = budget.remaining()
    if moves is not None or (left is not None and left <= 0) or budget.cancelled():
        return []
    answer = api.solve(defn, state, goal=goal, time_limit=max(1.0, left or 10.0))
    if not answer["solution"]:
        return []
    return [{"moves": answer["solution"], "length": answer["length"], "shortest": bool(answer["optimal"])}]


class _Search:
    def __init__(self, defn: Definition, budget: Budget):
        self.defn, self.budget = defn, budget
        self.codec = Codec(defn)
        self.names = [name for name, _ in self.codec.steps]
        self.getters = [cases[0][0] for _, cases in self.codec.steps]
        self.pack = self.codec.pack
        self.nodes = 0
        perms = [m.perm for m in defn.moves]
        known = set(perms)
        n = len(perms)
        # allowed[a][b]: b may follow a (a = n: the start)
        self.allowed = [[True] * n for _ in range(n + 1)]
        for a in range(n):
            for b in range(n):
                ab = perm.compose(perms[a], perms[b])
                ba = perm.compose(perms[b], perms[a])
                if perm.is_identity(ab) or ab in known or (ab == ba and b < a):
                    self.allowed[a][b] = False
        self.distance, self.depth = self._perimeter()

    def _perimeter(self) -> tuple[dict, int]:
        """States within `depth` moves of a goal (every one of them), with their distance."""
        getters = [itemgetter(*m.perm) for m in self.defn.moves]  # a state before each move
        distance = dict.fromkeys(self.codec.goals, 0)
        frontier = list(self.codec.goals)
        depth = 0
        while frontier:
            fresh = []
            for s in frontier:
                for g in getters:
                    t = self.pack(g(s))
                    if t not in distance:
                        distance[t] = depth + 1
                        fresh.append(t)
                if len(distance) > PERIMETER_STATES:
                    for t in fresh:  # the level is partial: keep only complete levels
                        del distance[t]
                    return distance, depth
            self.budget.tick(len(distance), depth)
            depth += 1
            frontier = fresh
        return distance, depth + 10**6  # the whole space: exact everywhere

    def h(self, s) -> int:
        return self.distance.get(s, self.depth + 1)

    def dfs(self, start, bound: int, found: list, count: int) -> None:
        """Every canonical sequence of exactly `bound` moves from `start` to a goal, into `found`."""
        path: list[int] = []
        n = len(self.names)
        goals = self.codec.goals

        def go(s, g: int, last: int) -> bool:
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0:
                self.budget.tick(self.nodes, bound)
            if g == bound:
                if s in goals:
                    found.append([self.names[m] for m in path])
                    return len(found) >= count
                return False
            allowed = self.allowed[last]
            for m in range(n):
                if not allowed[m]:
                    continue
                t = self.pack(self.getters[m](s))
                if g + 1 + self.h(t) > bound:
                    continue
                path.append(m)
                if go(t, g + 1, m):
                    return True
                path.pop()
            return False

        go(start, 0, n)
