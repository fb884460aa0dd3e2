"""The plain layer-by-layer Loopover method (the seed's), kept as the bench's yardstick.

Each tile is inserted on its own: rotate its row so the target cell sits in the free last
column, bring the tile into that column and shift it to the row, rotate the row back; the last
column the same way through the corner; then the bottom row by the solver's own 3-cycles and
parity fix. Each step is recorded as it is made (no merging of consecutive shifts of one line:
that, with the row kept rotated between tiles, is what the real solver does better).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.special.loopover.constructive import bottom_row, fix_parity
from solver.special.loopover.lines import COL, ROW, positions, shift, shortest


@njit(cache=True)
def emit(out, count, grid, pos, rows, cols, kind, index, amount):
    a = shortest(amount, cols if kind == ROW else rows)
    if a == 0:
        return count
    shift(grid, pos, rows, cols, kind, index, a)
    out[count, 0], out[count, 1], out[count, 2] = kind, index, a
    return count + 1


@njit(cache=True)
def baseline_kernel(grid, rows, cols):
    out = np.zeros((16 * rows * cols + 64, 3), np.int64)
    pos = positions(grid)
    count = 0
    last, bottom = cols - 1, rows - 1
    for r in range(rows - 1):
        for c in range(cols - 1):
            t = r * cols + c
            count = emit(out, count, grid, pos, rows, cols, ROW, r, last - c)
            i, j = divmod(pos[t], cols)
            if not (i == r and j == last):
                if i == r:
                    s = last - j
                    count = emit(out, count, grid, pos, rows, cols, ROW, r, s)
                    count = emit(out, count, grid, pos, rows, cols, COL, last, 1)
                    count = emit(out, count, grid, pos, rows, cols, ROW, r, -s)
                    i = r + 1
                elif j != last:
                    count = emit(out, count, grid, pos, rows, cols, ROW, i, last - j)
                count = emit(out, count, grid, pos, rows, cols, COL, last, r - i)
            count = emit(out, count, grid, pos, rows, cols, ROW, r, c - last)
    for r in range(rows - 1):
        t = r * cols + last
        count = emit(out, count, grid, pos, rows, cols, COL, last, bottom - r)
        i, j = divmod(pos[t], cols)
        if not (i == bottom and j == last):
            if j == last:
                s = bottom - i
                count = emit(out, count, grid, pos, rows, cols, COL, last, s)
                count = emit(out, count, grid, pos, rows, cols, ROW, bottom, 1)
                count = emit(out, count, grid, pos, rows, cols, COL, last, -s)
                j = 0
            count = emit(out, count, grid, pos, rows, cols, ROW, bottom, last - j)
        count = emit(out, count, grid, pos, rows, cols, COL, last, r - bottom)
    count = fix_parity(out, count, grid, pos, rows, cols)
    count = bottom_row(out, count, grid, pos, rows, cols, False)
    return out[:count].copy()
