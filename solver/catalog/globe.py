"""Globe `globe-AxB`: a sphere cut into A horizontal bands and 2B columns of cells. A band turns one
step east (`rK`, its inverse `rK'`); a flip `fJ` turns the half-sphere of columns J .. J+B-1 half
a turn about a horizontal axis, so band K goes to band A-1-K and the columns reverse (as in
Kaggle's Santa 2023 globe puzzles, whose globe_r/c has r+1 bands and 2c columns).

Cells are coloured by band and by half (the columns 0 .. B-1 or B .. 2B-1 they start in); the
layout is the unrolled map, band 0 on top. Numbers in move names are zero-padded to one width
(`f03` beside `f12`), so that no name reads as another one's double (`f1` + `2`).
"""

from __future__ import annotations

from solver import perm
from solver.catalog import native

BANDS = range(1, 34)
HALVES = range(1, 26)


def _cell(bands: int, cols: int, band: int, col: int) -> int:
    return band * cols + col % cols


def build(bands: int, half: int, name: str) -> dict:
    cols = 2 * half
    size = bands * cols
    moves = []
    for band in range(bands):
        cycle = [_cell(bands, cols, band, c) for c in range(cols)]
        moves += native.turn_and_inverse(f"r{band:0{len(str(bands - 1))}d}", perm.from_cycles(size, [cycle]))
    for start in range(cols):
        p = list(range(size))
        for band in range(bands):
            for k in range(half):
                src = _cell(bands, cols, band, start + k)
                p[src] = _cell(bands, cols, bands - 1 - band, start + half - 1 - k)
        moves.append(native.move(f"f{start:0{len(str(cols - 1))}d}", tuple(p)))
    symbols = _symbols(bands)
    goal = [symbols[2 * band + (col >= half)] for band in range(bands) for col in range(cols)]
    colours = {s: (f"band {k // 2} {'west' if k % 2 == 0 else 'east'}",
                   native.hsv_hex(k / (2 * bands), 0.7 if k % 2 else 0.45, 0.9)) for k, s in enumerate(symbols)}
    return native.definition(name=name, description=describe(bands, half), goal=goal, moves=moves,
                             colours=colours, cells=native.grid_cells(bands, cols))


def _symbols(bands: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    count = 2 * bands
    return list(letters[:count]) if count <= len(letters) else [f"c{k}" for k in range(count)]


def describe(bands: int, half: int) -> str:
    return (f"Globe: {bands} bands of {2 * half} cells; a band turns one step, a flip turns half the "
            "sphere over.")
