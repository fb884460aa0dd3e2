"""The ball of short sequences: every distinct permutation reachable in at most d moves, each with
one shortest sequence, found breadth-first with duplicates removed (compiled kernel). Only
canonical continuations are expanded (MoveSet.allowed); the level sizes match the known counts
(3x3x3: 1, 18, 243, 3240, 43239, 574908; the whole skewb, pyraminx and floppy groups).

It is the source of short pieces for commutators and conjugates and the table side of the
meet-in-the-middle search: being complete up to `complete_depth` is what makes that search exact.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from solver.discover import kernels
from solver.discover.moveset import MoveSet
from solver.search.budget import Budget

CHUNK = 4096  # parents per kernel call between budget checks
DEFAULT_BYTES = 160_000_000


@dataclass
class Pool:
    moves: MoveSet
    store: np.ndarray
    parent: np.ndarray
    last: np.ndarray
    depth: np.ndarray
    table: np.ndarray
    count: int = 1
    complete_depth: int = 0  # every permutation of at most this many moves is in the pool
    levels: list[tuple[int, int]] = field(default_factory=list)  # (start, stop) of each depth

    @classmethod
    def empty(cls, moves: MoveSet, capacity: int) -> "Pool":
        n = moves.stickers
        size = 1 << max(4, (2 * capacity - 1).bit_length())
        store = np.empty((capacity, n), dtype=moves.dtype)
        store[0] = np.arange(n)
        pool = cls(moves, store, np.full(capacity, -1, np.int32), np.full(capacity, len(moves), np.int16),
                   np.zeros(capacity, np.int8), np.zeros(size, np.int64), levels=[(0, 1)])
        kernels.insert_root(pool.table, pool.store, 0)
        return pool

    @classmethod
    def build(cls, moves: MoveSet, *, max_depth: int, budget: Budget, deadline: float | None = None,
              max_bytes: int = DEFAULT_BYTES) -> "Pool":
        """Grow level by level until max_depth, the memory share or the deadline; the last level may
        be partial (then complete_depth is one less)."""
        per_entry = moves.stickers * moves.array.itemsize + 16 + 16  # row, parent/last/depth, table
        capacity = max(len(moves) + 2, min(max_bytes // per_entry, 50_000_000))
        pool = cls.empty(moves, capacity)
        arr = moves.array
        allowed = moves.allowed
        for level in range(1, max_depth + 1):
            start, stop = pool.levels[-1]
            first = pool.count
            e = start
            while e < stop:
                chunk_end = min(stop, e + CHUNK)
                pool.count, reached = kernels.expand(pool.store, pool.parent, pool.last, pool.depth, pool.table,
                                                     e, chunk_end, pool.count, arr, allowed, level)
                budget.tick(pool.count, level)
                if reached < chunk_end or (deadline is not None and time.monotonic() > deadline and chunk_end < stop):
                    pool.levels.append((first, pool.count))
                    return pool
                e = chunk_end
            pool.levels.append((first, pool.count))
            pool.complete_depth = level
            if pool.count == first:  # the whole group is in the pool
                pool.complete_depth = max_depth
                break
        return pool

    def sequence(self, e: int) -> list[int]:
        out = []
        while e > 0:
            out.append(int(self.last[e]))
            e = int(self.parent[e])
        return out[::-1]

    def index_of(self, row: np.ndarray) -> int:
        return int(kernels.find(self.table, self.store, row.astype(self.store.dtype)))

    @property
    def rows(self) -> np.ndarray:
        return self.store[: self.count]

    def upto(self, depth: int) -> int:
        """Number of entries of at most `depth` moves (entries are in order of depth)."""
        depth = min(depth, len(self.levels) - 1)
        return self.levels[depth][1]
