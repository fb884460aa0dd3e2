"""The NxNxN cube as stickers in space, numbered like the catalog's `cubeN`: the net of the seed
3x3x3 (U row by row from the back; rows of 4N across L, F, R, B; D row by row from the front).

Coordinates are doubled: the k-th of N layers from the negative side has its centre at -N + 1 + 2k
and a sticker's point lies on a face plane at +-N. Internally the solver turns single layers
(`Layer`: a face and a depth 1 .. N//2 counted from that face); written out they become the
catalog's SiGN turns (R, Rw, 3Rw, ...), a single inner layer being kRw (k-1)Rw'.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from solver import perm
from solver.special.cube3 import geometry as cube3_geometry

FACES = cube3_geometry.FACES  # U R F D L B
NORMALS = cube3_geometry.NORMALS
CATALOG_COLOURS = {"U": "W", "L": "O", "F": "G", "R": "R", "B": "B", "D": "Y"}


@dataclass(frozen=True)
class Layer:
    face: str
    depth: int  # 1 = the face layer
    turns: int  # clockwise quarter turns seen from the face: 1, 2 or 3

    @property
    def cost(self) -> int:
        """How many catalog turns it takes (an inner layer takes two)."""
        return 1 if self.depth == 1 else 2

    def sign(self) -> list[str]:
        """The move in catalog SiGN names (one or two turns)."""
        suffix = {1: "", 2: "2", 3: "'"}[self.turns]
        undo = {1: "'", 2: "2", 3: ""}[self.turns]
        if self.depth == 1:
            return [self.face + suffix]
        inner = [_wide(self.face, self.depth) + suffix]
        return inner + ([_wide(self.face, self.depth - 1) + undo] if self.depth > 1 else [])


def _wide(face: str, depth: int) -> str:
    if depth == 1:
        return face
    return ("" if depth == 2 else str(depth)) + face + "w"


def turn_as(name: str, face: str, depth: int) -> str:
    """The catalog turn of `face` and `depth` with the power of the turn `name` (R2 -> 3Uw2)."""
    return _wide(face, depth) + name[len(name.rstrip("'2")):]


def _centre(n: int, k: int) -> int:
    return -n + 1 + 2 * k


class BigCube:
    """Stickers, layer turns and pieces of the NxNxN cube (N >= 2)."""

    def __init__(self, n: int):
        self.n = n
        self.points: list[tuple[int, int, int]] = []
        self.faces: list[str] = []
        c = lambda k: _centre(n, k)  # noqa: E731 (a short local name keeps the net readable)
        for row in range(n):
            for col in range(n):
                self._add("U", (c(col), n, c(row)))
        for row in range(n):
            y = -c(row)
            for col in range(n):
                self._add("L", (-n, y, c(col)))
            for col in range(n):
                self._add("F", (c(col), y, n))
            for col in range(n):
                self._add("R", (n, y, -c(col)))
            for col in range(n):
                self._add("B", (-c(col), y, -n))
        for row in range(n):
            for col in range(n):
                self._add("D", (c(col), -n, -c(row)))
        self.index_of = {p: i for i, p in enumerate(self.points)}
        self.size = len(self.points)

    def _add(self, face, point):
        self.points.append(point)
        self.faces.append(face)

    def solved(self) -> str:
        return "".join(CATALOG_COLOURS[f] for f in self.faces)

    def layers(self) -> list[Layer]:
        """Every single-layer turn the catalog's moves can make (depth up to N//2 from each face)."""
        return [Layer(f, d, t) for f in FACES for d in range(1, self.n // 2 + 1) for t in (1, 2, 3)]

    @cached_property
    def _point_array(self) -> np.ndarray:
        return np.array(self.points)

    @cached_property
    def _index_grid(self) -> np.ndarray:
        """Sticker index by point, as a dense array over the doubled coordinates shifted to 0 .. 2N."""
        grid = np.full((2 * self.n + 1,) * 3, -1, dtype=np.int64)
        at = self._point_array + self.n
        grid[at[:, 0], at[:, 1], at[:, 2]] = np.arange(self.size)
        return grid

    @lru_cache(maxsize=None)
    def layer_perm(self, layer: Layer) -> perm.Perm:
        normal = np.array(NORMALS[layer.face])
        level = self.n - 1 - 2 * (layer.depth - 1)  # the layer's cubie coordinate along the normal
        matrix = cube3_geometry._quarter_turn_matrix(NORMALS[layer.face])
        along = self._point_array @ normal
        moving = (along == level) | ((along == self.n) if layer.depth == 1 else False)
        turned = self._point_array[moving] @ matrix.T + self.n
        p = np.arange(self.size)
        p[moving] = self._index_grid[turned[:, 0], turned[:, 1], turned[:, 2]]
        return perm.power(tuple(int(x) for x in p), layer.turns)

    @cached_property
    def named_moves(self) -> dict[str, perm.Perm]:
        """The catalog's moves by SiGN name: kFw turns the k outer layers of face F."""
        result = {}
        for face in FACES:
            wide = perm.identity(self.size)
            for depth in range(1, self.n // 2 + 1):
                wide = perm.compose(wide, self.layer_perm(Layer(face, depth, 1)))
                for suffix, power in (("", 1), ("2", 2), ("'", 3)):
                    result[_wide(face, depth) + suffix] = perm.power(wide, power)
        return result

    def apply(self, state: str, names) -> str:
        """The stickers after the catalog moves `names` from `state`."""
        for name in names:
            state = perm.apply(self.named_moves[name], state)
        return "".join(state)

    def scrambled(self, rng, length: int) -> str:
        """The solved cube after `length` catalog moves drawn by `rng`."""
        names = sorted(self.named_moves)
        return self.apply(self.solved(), [rng.choice(names) for _ in range(length)])

    def cubie_of(self, sticker: int) -> tuple[int, int, int]:
        normal = NORMALS[self.faces[sticker]]
        return tuple(a - b for a, b in zip(self.points[sticker], normal))

    @cached_property
    def pieces(self) -> dict[tuple[int, int, int], tuple[int, ...]]:
        """Stickers of each cubie, keyed by its position."""
        result: dict[tuple[int, int, int], list[int]] = {}
        for i in range(self.size):
            result.setdefault(self.cubie_of(i), []).append(i)
        return {k: tuple(v) for k, v in result.items()}


@dataclass(frozen=True)
class Rotation:
    """A whole-cube rotation: `sources` turns a state (new = state[sources], as the sticker that was
    at p is now at M p), and `back` maps a face of the rotated cube to the face it was, so turns
    found on the rotated state are written for the state itself (`unrotate`)."""
    sources: np.ndarray
    back: dict[str, str]

    def turn(self, state: str, goal: str) -> str:
        """The state rotated, its colours renamed so that its goal is `goal` again (a state's
        stickers and its goal's turn together, so the solved colouring keeps one colour per face):
        the rotated cube reuses every table and ball built for that goal."""
        rotated_goal = [goal[i] for i in self.sources]
        rename = dict(zip(rotated_goal, goal))
        return "".join(rename[state[i]] for i in self.sources)

    def unrotate(self, names: list[str]) -> list[str]:
        """Turns of the rotated state as turns of the state (same depths and powers, faces mapped)."""
        return [turn_as(name, self.back[face], depth) for name in names for face, depth, _ in [parse_turn(name)]]


@lru_cache(maxsize=None)
def rotations(n: int) -> tuple[Rotation, ...]:
    """The 24 rotations of the NxNxN, the identity first, then one for each other way of putting
    the cube's axes onto U/D, R/L and F/B (so the first six give phases that start on different
    axes different work), then the others."""
    cube = BigCube(n)
    points = np.array(cube.points)
    face_of = {normal: face for face, normal in NORMALS.items()}
    found: list = []  # (rank among those of its axis order, not the identity, (order, rotation))
    for order in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = np.zeros((3, 3), dtype=np.int64)
            matrix[list(order), [0, 1, 2]] = signs  # column j: where the j-th axis goes
            if round(np.linalg.det(matrix)) != 1:
                continue
            moved = points @ matrix.T + n
            to = cube._index_grid[moved[:, 0], moved[:, 1], moved[:, 2]]
            sources = np.empty(cube.size, dtype=np.int64)
            sources[to] = np.arange(cube.size)
            back = {face_of[tuple(int(x) for x in matrix @ NORMALS[f])]: f for f in FACES}
            found.append((sum(entry[2][0] == order for entry in found), order != (0, 1, 2), (order, Rotation(sources, back))))
    found.sort(key=lambda entry: entry[:2])  # one of each axis order (the identity first), then the rest
    return tuple(rotation for *_, (_, rotation) in found)


def parse_turn(name: str) -> tuple[str, int, int]:
    """A catalog SiGN turn (R, Rw, 3Rw', U2, ...) as (face, depth in layers, clockwise quarter turns
    seen from the face)."""
    base = name.rstrip("'2")
    quarters = {"": 1, "2": 2, "'": 3}[name[len(base):]]
    depth = 1 if not base.endswith("w") else int(base[:-2] or 2)
    return base.rstrip("w")[-1], depth, quarters


def slice_quarter_turns(names: list[str]) -> int:
    """The single-slice quarter-turn count of catalog turns, as permutation-array formats count
    (Kaggle's Santa 2023): kFw turns k slices, a half turn counts two."""
    total = 0
    for name in names:
        _, depth, quarters = parse_turn(name)
        total += depth * (2 if quarters == 2 else 1)
    return total


_AXIS = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}


def merge_turns(names: list[str]) -> list[str]:
    """Catalog turns with what cancels merged: a turn joins an earlier one of the same face and
    depth when only turns of the same axis (which commute with it) stand between them."""
    out: list[tuple[str, int, int]] = []
    for name in names:
        face, depth, quarters = parse_turn(name)
        k = len(out) - 1
        while k >= 0 and _AXIS[out[k][0]] == _AXIS[face] and out[k][:2] != (face, depth):
            k -= 1
        if k >= 0 and out[k][:2] == (face, depth):
            quarters = (out[k][2] + quarters) % 4
            del out[k]
            if quarters:
                out.insert(k, (face, depth, quarters))
        else:
            out.append((face, depth, quarters))
    return [_wide(f, d) + {1: "", 2: "2", 3: "'"}[q] for f, d, q in out]
