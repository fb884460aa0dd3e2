"""A constructive Loopover solver for any R x C board (numba kernel).

1. The block (rows 0..R-2, columns 0..C-2), row by row. The last column is free space: a tile
   enters its row through the cell of the last column. The row being built stays rotated so that
   its next empty cell sits in the last column: after each tile the row shifts left by one, and
   after the last tile it is home. (The plain method rotates the row out and back for every
   tile, about C/2 moves a tile more. Choosing the cheapest tile next instead of left to right
   was measured and is worse: the row's rotation then costs about C/4 a tile.)
2. The last column, the same way with the bottom row as free space and the column rotated so
   that its next empty cell is the corner.
3. The bottom row by 3-cycles built from commutators (cycle3), each placing one or two
   tiles; the bottom row is first rotated to its best parity-keeping offset.

Parity: when R and C are both odd every shift is an even permutation, so an odd board is
unreachable (refused by the caller). When C is even, an odd board left after step 2 is made even
by one shift of the bottom row, and step 3 needs only 3-cycles; when C is odd and R even the caller
solves the transposed board instead.
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

from solver.special.loopover.lines import COL, ROW, emit, parity, positions, shortest


@njit(cache=True, nogil=True)
def _block(out, count, grid, pos, rows, cols):
    last = cols - 1
    for r in range(rows - 1):
        for c in range(cols - 1):
            i, j = divmod(pos[r * cols + c], cols)
            if not (i == r and j == last):
                if i == r:
                    # In the row being built: lift it into the free column one row down.
                    count = emit(out, count, grid, pos, rows, cols, ROW, r, last - j)
                    count = emit(out, count, grid, pos, rows, cols, COL, last, 1)
                    count = emit(out, count, grid, pos, rows, cols, ROW, r, j - last)
                    i = r + 1
                elif j != last:
                    count = emit(out, count, grid, pos, rows, cols, ROW, i, last - j)
                count = emit(out, count, grid, pos, rows, cols, COL, last, r - i)
            count = emit(out, count, grid, pos, rows, cols, ROW, r, -1)
    return count


@njit(cache=True, nogil=True)
def _last_column(out, count, grid, pos, rows, cols):
    last, bottom = cols - 1, rows - 1
    for r in range(rows - 1):
        i, j = divmod(pos[r * cols + last], cols)
        if not (i == bottom and j == last):
            if j == last:
                # In the column's unsolved part: out through the corner into the bottom row.
                count = emit(out, count, grid, pos, rows, cols, COL, last, bottom - i)
                count = emit(out, count, grid, pos, rows, cols, ROW, bottom, 1)
                count = emit(out, count, grid, pos, rows, cols, COL, last, i - bottom)
                j = 0
            count = emit(out, count, grid, pos, rows, cols, ROW, bottom, last - j)
        count = emit(out, count, grid, pos, rows, cols, COL, last, -1)
    return count


@njit(cache=True, nogil=True)
def _cycle_cost(cols, c, p, q, s):
    """Moves of cycle3(p, q, s) when its helper is above column c (after merging shifts)."""
    k1, a1 = c - q, q - p
    k2, a2 = c - p, p - s
    cost = 4
    for amount in (k1 + a1, -a1, -k1 + k2 + a2, -a2, -k2):
        cost += abs(shortest(amount, cols))
    return cost


@njit(cache=True, nogil=True)
def cycle3(out, count, grid, pos, rows, cols, p, q, s):
    """3-cycle of bottom-row columns p -> q -> s -> p (the tile in column p goes to column q),
    leaving every other tile in place. [A^a, D] (A: bottom row right by a, D: column c down by
    one) is the 3-cycle X -> (bottom, c-a) -> (bottom, c) -> X with X the cell above (bottom, c);
    conjugated by A^k it reaches any two bottom cells. Two of them sharing X make p -> q -> s:
    first X -> p -> q, then X -> s -> p; X's tile is back. The column c is the cheapest one."""
    bottom = rows - 1
    best, c = 1 << 30, 0
    for cc in range(cols):
        cost = _cycle_cost(cols, cc, p, q, s)
        if cost < best:
            best, c = cost, cc
    for first, second in ((p, q), (s, p)):
        k = c - second
        a = second - first
        count = emit(out, count, grid, pos, rows, cols, ROW, bottom, k + a)
        count = emit(out, count, grid, pos, rows, cols, COL, c, 1)
        count = emit(out, count, grid, pos, rows, cols, ROW, bottom, -a)
        count = emit(out, count, grid, pos, rows, cols, COL, c, -1)
        count = emit(out, count, grid, pos, rows, cols, ROW, bottom, -k)
    return count


@njit(cache=True, nogil=True)
def fix_parity(out, count, grid, pos, rows, cols):
    """Make the board an even permutation with one shift of the bottom row (C even); for C odd
    the caller has made sure the board is even (by solving it transposed when R is even)."""
    if parity(grid) == 1 and cols % 2 == 0:
        count = emit(out, count, grid, pos, rows, cols, ROW, rows - 1, 1)
    return count


@njit(cache=True, nogil=True)
def bottom_row(out, count, grid, pos, rows, cols, rotate):
    """Solve the bottom row (everything else solved, even permutation) by 3-cycles."""
    base = (rows - 1) * cols
    if rotate:
        # The offset with the most tiles home, among those that keep the permutation even.
        best_k, best_score = 0, -1
        for k in range(cols):
            if cols % 2 == 0 and k % 2 == 1:
                continue
            home = 0
            for c in range(cols):
                if grid[base + c] - base == (c + k) % cols:
                    home += 1
            score = home * cols - abs(shortest(k, cols))
            if score > best_score:
                best_k, best_score = k, score
        count = emit(out, count, grid, pos, rows, cols, ROW, rows - 1, best_k)
    while True:
        target = -1
        for c in range(cols):
            if grid[base + c] != base + c:
                target = c
                break
        if target < 0:
            return count
        source = pos[base + target] - base  # where the tile for `target` is
        onward = grid[base + target] - base  # where the tile now on `target` belongs
        if onward == source:
            for c in range(cols):
                if c != target and c != source and grid[base + c] != base + c:
                    onward = c
                    break
        count = cycle3(out, count, grid, pos, rows, cols, source, target, onward)


@njit(cache=True, nogil=True)
def solve_kernel(grid, rows, cols):
    """Moves (kind, index, amount) that solve `grid` in place. The caller checked solvability and
    passes boards with C even or with R and C odd (see the module's note on parity)."""
    out = np.zeros((12 * rows * cols + 64, 3), np.int64)
    pos = positions(grid)
    count = _block(out, 0, grid, pos, rows, cols)
    count = _last_column(out, count, grid, pos, rows, cols)
    count = fix_parity(out, count, grid, pos, rows, cols)
    count = bottom_row(out, count, grid, pos, rows, cols, True)
    return out[:count].copy()
