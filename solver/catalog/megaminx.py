"""The Megaminx: a dodecahedron whose 12 faces turn by fifths; 11 stickers a face (a centre, five
edges, five corners), 132 in all. The centres never move, so the orientation is fixed.

Faces: U on top, D at the bottom; the ring below U clockwise seen from above F, L, BL, BR, R; the
ring above D, each face between two of those: FL, DL, B, DR, FR. Moves X, X' (a fifth), X2, X2'
(two fifths) for every face X, clockwise seen from outside.

The geometry: the dodecahedron's vertices, its faces as the 5-vertex sets nearest each face normal
(the icosahedron's vertices), turned so that U points up and F to the front. A turn moves every
sticker whose piece (face centre, edge midpoint or vertex) lies on the turning face. The layout is
the usual net of two flowers, U and its ring unfolded flat, and beside it D and its ring.
"""

from __future__ import annotations

import math

from solver import perm
from solver.catalog import native
from solver.catalog.geometry import Body, dot, rotate, rotation

PHI = (1 + math.sqrt(5)) / 2
UPPER = ("F", "L", "BL", "BR", "R")  # clockwise from above, starting at the front
LOWER = ("FL", "DL", "B", "DR", "FR")  # between F and L, L and BL, ...
COLOURS = {  # face: (symbol, name, hex)
    "U": ("W", "white", "#ffffff"), "F": ("G", "green", "#009e60"), "L": ("P", "purple", "#7b3fa0"),
    "BL": ("Y", "yellow", "#ffd500"), "BR": ("B", "blue", "#0051ba"), "R": ("R", "red", "#c41e3a"),
    "D": ("E", "grey", "#8a8a8a"), "FL": ("C", "cream", "#f3e5ab"), "DL": ("O", "orange", "#ff8000"),
    "B": ("L", "light blue", "#7ec8f0"), "DR": ("N", "lime", "#9bd43a"), "FR": ("K", "pink", "#f49ac1"),
}
STICKER_REACH = 0.72  # where edge and corner stickers sit between the face centre and their piece
LAYOUT_SCALE = 2.4


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _scale(a, k):
    return tuple(x * k for x in a)


def _unit(a):
    return _scale(a, 1 / math.sqrt(dot(a, a)))


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def solid():
    """(face name -> unit normal, face name -> its 5 vertices in turning order), U up, F front."""
    vertices = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for a in (-1 / PHI, 1 / PHI):
        for b in (-PHI, PHI):
            vertices += [(0, a, b), (a, b, 0), (b, 0, a)]
    normals = [_unit(n) for s in (-1, 1) for t in (-1, 1) for n in ((0, s * PHI, t), (s * PHI, t, 0), (t, 0, s * PHI))]
    up = normals[0]
    front = max((n for n in normals if 0.1 < dot(n, up) < 0.9), key=lambda n: n[2])
    ey = up
    ez = _unit(_sub(front, _scale(up, dot(front, up))))
    ex = _cross(ey, ez)

    def frame(p):  # coordinates in the frame where U is up and F in front
        return (dot(p, ex), dot(p, ey), dot(p, ez))

    normals = [frame(n) for n in normals]
    vertices = [frame(v) for v in vertices]

    def azimuth(n):  # clockwise from the front, seen from above
        return math.atan2(-n[0], n[2]) % (2 * math.pi)

    named = {"U": max(normals, key=lambda n: n[1]), "D": min(normals, key=lambda n: n[1])}
    ring = sorted((n for n in normals if abs(n[1]) < 0.9), key=azimuth)
    upper = [n for n in ring if n[1] > 0]
    lower = [n for n in ring if n[1] < 0]
    named.update(zip(UPPER, upper))
    named.update(zip(LOWER, lower))
    corners = {}
    for face, n in named.items():
        top = sorted(vertices, key=lambda v: -dot(v, n))[:5]
        centre = _scale(n, dot(top[0], n))
        # order the 5 vertices around the face so that consecutive ones share an edge
        first = _sub(top[0], centre)
        corners[face] = sorted(top, key=lambda v: math.atan2(dot(_cross(first, _sub(v, centre)), n),
                                                             dot(first, _sub(v, centre))))
    return named, corners


