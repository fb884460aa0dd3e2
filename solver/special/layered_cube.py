"""An NxNxN cube written with any layer moves: recognised, and its answers written in its own moves.

A definition is such a cube when it has 6N^2 stickers and each move turns some layers of one axis
(single slices as in permutation-array formats, faces, wide turns, or a mix), in any sticker
numbering and with any move names. Recognition reads the geometry off the moves with no search
(a 33x33x33 with 198 slice moves, inverses included, in 0.2-0.7 s):

1. Moves of one axis commute and moves of two axes do not: the moves fall into three classes.
2. On each axis, stickers moved by the same moves form one layer (an atom of the supports); the two
   outer layers are the large ones (a face and its band).
3. Layers of the first axis are numbered: a half turn of an outer layer of a second axis pairs each
   layer with its mirror image, and pairs are ordered by how often the user's moves turn them
   together with an outer layer (so wide turns keep their depth; for slice moves any order is as good,
   since renumbering depths alike on every axis is a symmetry of the cube). A quarter turn of an outer
   layer of the second (third) axis carries those numbers to the layers of the third (second) axis.
4. Each sticker then has a layer on every axis (a middle layer no move turns is the one left); which
   face it lies on follows from the one outer layer it is in, or for edge and corner pieces from its
   goal colour (a face's colour is the one every piece on it shows); the face centres of odd cubes,
   which no turn of their face moves, go by colour.

That places every sticker on the catalog's cubeN (solver.special.bigcube.model numbering). Every
move is then checked to be, there, a product of quarter turns of layers of one axis; its vector of
quarter turns per layer is what translation uses. An answer of the catalog's solver (face and wide
turns) becomes, per run of turns on one axis, the layer turns it adds up to, each written as the
shortest user sequence of at most four moves (one slice move; or Rw R' for a user who has only wide
turns), or one user move when one makes the whole run. On odd cubes whose user moves turn middle
layers (or the whole cube) the face centres move; a state is first turned so they are home.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.definition.model import Definition
from solver.errors import StateError, UnreachableError
from solver.special.bigcube.model import BigCube, NORMALS, parse_turn


@dataclass(frozen=True)
class Frame:
    """The catalog cubeN's stickers as numpy arrays: the layer of each sticker on each axis
    (0 .. N-1 from the negative side) and, per axis, the whole-cube quarter turns (the turn of
    one layer is the whole turn on that layer's stickers)."""

    n: int
    layer: np.ndarray  # (3, stickers)
    turn: np.ndarray  # (3, 4, stickers): sticker s goes to turn[a, t, s] after t quarter turns about +axis a
    face: list  # per sticker, (axis, outer layer) of the face it lies on
    goal: str
    centres: tuple[int, ...]  # the face centres of an odd cube


@lru_cache(maxsize=8)
def frame(n: int) -> Frame:
    cube = BigCube(n)
    points = np.array(cube.points, dtype=np.int64)
    normals = np.array([NORMALS[f] for f in cube.faces], dtype=np.int64)
    cubies = points - normals
    layer = (cubies.T + n - 1) // 2
    width = 2 * n + 1
    lookup = np.full(width ** 3, -1, dtype=np.int64)
    keys = lambda p: ((p[:, 0] + n) * width + p[:, 1] + n) * width + p[:, 2] + n  # noqa: E731
    lookup[keys(points)] = np.arange(len(points))
    x, y, z = points.T
    quarter = (np.stack([x, -z, y], 1), np.stack([z, y, -x], 1), np.stack([-y, x, z], 1))  # +90 degrees about x, y, z
    turn = np.empty((3, 4, len(points)), dtype=np.int64)
    for a in range(3):
        turn[a, 0] = np.arange(len(points))
        turn[a, 1] = lookup[keys(quarter[a])]
        for t in (2, 3):
            turn[a, t] = turn[a, 1][turn[a, t - 1]]
    centres = tuple(cube.index_of[tuple(n * c for c in NORMALS[f])] for f in "URFDLB") if n % 2 else ()
    face = []
    for f in cube.faces:
        axis = next(a for a in range(3) if NORMALS[f][a])
        face.append((axis, n - 1 if NORMALS[f][axis] > 0 else 0))
    return Frame(n, layer, turn, face, cube.solved(), centres)


def vector_perm(fr: Frame, axis: int, vector) -> np.ndarray:
    """The permutation (sticker -> where it goes) of turning layer k of `axis` by vector[k] quarters."""
    amounts = np.asarray(vector)[fr.layer[axis]]
    return fr.turn[axis][amounts, np.arange(fr.turn.shape[2])]


def catalog_turn(n: int, name: str) -> tuple[int, list[int]]:
    """A catalog turn (SiGN: R, Rw, 3Rw', U2, ...) as (axis, quarter turns about +axis per layer)."""
    face, depth, quarters = parse_turn(name)
    normal = NORMALS[face]
    axis = next(a for a in range(3) if normal[a])
    vector = [0] * n
    # clockwise seen from the face: -90 degrees about its outward normal
    for d in range(depth):
        if normal[axis] > 0:
            vector[n - 1 - d] = (-quarters) % 4
        else:
            vector[d] = quarters
    return axis, vector


@dataclass(frozen=True)
class LayeredCube:
    """A user's cube placed on the catalog cubeN."""

    n: int
    sticker: np.ndarray  # user position -> catalog position
    colour: dict  # user colour -> catalog colour
    turns: dict  # (axis, layer, quarters) -> shortest user move sequence
    moves: list  # per axis, {quarter turns per layer: the user move making exactly those}
    rotations: list  # odd cubes: [(catalog permutation, user moves)] turning the face centres, shortest first

    def to_catalog(self, state) -> str:
        out = [""] * len(self.sticker)
        for i, c in enumerate(state):
            if c not in self.colour:
                raise StateError(f"state: colour {c!r} at sticker {i} is not one of the goal's")
            out[self.sticker[i]] = self.colour[c]
        return "".join(out)

    def turn_home(self, state: str) -> tuple[str, list[str]]:
        """An odd cube's state with its middle layers (or the whole cube) turned so the face centres are
        home (it is then a state of the catalog's cube), and the user moves doing it."""
        fr = frame(self.n)
        goal_centres = [fr.goal[c] for c in fr.centres]
        codes = np.array(list(state))
        for p, names in self.rotations:
            moved = np.empty_like(codes)
            moved[p] = codes
            if [moved[c] for c in fr.centres] == goal_centres:
                return "".join(moved), names
        raise UnreachableError(f"cube{self.n}: the face centres cannot be turned home with these moves")

    def layers_turn(self, axis: int, vector) -> list[str]:
        """One user move when one does it all (a wide turn for a user who has them), else layer by layer."""
        whole = self.moves[axis].get(tuple(vector))
        if whole is not None:
            return whole
        return [name for k, t in enumerate(vector) if t % 4 for name in self.turns[(axis, k, t % 4)]]

    def user_moves(self, catalog_moves: list[str]) -> list[str]:
        """Catalog turns in the user's moves: each run of turns about one axis adds up to one turn per
        layer, each written with its user sequence."""
        out: list[str] = []
        axis, vector = None, [0] * self.n
        for name in catalog_moves:
            a, v = catalog_turn(self.n, name)
            if a != axis:
                if axis is not None:
                    out += self.layers_turn(axis, vector)
                axis, vector = a, [0] * self.n
            vector = [(x + y) % 4 for x, y in zip(vector, v)]
        if axis is not None:
            out += self.layers_turn(axis, vector)
        return out


def recognize(defn: Definition) -> LayeredCube | None:
    """The definition placed on the catalog cubeN, or None when it is not an NxNxN cube written with
    layer moves whose turns include every one of the catalog's (N >= 3)."""
    n = math.isqrt(defn.stickers // 6)
    if defn.guarded or n < 3 or 6 * n * n != defn.stickers or not defn.moves:
        return None
    perms = np.array([m.perm for m in defn.moves], dtype=np.int64)
    identity = np.arange(defn.stickers)
    moving = [i for i in range(len(perms)) if (perms[i] != identity).any()]
    axes = _axis_classes(perms, moving)
    if axes is None:
        return None
    atoms = [_atoms(perms, cls, n) for cls in axes]
    if any(a is None for a in atoms):
        return None
    labels = _number_layers(perms, axes, atoms, n)
    if labels is None:
        return None
    sticker = _place(defn, labels, n)
    if sticker is None:
        return None
    return _checked(defn, perms, sticker, n)


def _axis_classes(perms: np.ndarray, moving: list[int]) -> list[list[int]] | None:
    classes: list[list[int]] = []
    for i in moving:
        p = perms[i]
        for cls in classes:
            q = perms[cls[0]]
            if (p[q] == q[p]).all():
                cls.append(i)
                break
        else:
            classes.append([i])
    return classes if len(classes) == 3 else None


@dataclass(frozen=True)
class _Atoms:
    of: np.ndarray  # per sticker, its layer (atom) number on this axis, -1 when no move of the axis moves it
    member: np.ndarray  # (atoms, moves of the axis): which moves turn each atom
    outer: tuple[int, int]


def _atoms(perms: np.ndarray, cls: list[int], n: int) -> _Atoms | None:
    moved = perms[cls] != np.arange(perms.shape[1])  # (moves, stickers)
    packed = np.ascontiguousarray(np.packbits(moved, axis=0).T)  # per sticker, the moves that move it
    rows, of = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), return_inverse=True)
    keys = np.unpackbits(rows.view(np.uint8).reshape(len(rows), -1), axis=1, count=len(cls)).astype(bool)
    of = of.reshape(-1)
    blank = np.flatnonzero(~keys.any(axis=1))
    if len(blank):  # stickers no move of this axis moves
        of = np.where(of == blank[0], -1, of - (of > blank[0]))
        keys = np.delete(keys, blank[0], axis=0)
    sizes = np.bincount(of[of >= 0], minlength=len(keys))
    outer_size = n * n + 4 * n - n % 2
    outer = tuple(int(k) for k in np.flatnonzero(sizes == outer_size))
    inner = np.flatnonzero(sizes == 4 * n)
    if len(outer) != 2 or len(outer) + len(inner) != len(keys) or len(keys) < n - n % 2:
        return None
    return _Atoms(of, keys, outer)


