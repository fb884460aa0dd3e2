"""The specialized families of this package that recognize catalog definitions: Loopover,
sliding puzzles and Flip-it. `recognize(defn)` returns the first family's plan (with
`plan.solve(state) -> move names`, replayed on the definition) or None."""

from __future__ import annotations

from solver.definition.model import Definition
from solver.special.flipit import family as flipit
from solver.special.loopover import family as loopover
from solver.special.sliding import family as sliding

FAMILIES = {"loopover": loopover, "sliding": sliding, "flipit": flipit}


def recognize(defn: Definition):
    for module in FAMILIES.values():
        plan = module.recognize(defn)
        if plan is not None:
            return plan
    return None
