"""The five Platonic solids, scaled so that every face lies at distance 1 from the centre (the unit
the PuzzleGeometry description language measures its cuts in), with named directions.

Each solid names one kind of feature after the puzzles built on it: the cube its faces (U D F B R
L, as the catalog's cubes), the octahedron its vertices (on the axes, as the catalog's FTO), the
tetrahedron its vertices (U L R B, as the catalog's Pyraminx), the dodecahedron its faces (as the
catalog's Megaminx: U, F, L, BL, BR, R, FL, DL, B, DR, FR, D) and the icosahedron its vertices
(pointing where the Megaminx's faces do). Every other feature is named by the named features
nearest to it, in that order: the cube's corner UFR, edge UF; the octahedron's face UFR; the
tetrahedron's face ULR (the Pyraminx's F); the dodecahedron's corner U.F.R (dots, as some of its
face names have two letters). Orientation: x to the right, y up, z to the front.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver.catalog import box, megaminx, native, octahedra, pyraminx

TOLERANCE = 1e-6
KINDS = {"f": "face", "v": "vertex", "e": "edge"}
SHAPES = {"t": "tetrahedron", "c": "cube", "o": "octahedron", "d": "dodecahedron", "i": "icosahedron"}


@dataclass(frozen=True)
class Solid:
    letter: str
    name: str
    vertices: np.ndarray  # (V, 3)
    faces: tuple[tuple[int, ...], ...]  # vertex indices, counter-clockwise seen from outside
    face_names: tuple[str, ...]
    colours: tuple[tuple[str, str, str], ...]  # per face: (symbol, name, hex)
    directions: dict  # kind letter -> tuple of (name, unit vector) for every face, vertex, edge
    order: tuple[str, ...]  # the named features, in naming order
    reference: np.ndarray  # where the part that holds the puzzle still is (see turns.py)

    @property
    def circumradius(self) -> float:
        return float(np.linalg.norm(self.vertices[0]))

    def face_normal(self, f: int) -> np.ndarray:
        return self.directions["f"][f][1]


def _distinct(points) -> list:
    """The points without repeats (the same corner reached from several faces), as computed."""
    seen = {}
    for p in points:
        seen.setdefault(tuple(round(c, 6) for c in p), p)
    return [seen[k] for k in sorted(seen)]


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def _faces(vertices: np.ndarray, normals: list[np.ndarray]) -> list[tuple[int, ...]]:
    """Per face normal, the vertices farthest along it, ordered counter-clockwise seen from outside."""
    faces = []
    for n in normals:
        heights = vertices @ n
        on = [i for i in range(len(vertices)) if heights[i] > heights.max() - TOLERANCE]
        centre = vertices[on].mean(axis=0)
        first = vertices[on[0]] - centre
        second = np.cross(n, first)
        on.sort(key=lambda i: math.atan2((vertices[i] - centre) @ second, (vertices[i] - centre) @ first))
        faces.append(tuple(on))
    return faces


def _name_by_nearest(direction: np.ndarray, named: list[tuple[str, np.ndarray]]) -> str:
    """The names nearest the direction, joined (UFR), with dots where some names of the solid have
    more than one letter (U.BL.BR on the dodecahedron)."""
    dots = [float(direction @ v) for _, v in named]
    best = max(dots)
    joint = "." if any(len(name) > 1 for name, _ in named) else ""
    return joint.join(name for (name, _), d in zip(named, dots) if d > best - TOLERANCE)


def _assemble(letter, vertices, face_normals, named_kind, names, colour_of, reference) -> Solid:
    vertices = np.asarray(vertices, dtype=float)
    normals = [_unit(n) for n in face_normals]
    faces = _faces(vertices, normals)
    vertices = vertices / float(vertices[faces[0][0]] @ normals[0])  # faces at distance 1
    edges = sorted({tuple(sorted((f[k], f[(k + 1) % len(f)]))) for f in faces for k in range(len(f))})
    raw = {
        "f": normals,
        "v": [_unit(v) for v in vertices],
        "e": [_unit(vertices[a] + vertices[b]) for a, b in edges],
    }
    named = list(zip(names, raw[named_kind]))
    directions = {}
    for kind, vectors in raw.items():
        if kind == named_kind:
            directions[kind] = tuple(named)
        else:
            directions[kind] = tuple((_name_by_nearest(v, named), v) for v in vectors)
    face_names = tuple(name for name, _ in directions["f"])
    return Solid(letter, SHAPES[letter], vertices, tuple(faces), face_names,
                 tuple(colour_of(name) for name in face_names), directions, tuple(names),
                 _unit(reference))


def _cube() -> Solid:
    order = ("U", "D", "F", "B", "R", "L")
    normals = [box.FACES[f][0] for f in order]
    vertices = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    return _assemble("c", vertices, normals, "f", order, lambda f: box.FACES[f][1:], (-1, -1, -1))


def _octahedron() -> Solid:
    order = ("U", "D", "F", "B", "R", "L")
    vertices = [octahedra.AXES[v] for v in order]
    normals = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    return _assemble("o", vertices, normals, "v", order, lambda f: octahedra.COLOURS[f], (-1, -1, -1))


def _tetrahedron() -> Solid:
    order = tuple(pyraminx.VERTICES)  # U L R B
    vertices = [pyraminx.VERTICES[v] for v in order]
    normals = [tuple(-c for c in v) for v in vertices]  # each face is opposite a vertex
    by_corners = {frozenset(face.corners): face.colour for face in pyraminx.FACES.values()}
    # the tetrahedron's lines join a vertex to a face: its reference is on every face side (turns.py)
    return _assemble("t", vertices, normals, "v", order, lambda f: by_corners[frozenset(f)], (0, -1, 0))


def _dodecahedron() -> Solid:
    named, corners = megaminx.solid()
    order = tuple(megaminx.COLOURS)
    vertices = _distinct(v for vs in corners.values() for v in vs)
    low = min(vertices, key=lambda v: (round(v[1], 6), round(v[0], 6), v[2]))  # a corner of D, to the left
    return _assemble("d", vertices, [named[f] for f in order], "f", order, lambda f: megaminx.COLOURS[f], low)


def _icosahedron() -> Solid:
    named, corners = megaminx.solid()
    order = tuple(megaminx.COLOURS)
    # the icosahedron's faces point where the dodecahedron's vertices do
    normals = _distinct(v for vs in corners.values() for v in vs)
    palette = {}

    def colour(face: str):
        k = len(palette)
        palette[face] = (chr(ord("A") + k), f"colour {k + 1}", native.hsv_hex(k / 20, 0.75, 0.95))
        return palette[face]

    low = min(normals, key=lambda v: (round(v[1], 6), round(v[0], 6), v[2]))
    return _assemble("i", [named[f] for f in order], normals, "v", order, colour, low)


@lru_cache(maxsize=None)
def solid(letter: str) -> Solid:
    return {"t": _tetrahedron, "c": _cube, "o": _octahedron, "d": _dodecahedron, "i": _icosahedron}[letter]()
