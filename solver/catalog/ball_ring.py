"""The ball ring of the seed article (SEEDS.md, section 1): two rings of balls sharing a slot of
four; L turns the left ring, R the right one. Moves and goal are the seed file's; the layout is
the grid drawn in its comment:

    0  1  2  3  4  5  6  7  8  9 10 11 12
    13                14                15
    16                17                18
    19 20 21 22 23 24 25 26 27 28 29 30 31
"""

from __future__ import annotations

from solver import perm
from solver.catalog import native

# The seed's closed cycle arrays, as published.
SEED_MOVES = {
    "L": [0, 1, 2, 3, 4, 5, 6, 14, 17, 25, 24, 23, 22, 21, 20, 19, 16, 13, 0],
    "R": [6, 7, 8, 9, 10, 11, 12, 15, 18, 31, 30, 29, 28, 27, 26, 25, 17, 14, 6],
}
SEED_GOAL = "BBBBBBBRRRRRRBBRBRRBBBBBBRRRRRRR"
STICKERS = 32


def _closed_cycles(value: list[int]) -> list[list[int]]:
    """Split a closed cycle array (each cycle ends by repeating its first number) into cycles."""
    result, start = [], 0
    while start < len(value):
        end = value.index(value[start], start + 1)
        result.append(value[start:end])
        start = end + 1
    return result


def _cells() -> list[tuple[int, int, str]]:
    rows = [[(x, 0) for x in range(13)], [(0, 1), (6, 1), (12, 1)], [(0, 2), (6, 2), (12, 2)],
            [(x, 3) for x in range(13)]]
    return [(x, y, "circle") for row in rows for x, y in row]


def build(name: str = "ball-ring") -> dict:
    moves = []
    for move_name, value in SEED_MOVES.items():
        p = perm.from_cycles(STICKERS, _closed_cycles(value))
        moves += native.turn_and_inverse(move_name, p)
    return native.definition(
        name=name,
        description=describe(),
        goal=SEED_GOAL,
        moves=moves,
        colours={"B": ("blue", "#1f5fd0"), "R": ("red", "#d02020")},
        cells=_cells(),
        shape="circle",
    )


def describe() -> str:
    return "The seed's ball ring: two rings of 18 balls sharing a slot of four; L and R turn a ring one step."
