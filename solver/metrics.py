"""Lengths of a move sequence in the puzzle's metrics, worked out from the definition alone.

- `moves`: every move of the definition counts 1 (for the catalog's cubes that is the outer block
  turn metric: a face or a wide turn of any depth, a quarter or a half turn, counts 1).
- `turns`: every move counts the number of smallest turns it is made of (the quarter-turn metric on
  cubes, fifth turns on a megaminx). The smallest turns are the moves no other move has as a power
  with a larger cyclic group, one per cyclic group: the smallest angle where the definition has 3D
  geometry, else the first written (`R` before `R2` on a megaminx, where both turn the same group).
  A move that is the k-th power of such a turn of order n counts min(k, n - k).

Nothing here knows move names: `R2` counts 2 because its permutation is the square of `R`'s, so a
puzzle written with any names and numbering gets the same figures. Guarded moves (sliding and
jumping puzzles) count 1 in both.
"""

from __future__ import annotations

import weakref

from solver import perm
from solver.definition.model import Definition

MAX_ORDER = 360  # moves of a larger order are counted as one turn: their powers are not listed

_WEIGHTS: "weakref.WeakKeyDictionary[Definition, dict[str, int]]" = weakref.WeakKeyDictionary()


def turn_weights(defn: Definition) -> dict[str, int]:
    """The number of smallest turns each move stands for."""
    known = _WEIGHTS.get(defn)
    if known is not None:
        return known
    unguarded = [m for m in defn.moves if not m.guarded]
    orders = [perm.order(m.perm) for m in unguarded]
    # every power of every move: permutation -> [(move index, exponent, order of that move)]
    powers: dict[perm.Perm, list[tuple[int, int, int]]] = {}
    for i, m in enumerate(unguarded):
        if orders[i] > MAX_ORDER:
            continue
        p = m.perm
        for k in range(1, orders[i]):
            powers.setdefault(p, []).append((i, k, orders[i]))
            p = perm.compose(p, m.perm)
    angles = {name: abs(angle) for name, _axis, angle in defn.geometry.moves} if defn.geometry else {}

    def preference(i):
        return angles.get(unguarded[i].name, float("inf")), i

    smallest = set()
    for i, m in enumerate(unguarded):
        above = powers.get(m.perm, [(i, 1, orders[i])])
        if all(n <= orders[i] for _j, _k, n in above):  # no move with a larger cyclic group has it as a power
            if min([j for j, _k, n in above if n == orders[i]] + [i], key=preference) == i:
                smallest.add(i)
    weights = {m.name: 1 for m in defn.moves}
    for m in unguarded:
        made_of = [min(k, n - k) for j, k, n in powers.get(m.perm, []) if j in smallest]
        weights[m.name] = min(made_of, default=1)
    _WEIGHTS[defn] = weights
    return weights


def lengths(defn: Definition, moves) -> dict[str, int]:
    weights = turn_weights(defn)
    return {"moves": len(moves), "turns": sum(weights[name] for name in moves)}
