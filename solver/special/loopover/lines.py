"""Loopover's moves on the compact representation, as numba kernels.

A board is an int array of R*C tiles in row-major order; tile t belongs on cell t. `pos[t]` is
the cell tile t is on. A move is a line shift (kind, index, amount): kind ROW moves row `index`
right by `amount` cells, kind COL moves column `index` down; amounts are cyclic and one unit of
shift counts as one move. Solutions are written into an (m, 3) array; `emit` merges a shift into
the previous one when both move the same line (so detours that cancel cost nothing).
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

ROW = 0
COL = 1


@njit(cache=True, nogil=True)
def shortest(amount, length):
    """The amount as the shorter way round: in (-length/2, length/2]."""
    a = amount % length
    if 2 * a > length:
        a -= length
    return a


@njit(cache=True, nogil=True)
def shift(grid, pos, rows, cols, kind, index, amount):
    if kind == ROW:
        a = amount % cols
        if a == 0:
            return
        line = grid[index * cols:(index + 1) * cols].copy()
        for c in range(cols):
            cell = index * cols + (c + a) % cols
            grid[cell] = line[c]
            pos[line[c]] = cell
    else:
        a = amount % rows
        if a == 0:
            return
        line = np.empty(rows, grid.dtype)
        for r in range(rows):
            line[r] = grid[r * cols + index]
        for r in range(rows):
            cell = ((r + a) % rows) * cols + index
            grid[cell] = line[r]
            pos[line[r]] = cell


@njit(cache=True, nogil=True)
def emit(out, count, grid, pos, rows, cols, kind, index, amount):
    """Apply a shift and record it; returns the new number of records."""
    length = cols if kind == ROW else rows
    a = shortest(amount, length)
    if a == 0:
        return count
    shift(grid, pos, rows, cols, kind, index, a)
    if count > 0 and out[count - 1, 0] == kind and out[count - 1, 1] == index:
        merged = shortest(out[count - 1, 2] + a, length)
        if merged == 0:
            return count - 1
        out[count - 1, 2] = merged
        return count
    out[count, 0] = kind
    out[count, 1] = index
    out[count, 2] = a
    return count + 1


@njit(cache=True, nogil=True)
def positions(grid):
    pos = np.empty(grid.size, np.int64)
    for cell in range(grid.size):
        pos[grid[cell]] = cell
    return pos


@njit(cache=True, nogil=True)
def parity(grid):
    """0 when the board is an even permutation of the goal, 1 when odd."""
    seen = np.zeros(grid.size, np.bool_)
    cycles = 0
    for start in range(grid.size):
        if seen[start]:
            continue
        cycles += 1
        i = start
        while not seen[i]:
            seen[i] = True
            i = grid[i]
    return (grid.size - cycles) % 2


@njit(cache=True, nogil=True)
def replay(grid, rows, cols, moves):
    """The board after the moves (a copy), for checking a solution."""
    g = grid.copy()
    pos = positions(g)
    for m in range(moves.shape[0]):
        shift(g, pos, rows, cols, moves[m, 0], moves[m, 1], moves[m, 2])
    return g
