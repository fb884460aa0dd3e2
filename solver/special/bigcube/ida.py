"""IDA* over coordinates (coordinates.py): the search of one phase, compiled.

A phase's state is a row of coordinate values; a turn moves each by its move table, or, for a
24-bit mask coordinate (the 5x5x5's wing classes: C(24, 12) values, too many for a move table of
its turns), by three byte lookups as centres.OrbitMoves. Its distance bound is the largest of its
pruning tables' entries, each indexed by one coordinate or a pair (a * width + b).

The search is run for a whole set of starts at once (the solutions of the phase before, each
with the turns it took so far): `search` finds every path that brings a start to the goal in
exactly `total` turns less those it took, so that calling it with total = 1, 2, ... yields
the phase's ends in order of the whole length, the shortest way through all phases first (the
later phases choose among them). Of two turns of one axis in a row (they commute) only one order
is searched, and a layer never turns twice in a row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solver.compiled import njit
from solver.special.cube3.search import now

CLOCK_EVERY = 1 << 14  # nodes between two looks at the clock


@dataclass(frozen=True)
class Phase:
    """Everything a phase's search reads, packed flat for the kernel."""
    axis: np.ndarray      # (turns,) the axis of each turn
    layer: np.ndarray     # (turns,) a number per layer: an axis' layers in order
    tables: np.ndarray    # int32, every coordinate's move table, flat
    offset: np.ndarray    # (K,) where each coordinate's table starts (-1: a mask coordinate)
    lookups: np.ndarray   # int64 (turns, 3, 256) per mask coordinate, flat
    look_offset: np.ndarray  # (K,)
    prune: np.ndarray     # uint8, every pruning table, flat
    prune_offset: np.ndarray  # (P,)
    first: np.ndarray     # (P,) the coordinate indexing each table's rows
    second: np.ndarray    # (P,) and its columns (-1: none), taken modulo
    width: np.ndarray     # (P,) the number of columns


def pack(axis, layer, coordinates: list, prunes: list[tuple[np.ndarray, int, int]]) -> Phase:
    """`coordinates`: move tables (size, turns) or mask lookups (turns, 3, 256) (3-dimensional);
    `prunes`: (table, first, second or -1, width) with table indexed first * width + second % width,
    the small ones first (a node is mostly cut by one of them before a large one is read)."""
    tables, offset, lookups, look_offset, at, look_at = [], [], [], [], 0, 0
    for c in coordinates:
        if c.ndim == 3:
            offset.append(-1)
            look_offset.append(look_at)
            lookups.append(c.astype(np.int64).ravel())
            look_at += c.size
        else:
            offset.append(at)
            look_offset.append(-1)
            tables.append(c.astype(np.int32).ravel())
            at += c.size
    prune, prune_offset, first, second, width, at = [], [], [], [], [], 0
    for table, a, b, w in prunes:
        prune.append(np.asarray(table, dtype=np.uint8))
        prune_offset.append(at)
        at += len(table)
        first.append(a)
        second.append(b)
        width.append(w)
    ints = lambda x: np.array(x, dtype=np.int64)  # noqa: E731
    empty = np.zeros(1, dtype=np.int64)
    return Phase(ints(axis), ints(layer), np.concatenate(tables) if tables else np.zeros(1, np.int32), ints(offset),
                 np.concatenate(lookups) if lookups else empty, ints(look_offset), np.concatenate(prune),
                 ints(prune_offset), ints(first), ints(second), ints(width))


def bound(phase: Phase, values: np.ndarray) -> int:
    """The distance bound of a state (a row of coordinate values)."""
    return int(_bound(np.asarray(values, dtype=np.int64), phase.prune, phase.prune_offset, phase.first,
                      phase.second, phase.width))


