"""Additive pattern databases for sliding puzzles.

The tiles are split into disjoint groups. For one group the table holds, for every placement of
its tiles, the fewest moves OF THOSE TILES that bring them home (moves of other tiles are free).
Because each move moves one tile, the sum over the groups is still a lower bound (Korf and Felner's
disjoint databases). A placement is indexed sparsely, sum(cell_s * N^s) over the group's tiles in
order, which wastes some entries but lets the search update an index with one addition per move.

The table is computed by a breadth-first search over (placement, blank cell) with 0-cost blank
moves among the other cells and 1-cost moves of a group tile, then stored (solver.special.store).
"""

from __future__ import annotations

import numpy as np
from solver.compiled import njit

from solver.special import store
from solver.special.sliding.board import Board

VERSION = 1
MAX_ENTRIES = 1 << 25  # sparse table entries per group (32 MB): bounds the group size


def group_size(board: Board) -> int:
    """Largest group whose sparse table and breadth-first search both stay small."""
    n = board.cells
    k = 1
    while k + 1 < n and n ** (k + 1) <= MAX_ENTRIES and _states(n, k + 1) <= 80_000_000:
        k += 1
    return k


def _states(n: int, k: int) -> int:
    """Placements of k tiles and the blank on n cells."""
    out = 1
    for i in range(k + 1):
        out *= n - i
    return out


def partition(board: Board) -> list[tuple[int, ...]]:
    """Disjoint compact groups of tiles: each grows from the first free goal cell (row-major) by
    adding the tile whose goal cell is nearest to the group's cells, so groups are blobs."""
    k = group_size(board)
    free = list(range(1, board.cells))
    groups = []

    def dist(a, b):
        (r0, c0), (r1, c1) = divmod(a, board.cols), divmod(b, board.cols)
        return abs(r0 - r1) + abs(c0 - c1)

    # Groups as large as allowed, leaving at least one tile for each group still to come
    # (15 tiles with k = 6: 6-6-3).
    count = -(-len(free) // k)
    while free:
        size = max(1, min(k, len(free) - (count - len(groups) - 1)))
        group = [free.pop(0)]
        while len(group) < size:
            best = min(free, key=lambda t: (sum(dist(t, g) for g in group), t))
            free.remove(best)
            group.append(best)
        groups.append(tuple(sorted(group)))
    return groups


def mirror(board: Board) -> np.ndarray | None:
    """The reflection of the board in its main diagonal as a cell map, when it maps the goal to
    itself (square boards): the heuristic of the reflected state is a second lower bound."""
    if board.rows != board.cols:
        return None
    n = board.rows
    return np.array([(c % n) * n + c // n for c in range(board.cells)], dtype=np.int64)


def neighbour_table(board: Board) -> np.ndarray:
    nb = np.full((board.cells, 4), -1, dtype=np.int64)
    for c in range(board.cells):
        for k, d in enumerate(board.neighbours(c)):
            nb[c, k] = d
    return nb


@njit(cache=True, nogil=True)
def _unpack(key, n, powers, cells):
    """(blank cell, placement) of a search key = placement * n + blank; cells[s] = group tile s's cell."""
    placement = key // n
    for s in range(cells.size):
        cells[s] = (placement // powers[s]) % n
    return key % n, placement


@njit(cache=True, nogil=True)
def _enqueue(visited, order, tail, key):
    """Append key to the queue unless its bit in `visited` is set; the queue's new length."""
    if (visited[key >> 3] >> (key & 7)) & 1:
        return tail
    visited[key >> 3] |= 1 << (key & 7)
    order[tail] = key
    return tail + 1


@njit(cache=True, nogil=True)
def _build(ncells, nb, goal_cells, total, stop):
    """The group's table (left part-filled when stop[0] is raised)."""
    k = goal_cells.size
    n = ncells
    powers = np.empty(k, np.int64)
    p = 1
    for s in range(k):
        powers[s] = p
        p *= n
    table = np.full(p, 255, np.uint8)
    visited = np.zeros((p * n + 7) // 8, np.uint8)
    order = np.empty(total, np.int64)
    cells = np.empty(k, np.int64)

    start = 0
    for s in range(k):
        start += goal_cells[s] * powers[s]
    tail = _enqueue(visited, order, 0, start * n)  # blank on cell 0
    head = 0
    depth = 0
    while head < tail:
        # Close the layer under free moves (the blank swaps with a tile outside the group).
        i = head
        while i < tail:
            if i & 0xFFFF == 0 and stop[0]:
                return table
            blank, placement = _unpack(order[i], n, powers, cells)
            i += 1
            for j in range(4):
                q = nb[blank, j]
                if q < 0:
                    continue
                occupied = False
                for s in range(k):
                    if cells[s] == q:
                        occupied = True
                if occupied:
                    continue
                tail = _enqueue(visited, order, tail, placement * n + q)
        end = tail
        for i in range(head, end):
            placement = order[i] // n
            if table[placement] == 255:
                table[placement] = depth
        # One move of a group tile into the blank: the next layer.
        for i in range(head, end):
            if i & 0xFFFF == 0 and stop[0]:
                return table
            blank, placement = _unpack(order[i], n, powers, cells)
            for j in range(4):
                q = nb[blank, j]
                if q < 0:
                    continue
                for s in range(k):
                    if cells[s] == q:
                        tail = _enqueue(visited, order, tail, (placement + (blank - q) * powers[s]) * n + q)
        head = end
        depth += 1
    return table


def build(board: Board, group: tuple[int, ...], stop: np.ndarray | None = None) -> np.ndarray:
    """The group's table; part-filled when stop[0] was raised (store.load_or_build keeps none of those)."""
    goal = np.array(group, dtype=np.int64)  # tile t's goal cell is t
    stop = np.zeros(1, np.int64) if stop is None else stop
    return _build(board.cells, neighbour_table(board), goal, _states(board.cells, len(group)), stop)


def tables(board: Board) -> list[np.ndarray]:
    """The pattern database of every group of `partition(board)`, built on first use and stored."""
    out = []
    for group in partition(board):
        name = f"sliding-{board.rows}x{board.cols}-v{VERSION}-" + "-".join(map(str, group))
        params = {"version": VERSION, "rows": board.rows, "cols": board.cols, "group": list(group)}
        out.append(store.load_or_build("sliding", name, params, lambda stop, g=group: build(board, g, stop)))
    return out
