"""Edge pairing for the short reduction: how far each piece is from its neighbour along its edge.

Along every composite edge of the goal, two neighbouring pieces (wings, or a wing and the middle
edge) stand in one relation: side by side, same colours on the same faces. The positions of such a
pair anywhere on the cube, reached by outer turns (which carry whole composite edges), are
"paired"; a table over (sticker of the one, sticker of the other) gives the fewest catalog turns to
any paired position. A state's pairing score is the sum over all neighbour pairs, each piece found
by its two colours in its sticker orbit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.special.bigcube import cycles
from solver.special.bigcube.model import BigCube


@dataclass(frozen=True)
class Neighbours:
    orbit_x: np.ndarray  # sticker orbit holding the first piece's reference sticker
    code_x: int          # its colours (reference sticker, other sticker) as one number
    orbit_y: np.ndarray
    code_y: int
    table: np.ndarray    # (S, S) distance by the two reference stickers


class Pairing:
    def __init__(self, cube: BigCube, sources: np.ndarray, outer: np.ndarray, goal: np.ndarray):
        self.size = cube.size
        self.partner = np.arange(cube.size)
        for stickers in cube.pieces.values():
            if len(stickers) == 2:
                a, b = stickers
                self.partner[a], self.partner[b] = b, a
        orbits = {s: np.array(orbit) for orbit in cycles.sticker_orbits(cube) for s in orbit}
        tables: dict[tuple, np.ndarray] = {}
        self.neighbours: list[Neighbours] = []
        for x, y in _adjacent(cube):
            seed = _closure(sources[outer], x, y, cube.size)
            key = tuple(sorted(seed))
            if key not in tables:
                tables[key] = _distances(sources, seed, cube.size)
            self.neighbours.append(Neighbours(orbits[x], self.code(goal, x), orbits[y], self.code(goal, y), tables[key]))

    def code(self, state: np.ndarray, sticker: int) -> int:
        return int(state[sticker]) * 256 + int(state[self.partner[sticker]])

    def score(self, states: np.ndarray) -> np.ndarray:
        total = np.zeros(len(states), dtype=np.int64)
        for nb in self.neighbours:
            sx = self._find(states, nb.orbit_x, nb.code_x)
            sy = self._find(states, nb.orbit_y, nb.code_y)
            total += nb.table[sx, sy]
        return total

    def _find(self, states, orbit, code) -> np.ndarray:
        codes = states[:, orbit].astype(np.int64) * 256 + states[:, self.partner[orbit]]
        return orbit[np.argmax(codes == code, axis=1)]


def _adjacent(cube: BigCube) -> list[tuple[int, int]]:
    """Neighbouring edge pieces along each composite edge, as their stickers on the edge's first face."""
    edges: dict[tuple, list] = {}
    for cubie, stickers in cube.pieces.items():
        if len(stickers) == 2:
            free = next(i for i, c in enumerate(cubie) if abs(c) != cube.n - 1)
            key = tuple(c if i != free else None for i, c in enumerate(cubie))
            edges.setdefault(key, []).append((cubie[free], min(stickers, key=lambda s: cube.faces[s])))
    pairs = []
    for pieces in edges.values():
        pieces.sort()
        pairs += [(a, b) for (_, a), (_, b) in zip(pieces, pieces[1:])]
    return pairs


def _closure(sources: np.ndarray, x: int, y: int, size: int) -> set[tuple[int, int]]:
    """Every (x, y) sticker pair the given turns reach from (x, y)."""
    where = np.argsort(sources, axis=1)  # where[m][i]: where sticker i goes
    seen, todo = {(x, y)}, [(x, y)]
    while todo:
        a, b = todo.pop()
        for w in where:
            pair = (int(w[a]), int(w[b]))
            if pair not in seen:
                seen.add(pair)
                todo.append(pair)
    return seen


def _distances(sources: np.ndarray, seed: set[tuple[int, int]], size: int) -> np.ndarray:
    where = np.argsort(sources, axis=1)
    dist = np.full((size, size), 99, dtype=np.int64)
    frontier = np.array(sorted(seed))
    dist[frontier[:, 0], frontier[:, 1]] = 0
    depth = 0
    while len(frontier):
        depth += 1
        a = where[:, frontier[:, 0]].ravel()
        b = where[:, frontier[:, 1]].ravel()
        fresh = dist[a, b] > depth
        a, b = a[fresh], b[fresh]
        dist[a, b] = depth
        frontier = np.unique(np.stack([a, b], axis=1), axis=0) if len(a) else np.zeros((0, 2), dtype=np.int64)
    return dist
