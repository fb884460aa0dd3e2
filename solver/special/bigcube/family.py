"""The catalog's `cubeN`, N = 2 and 4 .. 7 (same stickers, move names and goals, by content hash):
recognition, and the reduction solver on the definition's own states, every answer replayed on it."""

from __future__ import annotations

from dataclasses import dataclass

from solver.definition.model import Definition
from solver.goals import nearest_goal
from solver.search.budget import Budget
from solver.special.recognize import is_catalog

SIZES = (2, 4, 5, 6, 7)


@dataclass(frozen=True)
class Plan:
    defn: Definition
    n: int

    def solve(self, state, budget: Budget | None = None) -> list[str]:
        """A solution (reduction: short phases where they are ready, then 3-cycles) to the
        definition's goal nearest the state (a whole-cube rotation of solved is solved); `budget`
        as in solve_big_cube."""
        from solver.special.bigcube.reduction import solve_big_cube  # here: recognising loads no solver

        solution = solve_big_cube("".join(state), self.n, goal="".join(nearest_goal(self.defn, state)),
                                  budget=budget)
        return solution


def recognize(defn: Definition) -> Plan | None:
    if defn.guarded:
        return None
    for n in SIZES:
        if defn.stickers == 6 * n * n and len(defn.moves) == 18 * (n // 2) and is_catalog(defn, f"cube{n}"):
            return Plan(defn, n)
    return None
