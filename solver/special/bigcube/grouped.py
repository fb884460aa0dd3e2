"""A big cube seen as a smaller one: its layers grouped, or some of them left out.

Along every axis the NxNxN's layers are dealt into the M layers of an MxMxM (`Grouping`): each
small layer is a group of neighbouring big layers, the outer ones alone. A big sticker then lies
in one small sticker's cell; reading one sticker per cell gives the small cube's state.

- Layers left out (groups of one layer, some layers in none): the stickers of the layers kept
  form an MxMxM that every catalog turn of the big cube turns as one of its own (a turn moves
  whole layers). The 6x6x6's layers 1, 3, 4, 6 are a 4x4x4 (R and Rw act there as R, 3Rw as
  Rw), the 7x7x7's 1, 3, 4, 5, 7 a 5x5x5 (3Rw as Rw): their inner cubes, solved by the smaller
  cube's phases.
- Every layer in a group: when each cell is one colour, the big cube is an MxMxM under the big
  turns that never split a group, and each catalog turn of the small cube is one catalog turn of
  the big one (`turn`): the 6x6x6 with layers {1}, {2}, {3, 4}, {5}, {6} is a 5x5x5 whose Rw is
  the 6x6x6's Rw, the 7x7x7 with {1}, {2}, {3, 4, 5}, {6}, {7} one whose Rw is the 7x7x7's Rw.

Both read stickers by their place in space, so they hold for the catalog's numbering, the one
every recognised cube is solved in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from solver.special.bigcube.model import NORMALS, BigCube, parse_turn, turn_as

_POSITIVE = {face for face, normal in NORMALS.items() if sum(normal) > 0}  # U R F: layers counted from the top


@dataclass(frozen=True)
class Grouping:
    n: int
    groups: tuple[tuple[int, ...], ...]  # big layers (0 = the most negative) of each small layer, in order

    @property
    def m(self) -> int:
        return len(self.groups)

    @cached_property
    def big(self) -> BigCube:
        return BigCube(self.n)

    @cached_property
    def small(self) -> BigCube:
        return BigCube(self.m)

    @cached_property
    def stickers(self) -> np.ndarray:
        """The big sticker read for each small sticker (the first layer of each group)."""
        n, m = self.n, self.m
        out = []
        for point, face in zip(self.small.points, self.small.faces):
            normal = NORMALS[face]
            big = [d * n if d else -n + 1 + 2 * self.groups[(c + m - 1) // 2][0] for c, d in zip(point, normal)]
            out.append(self.big.index_of[tuple(big)])
        return np.array(out)

    @cached_property
    def cells(self) -> np.ndarray:
        """The small sticker whose cell each big sticker lies in (-1: a layer in no group)."""
        n = self.n
        group_of = {layer: k for k, group in enumerate(self.groups) for layer in group}
        out = np.full(self.big.size, -1)
        for s, (point, face) in enumerate(zip(self.big.points, self.big.faces)):
            normal = NORMALS[face]
            layers = [None if d else group_of.get((c + n - 1) // 2) for c, d in zip(point, normal)]
            if None in [layer for layer, d in zip(layers, normal) if not d]:
                continue
            small = [d * self.m if d else -self.m + 1 + 2 * layer for layer, d in zip(layers, normal)]
            out[s] = self.small.index_of[tuple(small)]
        return out

    def project(self, state: np.ndarray) -> np.ndarray:
        """The small cube's stickers (one array, or one row per state)."""
        return state[..., self.stickers]

    def whole(self, state: np.ndarray) -> bool:
        """Whether every cell of the big state is one colour (the small cube says it all)."""
        kept = self.cells >= 0
        return bool((state[kept] == state[self.stickers[self.cells[kept]]]).all())

    def turn(self, name: str) -> str:
        """The big cube's catalog turn for a small cube's: as deep as the small turn's last group."""
        face, depth, _ = parse_turn(name)
        group = self.groups[self.m - depth] if face in _POSITIVE else self.groups[depth - 1]
        big_depth = self.n - min(group) if face in _POSITIVE else max(group) + 1
        return turn_as(name, face, big_depth)

    def alternatives(self, big_name: str) -> list[str]:
        """The big catalog turns (depth at most N / 2, as the catalog's) that turn the small cube as
        the big turn `big_name` does: those whose layers in a group are the same. With layers left
        out there may be several (the 7x7x7's inner cube sees R and Rw alike); with every layer in
        a group, only the turn itself."""
        face, depth, _ = parse_turn(big_name)
        distance = (lambda layer: self.n - 1 - layer) if face in _POSITIVE else (lambda layer: layer)
        kept = sorted(distance(layer) for group in self.groups for layer in group)
        turned = lambda d: [j for j in kept if j < d]  # noqa: E731
        return [turn_as(big_name, face, d) for d in range(1, self.n // 2 + 1) if turned(d) == turned(depth)]


@lru_cache(maxsize=None)
def inner(n: int) -> Grouping:
    """The cube of the big cube's layers but the second from each face (6x6x6: a 4x4x4; 7x7x7: a 5x5x5)."""
    return Grouping(n, tuple((layer,) for layer in range(n) if layer not in (1, n - 2)))


@lru_cache(maxsize=None)
def five(n: int) -> Grouping:
    """The 5x5x5 of the big cube with its middle layers grouped: {1}, {2}, {3 .. N-2}, {N-1}, {N}."""
    return Grouping(n, ((0,), (1,), tuple(range(2, n - 2)), (n - 2,), (n - 1,)))
