"""Loopover in the catalog's numbering (`loopover-RxC`): recognition, and the bridge between the
definition's sticker states and move names and this package's tiles and shifts."""

from __future__ import annotations

from dataclasses import dataclass

from solver.catalog import loopover as catalog_loopover
from solver.definition.model import Definition
from solver.errors import StateError
from solver.special.loopover import Shift, solve
from solver.special.recognize import grid_shapes, is_catalog


@dataclass(frozen=True)
class Plan:
    defn: Definition
    rows: int
    cols: int

    def tiles(self, state) -> list[int]:
        """Tile t is the colour the goal has on cell t."""
        index = {c: t for t, c in enumerate(self.defn.goal)}
        try:
            return [index[c] for c in state]
        except KeyError as exc:
            raise StateError(f"state: colour {exc.args[0]!r} is not a tile of {self.defn.name}") from None

    def move_names(self, shifts: list[Shift]) -> list[str]:
        names = []
        for s in shifts:
            if s.kind == "row":
                step = f"R{s.index + 1}" + (">" if s.amount > 0 else "<")
            else:
                step = f"C{s.index + 1}" + ("v" if s.amount > 0 else "^")
            names += [step] * abs(s.amount)
        return names

    def solve(self, state, budget=None, method: str = "auto") -> list[str]:
        """Move names solving `state`; `budget` and `method` as in solver.special.loopover.solve."""
        shifts = solve(self.tiles(state), self.rows, self.cols, method, budget)
        return self.move_names(shifts)


def recognize(defn: Definition) -> Plan | None:
    if defn.guarded or len(set(defn.goal)) != defn.stickers:
        return None
    for rows, cols in grid_shapes(defn.stickers, catalog_loopover.SIZES):
        if 2 * (rows + cols) == len(defn.moves) and is_catalog(defn, f"loopover-{rows}x{cols}"):
            return Plan(defn, rows, cols)
    return None
