"""Shortest setups that carry chosen slots of one orbit onto an algorithm's slots.

A conjugate X A X' does to the slots that X carries onto A's slots what A does to those. To apply
A to chosen slots (a, b, c) of an orbit, X must carry a to A's first slot, b to its second and c to
its third. One BFS over the ordered tuples of the orbit's slots, from A's slots back through the
inverse moves, gives a shortest such X for every tuple at once.
"""

from __future__ import annotations

import time

import numpy as np

MAX_TUPLES = 1 << 23  # tuples of one table (slots ** length, 48 MB); bigger orbits get no table
LARGE_TUPLES = 1 << 21  # tables over this many tuples take a second each: fewer of them are built

_TARGET = -2  # first[] of the target tuple (its setup is empty)
_UNREACHED = -1


class SetupTable:
    def __init__(self, slot_maps: np.ndarray, target: tuple[int, ...], deadline: float | None = None):
        """slot_maps[m, s]: where move m takes the piece at local slot s of the orbit. Past the
        `deadline` (time.monotonic) the search stops between two depths: the tuples reached keep
        shortest setups, the others none (`complete` False)."""
        n_moves, n = slot_maps.shape
        self.n, self.length = n, len(target)
        # first[t]: the first move of t's setup, next_[t]: the tuple that move turns t into
        self.first = np.full(n ** self.length, _UNREACHED, dtype=np.int16)
        self.next_ = np.zeros(n ** self.length, dtype=np.int32)
        inverse = np.argsort(slot_maps, axis=1)
        start = self.index(target)
        self.first[start] = _TARGET
        frontier = np.array([start], dtype=np.int64)
        self.complete = True
        while frontier.size:
            if deadline is not None and time.monotonic() > deadline:
                self.complete = False
                break
            digits = self._digits(frontier)
            grown = []
            for m in range(n_moves):
                before = self._index(inverse[m][digits])
                fresh = self.first[before] == _UNREACHED
                tuples, where = np.unique(before[fresh], return_index=True)
                self.first[tuples] = m
                self.next_[tuples] = frontier[fresh][where]
                grown.append(tuples)
            frontier = np.concatenate(grown)

    @staticmethod
    def fits(n_slots: int, length: int) -> bool:
        return n_slots ** length <= MAX_TUPLES

    @staticmethod
    def large(n_slots: int, length: int) -> bool:
        return n_slots ** length > LARGE_TUPLES

    def index(self, slots) -> int:
        return int(self._index(np.asarray(slots, dtype=np.int64)[:, None])[0])

    def _index(self, digits: np.ndarray) -> np.ndarray:
        out = np.zeros(digits.shape[1], dtype=np.int64)
        for row in digits:
            out = out * self.n + row
        return out

    def _digits(self, tuples: np.ndarray) -> np.ndarray:
        out = np.empty((self.length, len(tuples)), dtype=np.int64)
        for i in range(self.length - 1, -1, -1):
            tuples, out[i] = np.divmod(tuples, self.n)
        return out

    def setup(self, slots) -> list[int] | None:
        """Moves carrying slots[i] onto the target's slot i, shortest; None when none does."""
        t = self.index(slots)
        if self.first[t] == _UNREACHED:
            return None
        moves = []
        while self.first[t] != _TARGET:
            moves.append(int(self.first[t]))
            t = int(self.next_[t])
        return moves
