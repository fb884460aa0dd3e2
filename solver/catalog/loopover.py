"""Loopover `loopover-RxC`: a grid of R rows and C columns of distinct tiles; a move shifts one row
or column cyclically by one cell.

Move names: `R2<` shifts row 2 left and `R2>` right; `C3^` shifts column 3 up and `C3v` down.
Rows and columns count from 1, top and left. Tiles are named A, B, C, ... in reading order when
there are at most 26, else 1, 2, 3, ...; their colours shade across columns and down rows as in
the original game.
"""

from __future__ import annotations

import string

from solver import perm
from solver.catalog import native

SIZES = range(2, 31)


def tile_names(rows: int, cols: int) -> list[str]:
    count = rows * cols
    if count <= len(string.ascii_uppercase):
        return list(string.ascii_uppercase[:count])
    return [str(i + 1) for i in range(count)]


def _shift(rows: int, cols: int, cells: list[int], step: int) -> perm.Perm:
    """Move the tile at cells[k] to cells[k + step], cyclically."""
    p = list(range(rows * cols))
    for k, c in enumerate(cells):
        p[c] = cells[(k + step) % len(cells)]
    return tuple(p)


def build(rows: int, cols: int, name: str) -> dict:
    moves = []
    for r in range(rows):
        cells = [r * cols + c for c in range(cols)]
        moves += [native.move(f"R{r + 1}<", _shift(rows, cols, cells, -1)),
                  native.move(f"R{r + 1}>", _shift(rows, cols, cells, 1))]
    for c in range(cols):
        cells = [r * cols + c for r in range(rows)]
        moves += [native.move(f"C{c + 1}^", _shift(rows, cols, cells, -1)),
                  native.move(f"C{c + 1}v", _shift(rows, cols, cells, 1))]
    tiles = tile_names(rows, cols)
    colours = {
        tiles[r * cols + c]: (f"tile {tiles[r * cols + c]}",
                              native.hsv_hex(0.85 * c / max(cols - 1, 1), 0.35 + 0.6 * r / max(rows - 1, 1), 0.95))
        for r in range(rows) for c in range(cols)
    }
    return native.definition(
        name=name,
        description=describe(rows, cols),
        goal=tiles,
        moves=moves,
        colours=colours,
        cells=native.grid_cells(rows, cols),
    )


def describe(rows: int, cols: int) -> str:
    return (f"Loopover {rows}x{cols}: shift a row (R1< R1>) or column (C1^ C1v) cyclically by one cell; "
            "rows count from the top, columns from the left.")