def _quarter(perms: np.ndarray, cls: list[int], atom: int, atoms: _Atoms) -> np.ndarray | None:
    """A move of the class that turns the atom by a quarter (no sticker of it back after two)."""
    stickers = np.flatnonzero(atoms.of == atom)
    for i in cls:
        p = perms[i]
        if (p[p[stickers]] != stickers).all():
            return p
    return None


def _number_layers(perms, axes, atoms: list[_Atoms], n: int) -> list[np.ndarray] | None:
    """Per axis, the layer number 0 .. N-1 of every sticker (-1 where no move of the axis moves it)."""
    middle = (n - 1) // 2 if n % 2 else None
    xs = atoms[0]
    numbers = [np.full(len(atoms[a].member), -1) for a in range(3)]
    numbers[0][xs.outer[0]], numbers[0][xs.outer[1]] = 0, n - 1
    y_quarter = _quarter(perms, axes[1], atoms[1].outer[0], atoms[1])
    z_quarter = _quarter(perms, axes[2], atoms[2].outer[0], atoms[2])
    if y_quarter is None or z_quarter is None:
        return None
    on_y = np.flatnonzero(atoms[1].of == atoms[1].outer[0])
    mirror: dict[int, int] = {}
    for s in on_y:  # a half turn of an outer layer sends each layer to its mirror image
        a, b = xs.of[s], xs.of[y_quarter[y_quarter[s]]]
        if (a < 0) != (b < 0) or a >= 0 and mirror.setdefault(int(a), int(b)) != b:
            return None  # a layer no move turns, other than the middle one
    together = xs.member.astype(np.int64) @ xs.member[list(xs.outer)].T.astype(np.int64)  # (atoms, 2)
    pairs = set()
    for a, b in mirror.items():
        if a in xs.outer or b in xs.outer:
            continue
        if a == b:
            if middle is None:
                return None
            numbers[0][a] = middle
            continue
        side0, side1 = sorted((a, b), key=lambda k: (together[k, 1] - together[k, 0], k))
        pairs.add((side0, side1))
    order = sorted(pairs, key=lambda p: (-(together[p[0], 0] + together[p[1], 1]), p))
    for depth, (side0, side1) in enumerate(order, 1):
        numbers[0][side0], numbers[0][side1] = depth, n - 1 - depth
    if (numbers[0] < 0).any():
        return None
    per_sticker_x = np.where(xs.of >= 0, numbers[0][xs.of], -1 if middle is None else middle)
    # A quarter turn of an outer layer of y carries x layers to z layers, one of z carries them to y.
    for axis, quarter, carrier in ((2, y_quarter, 1), (1, z_quarter, 2)):
        on = np.flatnonzero(atoms[carrier].of == atoms[carrier].outer[0])
        target = atoms[axis].of[quarter[on]]
        known = target >= 0
        for atom, number in zip(target[known], per_sticker_x[on][known]):
            if number < 0 or numbers[axis][atom] not in (-1, number):
                return None
            numbers[axis][atom] = number
        if (numbers[axis] < 0).any() or len(set(numbers[axis].tolist())) != len(numbers[axis]):
            return None
    return [np.where(atoms[a].of >= 0, numbers[a][atoms[a].of], -1) for a in range(3)]


