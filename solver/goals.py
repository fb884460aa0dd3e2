"""Aiming at the nearest goal: a definition may have many solved states (every whole-cube rotation of
a 4x4x4, say), and an answer that walks to a far one wastes moves.

`short_solution` is the check made before any method that is not optimal: a small bidirectional
search from the state and from every goal finds states that are solved or a few moves from a goal,
with a shortest answer. `nearest_goal` tells a solver that works towards one goal which one to take.
"""

from __future__ import annotations

from solver.definition.model import Definition
from solver.engine import Codec
from solver.search.bfs import bidirectional_bfs
from solver.search.budget import Budget, Stopped

# About a depth of 3 on a big cube: cheap next to any solve, and enough for the states one or two turns
# from a goal that users check first.
SHORT_NODES = 20_000
SHORT_SECONDS = 0.25


def short_solution(defn: Definition, state, time_limit: float | None = None, cancel=None) -> SolveResult | None:
    """A shortest answer when a small bounded search finds one (method "bidir", proven optimal), else
    None. It takes at most a tenth of `time_limit`; `cancel` (the solve's) stops it too."""
    from solver.search.engine import SolveResult  # here: numba loads only for a solve

    budget = Budget(time_limit=SHORT_SECONDS if time_limit is None else min(SHORT_SECONDS, time_limit / 10),
                    node_limit=SHORT_NODES, cancel=cancel)
    codec = Codec(defn)
    try:
        moves, nodes = bidirectional_bfs(codec, codec.encode(state), budget)
    except Stopped:
        return None
    if moves is None:
        return None
    return SolveResult(moves, True, "bidir", nodes=nodes, seconds=budget.elapsed)


def nearest_goal(defn: Definition, state) -> tuple[str, ...]:
    """The goal with the most stickers in place (the first goal among equals)."""
    return max(defn.goals, key=lambda goal: sum(a == b for a, b in zip(goal, state)))
