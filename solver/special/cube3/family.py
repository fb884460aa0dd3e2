"""The catalog's `cube3` (same stickers, move names and goal, by content hash): recognition, and the
two-phase and optimal solvers on the definition's own states, every answer replayed on it."""

from __future__ import annotations

from dataclasses import dataclass

from solver.definition.model import Definition
from solver.search.budget import Budget
from solver.special.cube3 import facelet, moves
from solver.special.cube3.optimal import OptimalResult, solve_optimal
from solver.special.cube3.solve import solve_facelets
from solver.special.recognize import is_catalog


@dataclass(frozen=True)
class Plan:
    defn: Definition

    def solve(self, state, time_limit: float = 1.0, max_length: int | None = None, cancel=None,
              budget: Budget | None = None) -> list[str]:
        """The shortest solution the two-phase search finds within the time limit (or the first
        of at most the target length)."""
        solution = solve_facelets(list(state), time_limit=time_limit, max_length=max_length, cancel=cancel,
                                  budget=budget)
        return solution

    def solve_optimal(self, state, time_limit: float = 60.0, cancel=None, budget: Budget | None = None) -> OptimalResult:
        """A shortest solution, or the two-phase one with optimal=False when the budget ran out."""
        result = solve_optimal(facelet.to_cubies(list(state)), time_limit=time_limit, cancel=cancel, budget=budget)
        return result


def recognize(defn: Definition) -> Plan | None:
    if defn.guarded or defn.stickers != 54 or len(defn.moves) != moves.N_MOVES:
        return None
    return Plan(defn) if is_catalog(defn, "cube3") else None