def _place(defn: Definition, labels: list[np.ndarray], n: int) -> np.ndarray | None:
    """Each user sticker's position on the catalog cube, from its layers and, where it could lie on
    several faces, its goal colour (a face's colour is the one every piece touching it shows)."""
    middle = (n - 1) // 2 if n % 2 else None
    outer = (0, n - 1)
    goal = defn.goal
    layers: list[list[int] | None] = []  # per sticker, its layer on every axis; None for a face centre
    for s in range(defn.stickers):
        lab = [int(labels[a][s]) for a in range(3)]
        unknown = [a for a in range(3) if lab[a] < 0]
        if unknown and middle is None:
            return None
        if unknown and all(v == middle for v in lab if v >= 0):
            layers.append(None)  # a face centre of an odd cube (no turn of its face moves it)
            continue
        layers.append([middle if v < 0 else v for v in lab])  # a middle layer no move turns
    pieces: dict[tuple, set] = {}
    for s, lab in enumerate(layers):
        if lab is not None:
            pieces.setdefault(tuple(lab), set()).add(goal[s])
    face_colour = {}
    for a in range(3):
        for side in outer:
            touching = [c for key, c in pieces.items() if key[a] == side]
            shown = set.intersection(*touching) if touching else set()
            if len(shown) != 1:
                return None
            face_colour[(a, side)] = shown.pop()
    if len(set(face_colour.values())) != 6:
        return None
    face_of = {c: f for f, c in face_colour.items()}
    fr = frame(n)
    index = {(tuple(fr.layer[:, i].tolist()), fr.face[i]): i for i in range(defn.stickers)}
    sticker = np.empty(defn.stickers, dtype=np.int64)
    for s, lab in enumerate(layers):
        face = face_of.get(goal[s])
        if face is None:
            return None
        if lab is None:
            if labels[face[0]][s] >= 0:  # its face's axis is one it has a known layer on
                return None
            lab = [middle] * 3
            lab[face[0]] = face[1]
        at = index.get((tuple(lab), face))
        if at is None:
            return None
        sticker[s] = at
    if len(np.unique(sticker)) != defn.stickers:
        return None
    return sticker


