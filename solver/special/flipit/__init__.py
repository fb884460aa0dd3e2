"""Flip-it (a row of stones that jump and turn over): shortest solutions by a bidirectional
search that uses the colour-swap symmetry. `solve(cells)` takes the natural state, a string with
one character per cell ('_' empty, 'B' and 'W' the two colours), and returns the jumps as
(from cell, to cell) pairs that turn every stone over; `solve(cells, goal)` reaches another goal
(the catalog's `_WWW...`) by a two-sided bidirectional search."""

from __future__ import annotations

import numpy as np

from solver.errors import StateError, UnreachableError
from solver.search.budget import Budget
from solver.special.flipit.search import between, shortest

MIN_CELLS, MAX_CELLS = 3, 22
EMPTY, BLACK, WHITE = "_", "B", "W"

_scratch: dict[int, tuple] = {}


def parse(cells: str) -> tuple[int, int, int]:
    """(n, empty cell, colour bits) of a cell string, or a StateError naming the problem."""
    n = len(cells)
    if not MIN_CELLS <= n <= MAX_CELLS:
        raise StateError(f"flip-it board must have {MIN_CELLS}..{MAX_CELLS} cells, got {n}")
    bad = sorted(set(cells) - {EMPTY, BLACK, WHITE})
    if bad:
        raise StateError(f"flip-it cells must be {EMPTY!r}, {BLACK!r} or {WHITE!r}; got {bad}")
    if cells.count(EMPTY) != 1:
        raise StateError(f"flip-it state needs exactly one empty cell {EMPTY!r}, got {cells.count(EMPTY)}")
    bits = sum(1 << k for k, ch in enumerate(cells) if ch == BLACK)
    return n, cells.index(EMPTY), bits


def goal(cells: str) -> str:
    """The same arrangement with every stone turned over."""
    return cells.translate(str.maketrans({BLACK: WHITE, WHITE: BLACK}))


def _arrays(n: int):
    if n not in _scratch:
        _scratch.clear()  # keep one size: the largest is about 90 MB
        size = n << (n - 1)
        _scratch[n] = (np.zeros((size + 3) // 4, np.uint8), np.zeros(size, np.int32),
                       np.zeros((size + 3) // 4, np.uint8), np.zeros(size, np.int32))
    return _scratch[n]


def empty_path(cells: str, target: str | None = None, budget: Budget | None = None) -> list[int]:
    """Cells the empty cell visits along a shortest solution, starting where it is. The target
    defaults to every stone turned over, which one search serves from both sides. A cancel or the
    budget's time limit stops the search within about budget.POLL seconds (Cancelled, OutOfTime)."""
    budget = budget or Budget()
    n, e, bits = parse(cells)
    scratch = _arrays(n)
    budget.report(phase="shortest", text=f"{n << (n - 1):,} states")
    with budget.watching() as stop:
        if target is None or target == goal(cells):
            path = shortest(e, bits, n, scratch[0], scratch[1], stop)
        else:
            m, e1, bits1 = parse(target)
            if m != n:
                raise StateError(f"flip-it goal has {m} cells, the state {n}")
            path = between(e, bits, e1, bits1, n, *scratch, stop)
    if path.size == 0 and stop[0]:
        _scratch.pop(n, None)  # a stopped search leaves it dirty: the next one starts from zeros
        raise budget.stop_reason()
    if path.size == 0:
        raise UnreachableError(f"no sequence of jumps leads from {cells} to {target or goal(cells)}")
    return path.tolist()


def solve(cells: str, target: str | None = None, budget: Budget | None = None) -> list[tuple[int, int]]:
    """A shortest solution as jumps (from cell, to cell): the stone on `from` jumps into the
    empty cell `to`."""
    path = empty_path(cells, target, budget)
    jumps = [(b, a) for a, b in zip(path, path[1:])]
    if apply(cells, jumps) != (target or goal(cells)):
        raise AssertionError("flip-it solution does not replay to the goal")
    return jumps


def apply(cells: str, jumps) -> str:
    """Replay jumps on a cell string, refusing one that is not a legal jump."""
    row = list(cells)
    for k, (src, dst) in enumerate(jumps):
        if not (0 <= src < len(row) and 0 <= dst < len(row)) or row[dst] != EMPTY or row[src] == EMPTY \
                or abs(src - dst) < 2:
            raise StateError(f"jump {k + 1} ({src} -> {dst}) is not a legal jump in {''.join(row)}")
        lo, hi = sorted((src, dst))
        for m in range(lo + 1, hi):
            row[m] = WHITE if row[m] == BLACK else BLACK
        row[dst], row[src] = row[src], EMPTY
    return "".join(row)


__all__ = ["apply", "empty_path", "goal", "parse", "solve"]
