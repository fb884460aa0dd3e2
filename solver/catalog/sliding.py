"""Sliding puzzles `sliding-RxC`: R x C cells, tiles 1 .. R*C-1 and a blank `0`.

The goal has the blank first: `0 1 2 ... R*C-1` row by row, as Korf's 100 instances of the
15-puzzle (`sliding-4x4`) are written. A move is named by the direction in which a TILE moves into
the blank: `U` slides the tile below the blank up, `D` the tile above it down, `L` the tile right of
it left, `R` the tile left of it right. Each move is guarded: one case per place of the blank where
that tile exists.
"""

from __future__ import annotations

from solver.catalog import native

SIZES = range(2, 11)
BLANK = "0"
# move: (row step, column step) from the blank to the tile that moves into it
DIRECTIONS = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


def build(rows: int, cols: int, name: str) -> dict:
    size = rows * cols
    moves = []
    for move_name, (dr, dc) in DIRECTIONS.items():
        cases = []
        for blank in range(size):
            r, c = divmod(blank, cols)
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                tile = (r + dr) * cols + (c + dc)
                swap = tuple(tile if i == blank else blank if i == tile else i for i in range(size))
                cases.append(({blank: BLANK}, swap))
        moves.append(native.guarded_move(move_name, cases))
    tiles = [str(i) for i in range(size)]
    colours = {BLANK: ("blank", "#202020")}
    colours.update({t: (f"tile {t}", native.hsv_hex(0.6 * i / (size - 1), 0.55, 0.95)) for i, t in enumerate(tiles) if i})
    return native.definition(
        name=name,
        description=describe(rows, cols),
        goal=tiles,
        moves=moves,
        colours=colours,
        cells=native.grid_cells(rows, cols),
    )


def describe(rows: int, cols: int) -> str:
    return (f"Sliding puzzle {rows}x{cols} with the blank first (goal 0 1 2 ... {rows * cols - 1}); "
            "moves U D L R name the way a tile slides into the blank.")
