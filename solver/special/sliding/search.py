"""Optimal sliding-puzzle solving: IDA* over tile lists with additive pattern databases.

The kernel keeps one index per group and updates it with one addition when a tile moves. On
square boards the heuristic is the larger of the sums for the state and for its reflection in the
main diagonal (the same tables read through the reflected cells), which is still admissible.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from solver.compiled import njit

from solver.special.sliding import pdb
from solver.special.sliding.board import Board


@dataclass(frozen=True)
class Heuristic:
    """Flat arrays for the kernel: every group table end to end, and per tile its group, the
    power of N that places it in the group's index, and the same for the reflection."""

    table: np.ndarray
    offset: np.ndarray
    group: np.ndarray
    power: np.ndarray
    mirror_group: np.ndarray
    mirror_power: np.ndarray
    mirror_cell: np.ndarray
    neighbours: np.ndarray
    has_mirror: bool


@lru_cache(maxsize=8)
def heuristic(board: Board) -> Heuristic:
    groups = pdb.partition(board)
    tables = pdb.tables(board)
    n = board.cells
    offset = np.cumsum([0] + [t.size for t in tables[:-1]]).astype(np.int64)
    group = np.zeros(n, np.int64)
    power = np.zeros(n, np.int64)
    for g, tiles in enumerate(groups):
        for s, t in enumerate(tiles):
            group[t], power[t] = g, n**s
    reflect = pdb.mirror(board)
    mirror_group, mirror_power = group.copy(), power.copy()
    if reflect is not None:
        # Tile u plays, in the reflected state, the role of tile reflect[u] (goal cell = tile).
        for u in range(1, n):
            a = reflect[u]
            mirror_group[u], mirror_power[u] = group[a], power[a]
    else:
        reflect = np.arange(n, dtype=np.int64)
    return Heuristic(
        table=np.concatenate([np.asarray(t) for t in tables]),
        offset=offset, group=group, power=power,
        mirror_group=mirror_group, mirror_power=mirror_power, mirror_cell=reflect,
        neighbours=pdb.neighbour_table(board), has_mirror=pdb.mirror(board) is not None,
    )


@njit(cache=True, nogil=True)
def _ida(tiles, nb, table, offset, group, power, mgroup, mpower, mcell, has_mirror, path, max_nodes, stop):
    n = tiles.size
    ng = offset.size
    idx = np.zeros(ng, np.int64)
    midx = np.zeros(ng, np.int64)
    blank = 0
    for c in range(n):
        t = tiles[c]
        if t == 0:
            blank = c
        else:
            idx[group[t]] += c * power[t]
            midx[mgroup[t]] += mcell[c] * mpower[t]
    hs = 0
    ms = 0
    for g in range(ng):
        hs += table[offset[g] + idx[g]]
        ms += table[offset[g] + midx[g]]
    h = hs
    if has_mirror and ms > h:
        h = ms
    if h == 0:
        return 0, 0
    nodes = 0
    maxd = path.size - 1
    nxt = np.zeros(maxd + 1, np.int64)
    bound = h
    while True:
        over = 1 << 30
        g = 0
        path[0] = blank
        nxt[0] = 0
        while True:
            if nxt[g] >= 4:
                if g == 0:
                    break
                # Undo the move into level g: the tile goes back from path[g-1] to path[g].
                b = path[g - 1]
                q = path[g]
                t = tiles[b]
                gi = group[t]
                hs -= table[offset[gi] + idx[gi]]
                idx[gi] += (q - b) * power[t]
                hs += table[offset[gi] + idx[gi]]
                mi = mgroup[t]
                ms -= table[offset[mi] + midx[mi]]
                midx[mi] += (mcell[q] - mcell[b]) * mpower[t]
                ms += table[offset[mi] + midx[mi]]
                tiles[q] = t
                tiles[b] = 0
                g -= 1
                continue
            j = nxt[g]
            nxt[g] += 1
            b = path[g]
            q = nb[b, j]
            if q < 0 or (g > 0 and q == path[g - 1]) or g >= maxd:
                continue
            nodes += 1
            if nodes & 4095 == 0 and stop[0]:  # the caller's budget: cancelled or out of time
                return -1, nodes
            t = tiles[q]
            gi = group[t]
            old_h = table[offset[gi] + idx[gi]]
            new_i = idx[gi] + (b - q) * power[t]
            new_h = table[offset[gi] + new_i]
            mi = mgroup[t]
            old_m = table[offset[mi] + midx[mi]]
            new_mi = midx[mi] + (mcell[b] - mcell[q]) * mpower[t]
            new_m = table[offset[mi] + new_mi]
            h = hs - old_h + new_h
            if has_mirror:
                m = ms - old_m + new_m
                if m > h:
                    h = m
            f = g + 1 + h
            if f > bound:
                if f < over:
                    over = f
                continue
            hs += new_h - old_h
            ms += new_m - old_m
            idx[gi] = new_i
            midx[mi] = new_mi
            tiles[b] = t
            tiles[q] = 0
            g += 1
            path[g] = q
            nxt[g] = 0
            if h == 0:
                return g, nodes
        if over >= 1 << 30 or nodes > max_nodes:
            return -1, nodes
        bound = over


def solve_cells(board: Board, tiles, max_nodes: int = 1 << 40, max_depth: int = 200, stop=None):
    """Optimal solution as the list of cells the blank visits after its start, and the number of
    nodes generated; None when the node budget ran out first or stop[0] was raised."""
    stop = np.zeros(1, np.int64) if stop is None else stop
    h = heuristic(board)
    work = np.array(tiles, dtype=np.int64)
    path = np.zeros(max_depth + 1, np.int64)
    length, nodes = _ida(work, h.neighbours, h.table, h.offset, h.group, h.power, h.mirror_group,
                         h.mirror_power, h.mirror_cell, h.has_mirror, path, max_nodes, stop)
    if length < 0:
        return None, nodes
    return [int(c) for c in path[1:length + 1]], nodes
