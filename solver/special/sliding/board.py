"""The sliding-puzzle board: R x C cells, tiles 1..R*C-1 and a blank (0).

A state is the tile number at every cell in row-major order. The goal has the blank first and
tile t on cell t (the catalog's `sliding-RxC`; Korf's 15-puzzle instances use the same goal).
Moves are named by the direction the TILE moves into the blank: U, D, L, R.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import perm
from solver.errors import StateError, UnreachableError

# Direction a tile moves -> (row step, column step) of the BLANK (the opposite of the tile's).
BLANK_STEP = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def goal(self) -> tuple[int, ...]:
        return tuple(range(self.cells))

    def neighbours(self, cell: int) -> list[int]:
        r, c = divmod(cell, self.cols)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                out.append(rr * self.cols + cc)
        return out

    def move_name(self, blank_from: int, blank_to: int) -> str:
        """Name of the move in which the blank goes from one cell to a neighbouring one."""
        (r0, c0), (r1, c1) = divmod(blank_from, self.cols), divmod(blank_to, self.cols)
        for name, step in BLANK_STEP.items():
            if step == (r1 - r0, c1 - c0):
                return name
        raise ValueError(f"cells {blank_from} and {blank_to} are not neighbours")

    def apply(self, tiles, names) -> tuple[int, ...]:
        """Replay moves by name on a tile list (refusing a move the blank cannot make)."""
        t = list(tiles)
        b = t.index(0)
        for name in names:
            dr, dc = BLANK_STEP[name]
            r, c = divmod(b, self.cols)
            rr, cc = r + dr, c + dc
            if not (0 <= rr < self.rows and 0 <= cc < self.cols):
                raise StateError(f"move {name}: no tile can move {name} into the blank at cell {b}")
            nb = rr * self.cols + cc
            t[b], t[nb] = t[nb], 0
            b = nb
        return tuple(t)

    def check(self, tiles) -> tuple[int, ...]:
        """The tiles as a tuple after checking they are a permutation of 0..cells-1 reachable from
        the goal; a clear error otherwise."""
        t = tuple(tiles)
        if len(t) != self.cells:
            raise StateError(f"state has {len(t)} tiles, a {self.rows}x{self.cols} board has {self.cells}")
        if sorted(t) != list(range(self.cells)):
            missing = sorted(set(range(self.cells)) - set(t))
            raise StateError(f"state must hold each tile 0..{self.cells - 1} once; missing {missing}")
        if not self.solvable(t):
            raise UnreachableError(
                "state is unreachable: the tile permutation's parity does not match the blank's "
                "distance from its goal cell (two tiles are swapped)"
            )
        return t

    def solvable(self, tiles) -> bool:
        """A state is reachable iff the permutation parity equals the parity of the blank's
        Manhattan distance to its goal cell (every move is a transposition moving the blank one cell)."""
        r, c = divmod(tiles.index(0), self.cols)
        return perm.parity(tiles) == (r + c) % 2


def parse_tiles(text: str) -> tuple[int, ...]:
    """Space-separated tile numbers, 0 for the blank (Korf's file format)."""
    out = []
    for k, word in enumerate(text.split()):
        try:
            out.append(int(word))
        except ValueError:
            raise StateError(f"state word {k + 1} ({word!r}) is not a tile number") from None
    return tuple(out)
