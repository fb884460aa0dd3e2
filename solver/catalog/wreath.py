"""Wreath `wreath-AxB`: two rings of A and B balls that cross at two points (two balls belong to
both); L turns the first ring one step, R the second (with their inverses L' and R').

Going round the first ring from one crossing, a quarter of its balls (at least one step) lie
before the other crossing, inside the second ring; likewise for the second ring. Balls of only the
first ring are coloured L, of only the second R, the two crossings C (as in Kaggle's Santa 2023
wreath puzzles). The layout draws the two rings as overlapping circles.
"""

from __future__ import annotations

import math

from solver import perm
from solver.catalog import native

SIZES = range(4, 101)


def rings(a: int, b: int) -> tuple[list[int], list[int]]:
    """The balls of each ring in turning order. Balls 0 and 1 are the crossings; the first ring is
    0, its inner arc, 1, its outer arc; the second is 1, its inner arc, 0, its outer arc."""
    inner_a, inner_b = max(1, a // 4) - 1, max(1, b // 4) - 1
    first_only = list(range(2, a))
    second_only = list(range(a, a + b - 2))
    first = [0] + first_only[:inner_a] + [1] + first_only[inner_a:]
    second = [1] + second_only[:inner_b] + [0] + second_only[inner_b:]
    return first, second


def _cells(a: int, b: int) -> list[tuple[float, float]]:
    """Each ring on a circle of radius 10 through the crossings, which sit 60 degrees off each
    ring's axis; the inner arc spans 120 degrees, the outer 240, each evenly spaced."""
    radius = 10.0
    offset = radius * math.cos(math.radians(60))
    cells: dict[int, tuple[float, float]] = {}
    for ring, centre, start in ((rings(a, b)[0], -offset, 60.0), (rings(a, b)[1], offset, 240.0)):
        other = ring.index(ring[0] ^ 1)  # where the other crossing is
        angles = [start - 120.0 * k / other for k in range(other + 1)]
        rest = len(ring) - other
        angles += [start - 120.0 - 240.0 * k / rest for k in range(1, rest)]
        for ball, angle in zip(ring, angles):
            t = math.radians(angle)
            cells.setdefault(ball, (round(centre + radius * math.cos(t), 2), round(-radius * math.sin(t), 2)))
    return [cells[i] for i in range(a + b - 2)]


def build(a: int, b: int, name: str) -> dict:
    first, second = rings(a, b)
    size = a + b - 2
    moves = native.turn_and_inverse("L", perm.from_cycles(size, [first]))
    moves += native.turn_and_inverse("R", perm.from_cycles(size, [second]))
    goal = ["C", "C"] + ["L"] * (a - 2) + ["R"] * (b - 2)
    return native.definition(
        name=name,
        description=describe(a, b),
        goal=goal,
        moves=moves,
        colours={"L": ("left ring", "#1f5fd0"), "R": ("right ring", "#d02020"), "C": ("crossing", "#20a040")},
        cells=_cells(a, b),
        shape="circle",
    )


def describe(a: int, b: int) -> str:
    return f"Wreath: rings of {a} and {b} balls crossing at two points; L and R turn a ring one step."