def _checked(defn: Definition, perms: np.ndarray, sticker: np.ndarray, n: int) -> LayeredCube | None:
    """The placement, if every move is a turn of layers of one axis there and the goal is the
    catalog's in other colours; with the user sequence of every layer turn."""
    fr = frame(n)
    colour: dict = {}
    for s, c in enumerate(defn.goal):
        if colour.setdefault(c, fr.goal[sticker[s]]) != fr.goal[sticker[s]]:
            return None
    if len(set(colour.values())) != len(colour):
        return None
    vectors: list[dict[tuple, list[str]]] = [{}, {}, {}]
    for m, p in zip(defn.moves, perms):
        there = np.empty_like(p)
        there[sticker] = sticker[p]
        axis = next((a for a in range(3) if (fr.layer[a][there] == fr.layer[a]).all()), None)
        if axis is None:
            return None
        # per quarter-turn count t and layer: how many of its stickers do not go where t quarters send them
        wrong = np.array([np.bincount(fr.layer[axis], weights=there != fr.turn[axis, t], minlength=n)
                          for t in range(4)])
        if (wrong.min(axis=0) > 0).any():
            return None
        vector = tuple(int(t) for t in wrong.argmin(axis=0))
        if any(vector):
            vectors[axis].setdefault(vector, [m.name])
    middle = (n - 1) // 2 if n % 2 else None
    turns: dict[tuple[int, int, int], list[str]] = {}
    for axis in range(3):
        search = _Shortest(vectors[axis])
        for k in range(n):
            for t in (1, 2, 3):
                target = tuple(t if j == k else 0 for j in range(n))
                seq = search.find(target)
                if seq is None and k != middle:
                    return None
                if seq is not None:
                    turns[(axis, k, t)] = seq
    rotations = _centre_turns(fr, turns, vectors) if middle is not None else []
    return LayeredCube(n, sticker, colour, turns, vectors, rotations)


