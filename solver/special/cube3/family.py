"""The catalog's `cube3` (same stickers, move names and goal, by content hash): recognition, and the
two-phase and optimal solvers on the definition's own states, every answer replayed on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.definition.model import Definition
from solver.search.budget import Budget
from solver.special.cube3 import facelet
from solver.special.recognize import is_catalog

if TYPE_CHECKING:
    from solver.special.cube3.optimal import OptimalResult


@dataclass(frozen=True)
class Plan:
    defn: Definition

    def solve(self, state, time_limit: float = 1.0, max_length: int | None = None, cancel=None,
              budget: Budget | None = None) -> list[str]:
        """The shortest solution the two-phase search finds within the time limit (or the first
        of at most the target length)."""
        from solver.special.cube3.solve import solve_facelets  # here: recognising loads no solver (nor numba)

        solution = solve_facelets(list(state), time_limit=time_limit, max_length=max_length, cancel=cancel,
                                  budget=budget)
        return solution

    def solve_optimal(self, state, time_limit: float = 60.0, cancel=None, budget: Budget | None = None) -> OptimalResult:
        """A shortest solution, or the two-phase one with optimal=False when the budget ran out."""
        from solver.special.cube3.optimal import solve_optimal

        result = solve_optimal(facelet.to_cubies(list(state)), time_limit=time_limit, cancel=cancel, budget=budget)
        return result


def recognize(defn: Definition) -> Plan | None:
    if defn.guarded or defn.stickers != 54:
        return None
    from solver.special.cube3 import moves  # here: its tables take 10-30 ms, and most puzzles are no 3x3x3

    if len(defn.moves) != moves.N_MOVES:
        return None
    return Plan(defn) if is_catalog(defn, "cube3") else None
