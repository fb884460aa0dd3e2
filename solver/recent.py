"""A bounded cache of the most recently used entries: what a long-lived worker process keeps of
the puzzles it met (compiled models, heuristics, finishers, specialized-solver lookups), so that
its memory stays flat however many different puzzles it solves."""

from __future__ import annotations

from collections import OrderedDict

REMEMBERED = 64  # entries per cache: a worker's recent puzzles


class Recent(OrderedDict):
    """A dict that keeps the `size` most recently read or written entries."""

    def __init__(self, size: int = REMEMBERED):
        super().__init__()
        self.size = size

    def get(self, key, default=None):
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
