"""Flip-it `flipit-N` (SEEDS.md, section 3): a row of N cells, N-1 stones and one empty cell.

A stone jumps into the empty cell over at least one other stone, flipping every stone it jumps
over (not itself). Each cell is two stickers, the up face then the down face of its stone (`B` or
`W`; both `_` when empty), so cell k has stickers 2k and 2k+1. The goal is the arrangement that the
seed article's start `_BBBB...` must reach: `_WWWW...`, every stone white side up, the empty cell
first. Move `Jk` (k = 1 .. N, from the left) is the stone in cell k jumping; it has one case per
place of the empty cell at least two cells away.
"""

from __future__ import annotations

from solver.catalog import native

SIZES = range(5, 21)
EMPTY = "_"


def _jump(cells: int, source: int, target: int) -> tuple[int, ...]:
    """The stone at `source` lands on the empty `target`; the stones in between turn over."""
    p = list(range(2 * cells))
    for face in (0, 1):
        p[2 * source + face], p[2 * target + face] = 2 * target + face, 2 * source + face
    for k in range(min(source, target) + 1, max(source, target)):
        p[2 * k], p[2 * k + 1] = 2 * k + 1, 2 * k
    return tuple(p)


def build(cells: int, name: str) -> dict:
    moves = [
        native.guarded_move(
            f"J{source + 1}",
            [({2 * target: EMPTY}, _jump(cells, source, target)) for target in range(cells) if abs(target - source) >= 2],
        )
        for source in range(cells)
    ]
    goal = [EMPTY, EMPTY] + ["W", "B"] * (cells - 1)
    return native.definition(
        name=name,
        description=describe(cells),
        goal=goal,
        moves=moves,
        colours={"B": ("black", "#111111"), "W": ("white", "#f4f4f4"), EMPTY: ("empty", "#c8b89a")},
        # the up face is drawn as the stone, the down face as a small circle below it
        cells=[(k, 0, "circle") if face == 0 else (k, 1, "diamond") for k in range(cells) for face in (0, 1)],
        shape="circle",
    )


def describe(cells: int) -> str:
    return (f"Flip-it with {cells} cells: a stone jumps into the empty cell over at least one stone, "
            f"flipping those; goal _{'W' * (cells - 1)} (from _{'B' * (cells - 1)}); move Jk jumps the stone in cell k.")
