"""Shortest setups that carry chosen slots of one orbit onto an algorithm's slots.

A conjugate X A X' does to the slots that X carries onto A's slots what A does to those. To apply
A to chosen slots (a, b, c) of an orbit, X must carry a to A's first slot, b to its second and c to
its third. One BFS over the ordered tuples of the orbit's slots, from A's slots back through the
inverse moves, gives a shortest such X for every tuple at once.
"""

from __future__ import annotations

import copy
import time

import numpy as np

from solver.search.finisher_kernels import UNREACHED, grow_setups

MAX_TUPLES = 1 << 23  # tuples of one table (slots ** length, 48 MB); bigger orbits get no table
LARGE_TUPLES = 1 << 19  # tables over this many tuples take about a second each: fewer of them are built

_TARGET = -2  # first[] of the target tuple (its setup is empty)


class SetupTable:
    def __init__(self, slot_maps: np.ndarray, target: tuple[int, ...], deadline: float | None = None):
        """slot_maps[m, s]: where move m takes the piece at local slot s of the orbit. Past the
        `deadline` (time.monotonic) the search stops between two depths: the tuples reached keep
        shortest setups, the others none (`complete` False)."""
        n_moves, n = slot_maps.shape
        self.n, self.length = n, len(target)
        self.names: list[int] | None = None  # the moves' numbers in another orbit sharing this table
        # first[t]: the first move of t's setup, next_[t]: the tuple that move turns t into
        self.first = np.full(n ** self.length, UNREACHED, dtype=np.int16)
        self.next_ = np.zeros(n ** self.length, dtype=np.int32)
        self.depth = np.full(n ** self.length, UNREACHED, dtype=np.int16)  # setup lengths, to choose cheap aims
        inverse = np.argsort(slot_maps, axis=1).astype(np.int64)
        start = self.index(target)
        self.first[start] = _TARGET
        self.depth[start] = 0
        queue = np.empty(n ** self.length, dtype=np.int64)
        queue[0] = start
        done, end, depth = 0, 1, 0
        while done < end:  # a depth at a time, compiled
            if deadline is not None and time.monotonic() > deadline:
                break
            done, end = grow_setups(inverse, self.n, self.length, self.first, self.next_, queue, done, end)
            depth += 1
            self.depth[queue[done:end]] = depth
        self.complete = done == end

    @staticmethod
    def fits(n_slots: int, length: int) -> bool:
        return n_slots ** length <= MAX_TUPLES

    @staticmethod
    def large(n_slots: int, length: int) -> bool:
        return n_slots ** length > LARGE_TUPLES

    def index(self, slots) -> int:
        out = 0
        for slot in slots:
            out = out * self.n + int(slot)
        return out

    def renamed(self, names: list[int]) -> SetupTable:
        """This table for another orbit whose move names[m] acts on its slots as move m on these."""
        out = copy.copy(self)
        out.names = [names[m] for m in self.names] if self.names is not None else names
        return out

    def setup(self, slots) -> list[int] | None:
        """Moves carrying slots[i] onto the target's slot i, shortest; None when none does."""
        t = self.index(slots)
        if self.first[t] == UNREACHED:
            return None
        moves = []
        while self.first[t] != _TARGET:
            moves.append(int(self.first[t]) if self.names is None else self.names[self.first[t]])
            t = int(self.next_[t])
        return moves
