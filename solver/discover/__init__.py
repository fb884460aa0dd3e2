"""Algorithm discovery: effects of move sequences and the search for short useful ones.

    discover(defn, max_length=None, max_support=None, time_limit=None, progress=None, cancel=None)
        -> list of {moves, length, effect, effect_key, support, order, shortest}, best first
    effect(defn, moves) -> {effect, effect_key, support, order, cycles}
    shortest_with_effect(defn, moves, max_length=None, time_limit=None) -> the shortest sequence
        found with the same effect class as `moves`
"""

from __future__ import annotations

from solver.discover.discovery import discover
from solver.discover.effects import effect
from solver.discover.shortest import shortest_with_effect

__all__ = ["discover", "effect", "shortest_with_effect"]
