"""Simplification of answers: no wasted moves, whatever solver found them.

Two moves that end up next to each other (possibly after moving one across moves it commutes with)
are merged when their product is a single move of the definition (`U U` -> `U2`) and dropped when it is
the identity (`R R'`). Only the definition's own moves and permutations are used, so this works for
any puzzle, any sticker numbering and any move names; the simplified sequence has the same
permutation as the original and is never longer. Guarded moves (sliding, jumping puzzles) depend on
the state, so sequences of definitions that have any are returned as they are.
"""

from __future__ import annotations

import weakref

from solver import perm
from solver.definition.model import Definition


class _MoveAlgebra:
    """The products and commutations of one definition's moves, worked out as they are needed."""

    def __init__(self, defn: Definition):
        self.names = defn.move_names
        self.perms = [m.perm for m in defn.moves]
        self.identity = perm.identity(defn.stickers)
        # The first move written with a permutation names every product equal to it.
        self.move_of: dict[perm.Perm, int] = {}
        for i, p in enumerate(self.perms):
            self.move_of.setdefault(p, i)
        self._supports = [frozenset(perm.support(p)) for p in self.perms]
        self._commute: dict[tuple[int, int], bool] = {}
        self._product: dict[tuple[int, int], int | None] = {}

    def commute(self, a: int, b: int) -> bool:
        key = (a, b) if a <= b else (b, a)
        known = self._commute.get(key)
        if known is None:
            pa, pb = self.perms[a], self.perms[b]
            known = not (self._supports[a] & self._supports[b]) or perm.compose(pa, pb) == perm.compose(pb, pa)
            self._commute[key] = known
        return known

    def product(self, a: int, b: int) -> int | None:
        """-1 when doing a then b is the identity, the move equal to it, or None (kept: a finisher's
        answer of 10,000 moves asks for a few pairs hundreds of thousands of times)."""
        key = (a, b)
        if key not in self._product:
            p = perm.compose(self.perms[a], self.perms[b])
            self._product[key] = -1 if p == self.identity else self.move_of.get(p)
        return self._product[key]

    def is_identity(self, a: int) -> bool:
        return self.perms[a] == self.identity


_algebras: dict[int, tuple[weakref.ref, _MoveAlgebra]] = {}
REMEMBERED = 16


def _algebra(defn: Definition) -> _MoveAlgebra:
    entry = _algebras.get(id(defn))
    if entry is not None and entry[0]() is defn:
        return entry[1]
    if len(_algebras) >= REMEMBERED:
        _algebras.clear()
    algebra = _MoveAlgebra(defn)
    _algebras[id(defn)] = (weakref.ref(defn), algebra)
    return algebra


def simplify(defn: Definition, moves: list[str] | None) -> list[str] | None:
    """`moves` with every mergeable pair merged and every cancelling pair dropped (None stays None)."""
    if moves is None or defn.guarded:
        return moves
    algebra = _algebra(defn)
    index = defn.move_index
    sequence = [index[name] for name in moves]
    while True:  # every change shortens the sequence, so this ends
        shorter = _one_pass(algebra, sequence)
        if len(shorter) == len(sequence):
            return [algebra.names[m] for m in shorter]
        sequence = shorter


def _one_pass(algebra: _MoveAlgebra, sequence: list[int]) -> list[int]:
    out: list[int] = []
    for m in sequence:
        if algebra.is_identity(m):
            continue
        # Look back across the moves m commutes with for one it merges with.
        k = len(out) - 1
        while k >= 0:
            merged = algebra.product(out[k], m)
            if merged is not None:
                if merged < 0:
                    del out[k]
                else:
                    out[k] = merged
                break
            if not algebra.commute(out[k], m):
                k = -1
            else:
                k -= 1
        if k < 0:
            out.append(m)
    return out


def removable_moves(defn: Definition, moves: list[str]) -> int:
    """How many moves of `moves` simplification removes (0 for a simplified sequence)."""
    simplified = simplify(defn, moves)
    return len(moves) - len(simplified)