def stickers():
    """Per sticker: (face, point, piece point); per face: centre, then edge and corner alternately."""
    normals, corners = solid()
    out = []
    for face in ("U", *UPPER, *LOWER, "D"):
        n, vs = normals[face], corners[face]
        centre = _scale(n, dot(vs[0], n))
        out.append((face, centre, centre))
        for k in range(5):
            mid = _scale(_add(vs[k], vs[(k + 1) % 5]), 0.5)
            for piece in (vs[k], mid):
                out.append((face, _add(centre, _scale(_sub(piece, centre), STICKER_REACH)), piece))
    return out, normals, corners


def _net(sts, normals, corners):
    """2D cells: U's flower seen from above, D's seen from below beside it."""
    cells = []
    for face, point, _piece in sts:
        hub = "U" if face == "U" or face in UPPER else "D"
        p = point
        if face != hub:
            # unfold the face flat onto its hub face about their common edge
            shared = [v for v in corners[face] if any(dot(_sub(v, w), _sub(v, w)) < 1e-9 for w in corners[hub])]
            hinge = _scale(_add(shared[0], shared[1]), 0.5)
            axis = _cross(normals[face], normals[hub])
            angle = math.degrees(math.acos(dot(normals[face], normals[hub])))
            p = _add(hinge, rotate(rotation(axis, angle), _sub(p, hinge)))
        x, z = (p[0], p[2]) if hub == "U" else (p[0] + 5.2, -p[2])
        cells.append((round(x * LAYOUT_SCALE + 6.5, 3), round(z * LAYOUT_SCALE + 6.5, 3), "circle"))
    return cells


INNER = 0.5  # the centre pentagon's size, as a part of the face's
EDGE_CUT = 0.32  # where the edge stickers begin along a face's side, from each vertex
SHRINK = 0.9  # each sticker drawn a little smaller than its cell, leaving a gap


def _polygons(normals, corners) -> list[list[list[float]]]:
    """Per sticker, in the order of stickers(): the centre pentagon, then corner kites and edge
    quadrilaterals around it, counter-clockwise seen from outside."""
    out = []
    for face in ("U", *UPPER, *LOWER, "D"):
        n, vs = normals[face], corners[face]
        c = _scale(n, dot(vs[0], n))
        inner = [_add(c, _scale(_sub(v, c), INNER)) for v in vs]
        cut = [(_add(vs[k], _scale(_sub(vs[(k + 1) % 5], vs[k]), EDGE_CUT)),
                _add(vs[k], _scale(_sub(vs[(k + 1) % 5], vs[k]), 1 - EDGE_CUT))) for k in range(5)]
        shapes = [inner]
        for k in range(5):
            shapes.append([vs[k], cut[k][0], inner[k], cut[k - 1][1]])  # the corner at vs[k]
            shapes.append([cut[k][0], cut[k][1], inner[(k + 1) % 5], inner[k]])  # the edge after it
        for shape in shapes:
            middle = _scale(tuple(map(sum, zip(*shape))), 1 / len(shape))
            shape = [_add(middle, _scale(_sub(p, middle), SHRINK)) for p in shape]
            if dot(_cross(_sub(shape[1], shape[0]), _sub(shape[2], shape[1])), n) < 0:
                shape.reverse()
            out.append([[round(x, 4) for x in p] for p in shape])
    return out


def build(name: str = "megaminx") -> dict:
    sts, normals, corners = stickers()
    body = Body([point for _f, point, _piece in sts])
    depth = {face: dot(corners[face][0], n) for face, n in normals.items()}
    moves, turns = [], {}
    for face in ("U", *UPPER, *LOWER, "D"):
        n = normals[face]
        on_face = [abs(dot(piece, n) - depth[face]) < 1e-6 for _f, _p, piece in sts]
        fifth = body.turn(rotation(n, -72), lambda i: on_face[i])
        if fifth is None:
            raise RuntimeError(f"megaminx: the turn of {face} does not map the puzzle onto itself")
        for suffix, k in (("", 1), ("'", -1), ("2", 2), ("2'", -2)):
            moves.append(native.move(face + suffix, perm.power(fifth, k)))
            turns[face + suffix] = {"axis": [round(x, 6) for x in n], "angle": -72 * k}
    return native.definition(
        name=name,
        description=describe(),
        goal=[COLOURS[f][0] for f, _p, _q in sts],
        moves=moves,
        colours={s: (label, hex_) for s, label, hex_ in COLOURS.values()},
        cells=_net(sts, normals, corners),
        shape="circle",
        geometry={"stickers": _polygons(normals, corners), "moves": turns},
    )


def describe() -> str:
    return "The Megaminx, 132 stickers: every face turns by fifths (X, X', X2, X2'); centres fix the orientation."
