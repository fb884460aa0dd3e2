"""Optimal Loopover solving on small boards (up to 9 cells: 2x2 ... 3x3) from a complete table.

Every permutation of the cells is ranked (Lehmer code); a breadth-first search from the goal
over unit shifts gives the distance of every reachable ranked state (255: unreachable). A state
is solved by stepping to any neighbour one closer. The table is stored once (solver.special.store).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from solver.compiled import njit

from solver.errors import UnreachableError
from solver.special import store
from solver.special.lehmer import rank_permutation, unrank_permutation
from solver.special.loopover.board import Board, Shift

VERSION = 1
SIZES = {(r, c) for r in range(2, 5) for c in range(2, 5) if r * c <= 9}
UNREACHED = 255


def unit_shifts(rows: int, cols: int) -> list[Shift]:
    """Every distinct one-cell shift (on a line of two, left and right are the same move)."""
    out = []
    for kind, count, length in (("row", rows, cols), ("col", cols, rows)):
        for i in range(count):
            out += [Shift(kind, i, 1)] + ([Shift(kind, i, -1)] if length > 2 else [])
    return out


def destinations(board: Board, s: Shift) -> np.ndarray:
    """dst[cell] = where the tile on `cell` goes."""
    dst = np.arange(board.cells, dtype=np.int64)
    for cell in range(board.cells):
        r, c = divmod(cell, board.cols)
        if s.kind == "row" and r == s.index:
            dst[cell] = r * board.cols + (c + s.amount) % board.cols
        elif s.kind == "col" and c == s.index:
            dst[cell] = ((r + s.amount) % board.rows) * board.cols + c
    return dst


@njit(cache=True, nogil=True)
def _bfs(n, total, moves, stop):
    """Distances from the goal (left part-filled when stop[0] is raised)."""
    dist = np.full(total, UNREACHED, np.uint8)
    queue = np.empty(total, np.int64)
    state = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    start = rank_permutation(np.arange(n), n)
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        if head & 0xFFFF == 0 and stop[0]:
            break
        r = queue[head]
        head += 1
        unrank_permutation(r, n, state)
        for m in range(moves.shape[0]):
            for cell in range(n):
                nxt[moves[m, cell]] = state[cell]
            q = rank_permutation(nxt, n)
            if dist[q] == UNREACHED:
                dist[q] = dist[r] + 1
                queue[tail] = q
                tail += 1
    return dist


@lru_cache(maxsize=None)
def table(rows: int, cols: int) -> np.ndarray:
    board = Board(rows, cols)
    moves = np.array([destinations(board, s) for s in unit_shifts(rows, cols)])
    total = int(np.prod(np.arange(1, board.cells + 1)))
    params = {"version": VERSION, "rows": rows, "cols": cols}
    return store.load_or_build("loopover", f"loopover-{rows}x{cols}-v{VERSION}", params,
                               lambda stop: _bfs(board.cells, total, moves, stop))


def distance(tiles, rows: int, cols: int) -> int:
    return int(table(rows, cols)[rank_permutation(np.asarray(tiles, dtype=np.int64), len(tiles))])


def solve(tiles, rows: int, cols: int) -> list[Shift]:
    board = Board(rows, cols)
    state = board.check(tiles)
    dist = table(rows, cols)
    shifts = unit_shifts(rows, cols)
    moves = [destinations(board, s) for s in shifts]
    d = int(dist[rank_permutation(state, board.cells)])
    if d == UNREACHED:
        raise UnreachableError("state is unreachable from the goal")
    out = []
    while d > 0:
        for s, dst in zip(shifts, moves):
            nxt = np.empty_like(state)
            nxt[dst] = state
            if dist[rank_permutation(nxt, board.cells)] == d - 1:
                out.append(s)
                state, d = nxt, d - 1
                break
    return out