def search(phase: Phase, starts: np.ndarray, lengths: np.ndarray, total: int, cap: int, stop_at: float,
           stop: np.ndarray, longest: int = 24, enough: int = 0,
           settle_at: float = math.inf) -> tuple[list[tuple[int, list[int]]], bool, int]:
    """Every (start index, turns) of exactly total - lengths[start] turns to the goal, up to `cap`
    of them, whether the clock (time.perf_counter) passed `stop_at` or the `stop` flag (a budget's,
    Budget.watching: cancelled or out of time) was raised first, and the nodes searched. Once the
    clock passes `settle_at`, `enough` found (if nonzero) end the search too, as if at `stop_at`."""
    paths = np.full((cap, longest), -1, dtype=np.int64)
    found = np.zeros(cap, dtype=np.int64)
    count, late, nodes = _search(np.asarray(starts, dtype=np.int64), np.asarray(lengths, dtype=np.int64), total,
                          phase.axis, phase.layer, phase.tables, phase.offset, phase.lookups, phase.look_offset,
                          phase.prune, phase.prune_offset, phase.first, phase.second, phase.width,
                          paths, found, stop_at, stop, enough or cap + 1, settle_at)
    return [(int(found[i]), [int(t) for t in paths[i] if t >= 0]) for i in range(count)], bool(late), int(nodes)


@njit(cache=True, nogil=True)
def _bound(values, prune, prune_offset, first, second, width, enough=255):
    """The largest of the tables' distances, or the first one past `enough` (the search needs no more)."""
    h = 0
    for j in range(len(prune_offset)):
        i = values[first[j]] * width[j]
        if second[j] >= 0:
            v = values[second[j]]
            if v >= width[j]:  # a relative coordinate's wings (coordinates.distances); no division else
                v %= width[j]
            i += v
        d = np.int64(prune[prune_offset[j] + i])
        if d > h:
            h = d
            if h > enough:
                break
    return h


@njit(cache=True, nogil=True)
def _turned(value, k, t, turns, tables, offset, lookups, look_offset):
    if offset[k] >= 0:
        return np.int64(tables[offset[k] + value * turns + t])
    base = look_offset[k] + t * 768
    return lookups[base + (value & 255)] | lookups[base + 256 + ((value >> 8) & 255)] \
        | lookups[base + 512 + ((value >> 16) & 255)]


@njit(cache=True, nogil=True)
def _search(starts, lengths, total, axis, layer, tables, offset, lookups, look_offset, prune, prune_offset,
            first, second, width, paths, found, stop_at, stop, enough, settle_at):
    turns = len(axis)
    coordinates = starts.shape[1]
    longest = paths.shape[1]
    values = np.empty((longest + 1, coordinates), dtype=np.int64)
    turn = np.empty(longest + 1, dtype=np.int64)
    count = 0
    nodes = 0
    for s in range(len(starts)):
        depth = total - lengths[s]
        if depth < 0 or depth > longest:
            continue
        values[0] = starts[s]
        h = _bound(values[0], prune, prune_offset, first, second, width)
        if h > depth:
            continue
        if depth == 0:
            if h == 0:  # the start is done already
                found[count] = s
                count += 1
                if count == len(found):
                    return count, False, nodes
            continue
        d = 0
        turn[0] = -1
        while d >= 0:
            t = turn[d] + 1
            down = False
            while t < turns:
                if d > 0 and (layer[t] == layer[turn[d - 1]]
                              or (axis[t] == axis[turn[d - 1]] and layer[t] < layer[turn[d - 1]])):
                    t += 1
                    continue
                nodes += 1
                if nodes % CLOCK_EVERY == 0 and (stop[0] != 0 or now() > stop_at
                                                 or (count >= enough and now() > settle_at)):
                    return count, True, nodes
                for k in range(coordinates):
                    values[d + 1, k] = _turned(values[d, k], k, t, turns, tables, offset, lookups, look_offset)
                h = _bound(values[d + 1], prune, prune_offset, first, second, width, depth - d - 1)
                if d + 1 + h <= depth:
                    if d + 1 == depth:
                        paths[count, :d] = turn[:d]
                        paths[count, d] = t
                        found[count] = s
                        count += 1
                        if count == len(found):
                            return count, False, nodes
                    elif h > 0:  # (a goal state before the end: a shorter total found it)
                        down = True
                        break
                t += 1
            if down:
                turn[d] = t
                d += 1
                turn[d] = -1
            else:
                d -= 1
    return count, False, nodes
