"""Sliding puzzles in the catalog's numbering (`sliding-RxC`, tiles named "0".."R*C-1", blank
"0", goal blank first): recognition and the bridge to tile lists and back to move names (the
catalog names moves by the direction the tile moves, as this package does)."""

from __future__ import annotations

from dataclasses import dataclass

from solver.catalog import sliding as catalog_sliding
from solver.definition.model import Definition
from solver.errors import StateError
from solver.special.recognize import grid_shapes, is_catalog
from solver.special.sliding import solve


@dataclass(frozen=True)
class Plan:
    defn: Definition
    rows: int
    cols: int

    def tiles(self, state) -> list[int]:
        try:
            return [int(c) for c in state]
        except ValueError:
            raise StateError(f"state: tiles of {self.defn.name} are numbers 0..{self.defn.stickers - 1}") from None

    def solve(self, state, method: str = "auto", max_nodes: int = 1 << 40, budget=None) -> list[str]:
        """Move names solving `state`; `method` and `budget` as in solver.special.sliding.solve."""
        moves = solve(self.tiles(state), self.rows, self.cols, max_nodes, method, budget=budget)
        return moves


def recognize(defn: Definition) -> Plan | None:
    if len(defn.moves) != 4 or not defn.guarded:
        return None
    for rows, cols in grid_shapes(defn.stickers, catalog_sliding.SIZES):
        if is_catalog(defn, f"sliding-{rows}x{cols}"):
            return Plan(defn, rows, cols)
    return None
