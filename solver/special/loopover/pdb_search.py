"""Optimal Loopover solving on boards up to 16 cells (4x4, 3x4, 3x5, ...) by IDA* with a pattern
database and the board's translation symmetry.

The pattern is a block of tiles at the top left (2 x 3, or smaller on small boards); its table
holds, for every placement of those tiles, the fewest unit shifts that bring them home (every
shift moves every tile in its line, so groups do not add up; the bound is a maximum). Loopover
looks the same from every cell of the torus: translating the board by (dr, dc) maps shifts to
shifts, so the same table read through a translation bounds the block of tiles starting at any
cell. The heuristic is the maximum over all R*C translations. (Adding the board seen across its
diagonal on square boards was measured: fewer nodes, but slower on 4x4.)

The search never undoes the previous shift, shifts a line at most two steps one way (two steps
the other way is the same) and orders shifts of parallel lines, which commute.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from solver.compiled import njit

from solver.errors import PuzzleError
from solver.search.budget import Budget
from solver.special import store
from solver.special.loopover.board import Board, Shift
from solver.special.loopover.optimal import destinations, unit_shifts

VERSION = 1
MAX_CELLS = 16
# Boards where the search is practical: a 2 x 3 block bounds little on long thin boards (2x8 took
# minutes), and up to 9 cells the complete table (optimal.py) answers at once.
SIZES = {(r, c) for r in range(3, 6) for c in range(3, 6) if 9 < r * c <= MAX_CELLS}


class BudgetExceeded(PuzzleError):
    """The optimal search ran out of its node budget."""


def pattern(board: Board) -> tuple[int, ...]:
    rows, cols = min(2, board.rows), min(3, board.cols)
    return tuple(r * board.cols + c for r in range(rows) for c in range(cols))


@njit(cache=True, nogil=True)
def _build(ncells, dst, tiles_goal, stop):
    """The table (left part-filled when stop[0] is raised)."""
    k = tiles_goal.size
    size = ncells ** k
    table = np.full(size, 255, np.uint8)
    total = 1
    for i in range(k):
        total *= ncells - i
    queue = np.empty(total, np.int64)
    cells = np.empty(k, np.int64)
    start = 0
    p = 1
    for s in range(k):
        start += tiles_goal[s] * p
        p *= ncells
    table[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        if head & 0xFFFF == 0 and stop[0]:
            break
        key = queue[head]
        head += 1
        rest = key
        for s in range(k):
            cells[s] = rest % ncells
            rest //= ncells
        for m in range(dst.shape[0]):
            nk = 0
            p = 1
            for s in range(k):
                nk += dst[m, cells[s]] * p
                p *= ncells
            if table[nk] == 255:
                table[nk] = table[key] + 1
                queue[tail] = nk
                tail += 1
    return table


@lru_cache(maxsize=8)
def _setup(rows: int, cols: int):
    board = Board(rows, cols)
    shifts = unit_shifts(rows, cols)
    dst = np.array([destinations(board, s) for s in shifts], dtype=np.int64)
    pat = np.array(pattern(board), dtype=np.int64)
    params = {"version": VERSION, "rows": rows, "cols": cols, "pattern": pat.tolist()}
    table = store.load_or_build("loopover", f"loopover-{rows}x{cols}-pdb-v{VERSION}", params,
                                lambda stop: _build(board.cells, dst, pat, stop))
    n = board.cells
    # translate[t, cell]: the cell moved by translation t = (dr, dc); tiles are named by goal cell.
    translate = np.empty((n, n), np.int64)
    for t in range(n):
        dr, dc = divmod(t, cols)
        for cell in range(n):
            r, c = divmod(cell, cols)
            translate[t, cell] = ((r + dr) % rows) * cols + (c + dc) % cols
    back = np.empty_like(translate)
    for t in range(n):
        back[t, translate[t]] = np.arange(n)
    # Move m as (kind, line, direction) for the pruning rules.
    kinds = np.array([[0 if s.kind == "row" else 1, s.index, s.amount] for s in shifts], dtype=np.int64)
    lengths = np.array([cols if s.kind == "row" else rows for s in shifts], dtype=np.int64)
    return shifts, dst, pat, np.asarray(table), translate, back, kinds, lengths


@njit(cache=True, nogil=True)
def _h(pos, table, pat, translate, back, ncells):
    best = 0
    for t in range(ncells):
        idx = 0
        p = 1
        for s in range(pat.size):
            tile = translate[t, pat[s]]
            idx += back[t, pos[tile]] * p
            p *= ncells
        v = table[idx]
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _allowed(kinds, lengths, prev, prev_run, m):
    """Pruning: no undo, at most two steps one way on a line (two back = two forward when the line
    has four cells or fewer), parallel lines in increasing order."""
    if prev < 0:
        return True
    if kinds[prev, 0] == kinds[m, 0]:
        if kinds[prev, 1] == kinds[m, 1]:
            if kinds[prev, 2] != kinds[m, 2]:
                return False
            if 2 * (prev_run + 1) > lengths[m]:
                return False
            if 2 * (prev_run + 1) == lengths[m] and kinds[m, 2] < 0:
                return False
            return True
        return kinds[m, 1] > kinds[prev, 1]
    return True


@njit(cache=True, nogil=True)
def _ida(grid, dst, table, pat, translate, back, kinds, lengths, path, max_nodes, stop):
    n = grid.size
    pos = np.empty(n, np.int64)
    for c in range(n):
        pos[grid[c]] = c
    h0 = _h(pos, table, pat, translate, back, n)
    solved = True
    for c in range(n):
        if grid[c] != c:
            solved = False
    if solved:
        return 0, 0
    nmoves = dst.shape[0]
    maxd = path.size
    nxt = np.zeros(maxd + 1, np.int64)
    run = np.zeros(maxd + 1, np.int64)
    saved = np.empty((maxd + 1, n), np.int64)
    nodes = 0
    bound = h0
    while True:
        over = 1 << 30
        g = 0
        nxt[0] = 0
        while g >= 0:
            if nxt[g] >= nmoves or g >= maxd:
                if g == 0:
                    break
                g -= 1
                for c in range(n):
                    grid[c] = saved[g, c]
                    pos[grid[c]] = c
                continue
            m = nxt[g]
            nxt[g] += 1
            prev = path[g - 1] if g > 0 else -1
            if not _allowed(kinds, lengths, prev, run[g], m):
                continue
            for c in range(n):
                saved[g, c] = grid[c]
            for c in range(n):
                grid[dst[m, c]] = saved[g, c]
            for c in range(n):
                pos[grid[c]] = c
            nodes += 1
            if nodes & 0xFFFF == 0 and stop[0]:
                return -1, nodes
            h = _h(pos, table, pat, translate, back, n)
            if g + 1 + h > bound:
                if g + 1 + h < over:
                    over = g + 1 + h
                for c in range(n):
                    grid[c] = saved[g, c]
                    pos[grid[c]] = c
                continue
            path[g] = m
            run[g + 1] = run[g] + 1 if prev == m else 1
            g += 1
            nxt[g] = 0
            done = True
            for c in range(n):
                if grid[c] != c:
                    done = False
                    break
            if done:
                return g, nodes
        if nodes > max_nodes or over >= 1 << 30:
            return -1, nodes
        bound = over


def solve(tiles, rows: int, cols: int, max_nodes: int = 1 << 36, budget: Budget | None = None) -> list[Shift]:
    """An optimal solution (fewest unit shifts) for a board of at most 16 cells. A cancel or the
    budget's time limit stops it within about budget.POLL seconds (Cancelled, OutOfTime)."""
    budget = budget or Budget()
    board = Board(rows, cols)
    if (rows, cols) not in SIZES and board.cells > 9:
        raise PuzzleError(f"optimal Loopover search handles {sorted(SIZES)} and boards up to 9 cells, "
                               f"not {rows}x{cols}")
    grid = board.check(tiles).copy()
    shifts, dst, pat, table, translate, back, kinds, lengths = _setup(rows, cols)
    path = np.zeros(64, np.int64)
    budget.report(phase="optimal")
    with budget.watching() as stop:
        length, nodes = _ida(grid, dst, table, pat, translate, back, kinds, lengths, path, max_nodes, stop)
    if length < 0 and stop[0]:
        raise budget.stop_reason()
    if length < 0:
        raise BudgetExceeded(f"optimal Loopover search stopped after {nodes} nodes")
    out = [shifts[m] for m in path[:length]]
    if board.apply(tiles, out) != tuple(range(board.cells)):
        raise AssertionError("loopover solution does not replay to the goal")
    return out
