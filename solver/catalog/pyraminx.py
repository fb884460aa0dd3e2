"""The Pyraminx without tips: 4 faces of 9 triangles, minus the 3 tip triangles of each (24 stickers);
turns U L R B of the two layers around each vertex, 120 degrees, with '.

The tetrahedron has vertices U, L, R, B at alternate corners of a cube; the face towards the viewer
is F (U, L, R). A point on a face is the weighted sum of its three vertices, weights in ninths, so
every sticker point is whole. The net is a row L F R of triangles with D below F; stickers are
numbered in reading order of the net (rows top to bottom, left to right).
"""

from __future__ import annotations

from typing import NamedTuple

from solver.catalog import native
from solver.catalog.geometry import Body, outward, triangle_grid

VERTICES = {"U": (1, 1, 1), "L": (-1, -1, 1), "R": (1, -1, -1), "B": (-1, 1, -1)}


class Face(NamedTuple):
    colour: tuple[str, str, str]  # symbol, name, hex
    corners: tuple[str, str, str]  # vertices at the apex, left and right of its drawing
    down: bool  # drawn pointing down (the apex-up drawing flipped top to bottom)
    apex: tuple[float, int]  # where the apex triangle is drawn


# F faces the viewer; L, R and D are unfolded from its three sides.
FACES = {
    "F": Face(("G", "green", "#009e60"), ("U", "L", "R"), False, (2.5, 0)),
    "L": Face(("R", "red", "#c41e3a"), ("L", "B", "U"), True, (1.0, 2)),
    "R": Face(("B", "blue", "#0051ba"), ("R", "U", "B"), True, (4.0, 2)),
    "D": Face(("Y", "yellow", "#ffd500"), ("B", "L", "R"), True, (2.5, 5)),
}


def _triangles():
    """The small triangles of a face (see geometry.triangle_grid, in ninths), tips left out."""
    return (t for t in triangle_grid(3) if 7 not in t[2])


def stickers() -> list[tuple[str, tuple[float, int, str], tuple[int, int, int]]]:
    """(face, layout cell, point) per sticker, in net reading order."""
    out = []
    for face, spec in FACES.items():
        for r, t, w in _triangles():
            x = spec.apex[0] + (t - r) * 0.5
            y = spec.apex[1] - r if spec.down else spec.apex[1] + r
            shape = "triangle-up" if (t % 2 == 0) != spec.down else "triangle-down"
            point = tuple(sum(wk * VERTICES[v][i] for wk, v in zip(w, spec.corners)) for i in range(3))
            out.append((face, (x, y, shape), point))
    out.sort(key=lambda s: (s[1][1], s[1][0]))
    return out


SHRINK = 0.85  # each triangle drawn a little smaller than its place, leaving a gap


def _polygon(face: str, cell, point) -> list[list[float]]:
    """The small triangle around `point` (in ninths): its corners lie a third of the way from the
    face's centre towards the face's vertices (pointing like the face), or away from them."""
    vertices = [VERTICES[v] for v in FACES[face].corners]
    centre = [sum(v[i] for v in vertices) / 3 for i in range(3)]
    like_face = (cell[2] == "triangle-up") != FACES[face].down
    sign = 3 * SHRINK if like_face else -3 * SHRINK
    corners = [[round(point[i] + sign * (v[i] - centre[i]), 4) for i in range(3)] for v in vertices]
    return outward(corners, centre)


def build(name: str = "pyraminx") -> dict:
    sts = stickers()
    body = Body([p for _f, _c, p in sts])
    moves, turns = [], {}
    for vertex, axis in VERTICES.items():
        # the tip and middle layer of a vertex: points whose weight on it is at least 4 ninths
        p = body.layer_turn(axis, -120, 3)
        moves += native.turn_and_inverse(vertex, p)
        turns[vertex] = {"axis": list(axis), "angle": -120}
        turns[vertex + "'"] = {"axis": list(axis), "angle": 120}
    return native.definition(
        name=name,
        description=describe(),
        goal=[FACES[f].colour[0] for f, _c, _p in sts],
        moves=moves,
        colours={f.colour[0]: f.colour[1:] for f in FACES.values()},
        cells=[c for _f, c, _p in sts],
        shape="triangle-up",
        geometry={"stickers": [_polygon(f, c, p) for f, c, p in sts], "moves": turns},
    )


def describe() -> str:
    return "The Pyraminx without tips, 24 stickers: turns U L R B of two layers around a vertex, with '."
