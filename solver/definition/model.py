"""The definition model: one puzzle's data after loading and validation, in either format.

Everything here is immutable and already checked: positions in range, moves resolved to
permutations, goals closed under the symmetries. Formats (`formats.py`) build it; the engine,
analysis and search read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from solver import perm
from solver.perm import Perm

if TYPE_CHECKING:
    from solver.definition.geometry import Geometry

Guard = tuple[tuple[int, str], ...]  # (position, colour) pairs, sorted by position


@dataclass(frozen=True)
class Case:
    """One permutation of a move, applicable when every (position, colour) of `guard` holds."""

    perm: Perm
    guard: Guard = ()

    def allows(self, state) -> bool:
        return all(state[p] == c for p, c in self.guard)


@dataclass(frozen=True)
class Move:
    name: str
    cases: tuple[Case, ...]

    @property
    def guarded(self) -> bool:
        return any(c.guard for c in self.cases)

    @property
    def perm(self) -> Perm:
        """The permutation of an unguarded move."""
        if self.guarded:
            raise ValueError(f"move {self.name} is guarded: it has no single permutation")
        return self.cases[0].perm

    def case_for(self, state) -> Case | None:
        for case in self.cases:
            if case.allows(state):
                return case
        return None


@dataclass(frozen=True)
class Extender:
    """How a move was derived, kept so that exports can write it back the same way."""

    name: str
    function: str  # REVERSE, REPEAT or SEQUENCE
    params: tuple


@dataclass(frozen=True)
class Layout:
    shape: str
    cells: tuple  # per sticker: (x, y, shape) or None


@dataclass(frozen=True)
class Definition:
    name: str
    stickers: int
    moves: tuple[Move, ...]  # every move, base moves first in the order written, then extenders
    goals: tuple[tuple[str, ...], ...]  # solved states: given goals first, then symmetry images
    base_moves: tuple[str, ...] = ()  # names of moves written explicitly (the rest are extenders)
    extenders: tuple[Extender, ...] = ()
    given_goals: int = 1  # how many of `goals` were written; the rest come from symmetries
    symmetries: tuple[tuple[str, Perm], ...] = ()
    colors: tuple[tuple[str, str, str], ...] = ()  # (symbol, name, hex) for drawing
    layout: Layout | None = None
    geometry: "Geometry | None" = None  # 3D presentation (solver.definition.geometry), outside the hash
    description: str = ""
    seed_names: tuple[tuple[str, str], ...] = ()  # colorSetName / representationName, kept as read

    @property
    def goal(self) -> tuple[str, ...]:
        return self.goals[0]

    @cached_property
    def goal_set(self) -> frozenset[tuple[str, ...]]:
        return frozenset(self.goals)

    @cached_property
    def move_index(self) -> dict[str, int]:
        return {m.name: i for i, m in enumerate(self.moves)}

    def move(self, name: str) -> Move:
        return self.moves[self.move_index[name]]

    @property
    def move_names(self) -> list[str]:
        return [m.name for m in self.moves]

    @property
    def guarded(self) -> bool:
        return any(m.guarded for m in self.moves)

    @cached_property
    def colours(self) -> tuple[str, ...]:
        """Every colour symbol, in order of first appearance in the goals."""
        seen: dict[str, None] = {}
        for g in self.goals:
            for c in g:
                seen.setdefault(c, None)
        return tuple(seen)

    @property
    def single_char_colours(self) -> bool:
        return all(len(c) == 1 for c in self.colours)

    def generators(self) -> list[Perm]:
        """The permutations of the unguarded moves (the group's generators)."""
        return [m.perm for m in self.moves if not m.guarded]

    def inverse_name(self, name: str) -> str | None:
        """Name of a move whose permutation undoes `name`, if the definition has one."""
        move = self.move(name)
        if move.guarded:
            return None
        inv = perm.inverse(move.perm)
        for m in self.moves:
            if not m.guarded and m.perm == inv:
                return m.name
        return None
