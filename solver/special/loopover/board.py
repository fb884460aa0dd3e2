"""Loopover boards: R x C tiles on a torus; a move shifts one row or one column by one cell.

The natural state is the tile number on every cell in row-major order (tile t belongs on cell t).
A solution is a list of Shift(kind, index, amount): kind "row" moves row `index` right by
`amount` (negative: left), kind "col" moves column `index` down (negative: up); one cell of
shift is one move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from solver.errors import StateError, UnreachableError
from solver.special.loopover.lines import COL, ROW, parity, replay

MIN_SIDE, MAX_SIDE = 2, 64


class Shift(NamedTuple):
    kind: str  # "row" or "col"
    index: int
    amount: int


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int

    def __post_init__(self):
        for field, value in (("rows", self.rows), ("cols", self.cols)):
            if not MIN_SIDE <= value <= MAX_SIDE:
                raise StateError(f"loopover {field} must be {MIN_SIDE}..{MAX_SIDE}, got {value}")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def check(self, tiles) -> np.ndarray:
        """The tiles as an int array after checking they are a permutation reachable from the goal."""
        t = np.asarray(list(tiles), dtype=np.int64)
        if t.size != self.cells:
            raise StateError(f"state has {t.size} tiles, a {self.rows}x{self.cols} board has {self.cells}")
        if t.min() != 0 or t.max() != self.cells - 1 or np.bincount(t).max() != 1:
            raise StateError(f"state must hold each tile 0..{self.cells - 1} once")
        if self.rows % 2 == 1 and self.cols % 2 == 1 and parity(t) == 1:
            raise UnreachableError(
                f"state is unreachable: on a {self.rows}x{self.cols} board every row and column "
                "shift is an even permutation (odd line lengths), and this state is an odd "
                "permutation of the goal (for example two tiles swapped)"
            )
        return t

    def apply(self, tiles, shifts) -> tuple[int, ...]:
        moves = np.array([(ROW if s.kind == "row" else COL, s.index, s.amount) for s in shifts],
                         dtype=np.int64).reshape(-1, 3)
        return tuple(replay(np.asarray(list(tiles), dtype=np.int64), self.rows, self.cols, moves).tolist())

    def transpose(self, tiles) -> np.ndarray:
        """The same position on the C x R board seen across its diagonal (tiles renumbered)."""
        R, C = self.rows, self.cols
        t = np.asarray(tiles, dtype=np.int64).reshape(R, C).T.copy()
        return ((t % C) * R + t // C).reshape(-1)


def length(shifts) -> int:
    """Number of moves: one per cell of shift."""
    return sum(abs(s.amount) for s in shifts)


def shifts(moves) -> list[Shift]:
    """Shift tuples from an (m, 3) array of (ROW or COL, index, amount)."""
    return [Shift("row" if k == ROW else "col", i, a) for k, i, a in moves.tolist()]
