"""Flip-it in the catalog's numbering (`flipit-N`: cell k is stickers 2k (up face) and 2k+1
(down face), moves `Jk` jump the stone in cell k): recognition and the bridge to cell strings."""

from __future__ import annotations

from dataclasses import dataclass

from solver.catalog import flipit as catalog_flipit
from solver.definition.model import Definition
from solver.errors import UnreachableError
from solver.special.flipit import BLACK, EMPTY, WHITE, solve
from solver.special.recognize import is_catalog

OTHER = {BLACK: WHITE, WHITE: BLACK, EMPTY: EMPTY}


@dataclass(frozen=True)
class Plan:
    defn: Definition
    cells: int

    def cell_string(self, state) -> str:
        """The up faces; refused when a down face is not the other side of its stone."""
        for k in range(self.cells):
            up, down = state[2 * k], state[2 * k + 1]
            if OTHER.get(up) != down:
                raise UnreachableError(
                    f"state: cell {k + 1} shows {up!r} up and {down!r} down; a stone's faces are "
                    f"{BLACK!r} and {WHITE!r}, an empty cell is {EMPTY!r} on both")
        return "".join(state[0::2])

    def solve(self, state, budget=None) -> list[str]:
        """A shortest answer; `budget` as in solver.special.flipit.empty_path."""
        jumps = solve(self.cell_string(state), self.cell_string(self.defn.goal), budget)
        return [f"J{src + 1}" for src, _ in jumps]


def recognize(defn: Definition) -> Plan | None:
    cells, rest = divmod(defn.stickers, 2)
    if rest or cells not in catalog_flipit.SIZES or len(defn.moves) != cells or len(defn.goals) != 1:
        return None
    return Plan(defn, cells) if is_catalog(defn, f"flipit-{cells}") else None