class _Shortest:
    """Shortest user sequences for a vector of layer turns of one axis (the axis' moves commute, so
    a sequence is a multiset of moves; meet in the middle up to four moves)."""

    def __init__(self, singles: dict[tuple, list[str]]):
        self.singles = singles
        self._pairs: dict[tuple, list[str]] | None = None

    @staticmethod
    def _minus(a, b) -> tuple:
        return tuple((x - y) % 4 for x, y in zip(a, b))

    def pairs(self) -> dict[tuple, list[str]]:
        if self._pairs is None:
            self._pairs = {}
            items = list(self.singles.items())
            for i, (u, a) in enumerate(items):
                for v, b in items[i:]:
                    self._pairs.setdefault(tuple((x + y) % 4 for x, y in zip(u, v)), a + b)
        return self._pairs

    def find(self, target: tuple) -> list[str] | None:
        if target in self.singles:
            return self.singles[target]
        singles = lambda: self.singles  # noqa: E731
        for first, second in ((singles, singles), (singles, self.pairs), (self.pairs, self.pairs)):  # 2, 3, 4 moves
            rest_of = second()
            for v, seq in first().items():
                rest = rest_of.get(self._minus(target, v))
                if rest is not None:
                    return seq + rest
        return None


def _centre_turns(fr: Frame, turns: dict, moves: list) -> list:
    """Every placement of an odd cube's face centres the user's moves reach, each with a shortest
    way there (a breadth-first search over at most 24 placements). A step turns the middle layer of
    an axis, or the whole cube about it, whichever the user's moves write shorter: the two differ by
    turns of the catalog's cube."""
    middle = (fr.n - 1) // 2
    steps = []
    for a in range(3):
        for t in (1, 2, 3):
            ways = [([t if k == middle else 0 for k in range(fr.n)], turns.get((a, middle, t)))]
            whole = [t] * fr.n
            if tuple(whole) in moves[a]:
                ways.append((whole, moves[a][tuple(whole)]))
            elif all((a, k, t) in turns for k in range(fr.n)):
                ways.append((whole, [name for k in range(fr.n) for name in turns[(a, k, t)]]))
            ways = [w for w in ways if w[1] is not None]
            if ways:
                vector, seq = min(ways, key=lambda w: len(w[1]))
                steps.append((vector_perm(fr, a, vector), seq))
    start = np.arange(fr.turn.shape[2])
    found = {tuple(start[list(fr.centres)]): (start, [])}
    frontier = [(start, [])]
    while frontier:
        nxt = []
        for p, seq in frontier:
            for step, names in steps:
                q = step[p]
                key = tuple(q[list(fr.centres)])
                if key not in found:
                    found[key] = (q, seq + names)
                    nxt.append(found[key])
        frontier = nxt
    return sorted(found.values(), key=lambda e: len(e[1]))
