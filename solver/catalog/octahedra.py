"""Face-turning octahedra: the Skewb Diamond (every face cut in 4 triangles, a turn moves half the
puzzle) and the FTO, face-turning octahedron (every face cut in 9 triangles, a turn moves the face
and the layer under it, a third of the way to the centre). Turns by 120 degrees, with '.

The octahedron has its vertices on the axes (U up, R right, F to the front); a face is named by the
three vertices it touches (UFR: x, y, z > 0), as the cube corner it points to. A sticker's point is
the weighted sum of its face's vertices (weights in units of 1/(3n) for n rows, see
geometry.triangle_grid), so every point is whole. The net: the four faces around U in a row,
pointing up, with the four faces around D below them, pointing down; stickers are numbered in
reading order of the net.
"""

from __future__ import annotations

from solver.catalog import native
from solver.catalog.geometry import Body, outward, triangle_grid

AXES = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0), "F": (0, 0, 1), "B": (0, 0, -1)}
# face: (apex, left, right) vertices of its drawing, counter-clockwise seen from outside for the
# upper faces (drawn apex up) and clockwise for the lower ones (drawn apex down, flipped)
UPPER = {"UFL": ("U", "L", "F"), "UFR": ("U", "F", "R"), "UBR": ("U", "R", "B"), "UBL": ("U", "B", "L")}
LOWER = {"DFL": ("D", "L", "F"), "DFR": ("D", "F", "R"), "DBR": ("D", "R", "B"), "DBL": ("D", "B", "L")}
FACES = {**UPPER, **LOWER}
COLOURS = {  # face: (symbol, name, hex), the usual FTO scheme
    "UFL": ("W", "white", "#ffffff"), "UFR": ("G", "green", "#009e60"), "UBR": ("P", "purple", "#7b3fa0"),
    "UBL": ("E", "grey", "#8a8a8a"), "DFL": ("R", "red", "#c41e3a"), "DFR": ("B", "blue", "#0051ba"),
    "DBR": ("Y", "yellow", "#ffd500"), "DBL": ("O", "orange", "#ff8000"),
}
SHRINK = 0.85  # each triangle drawn a little smaller than its place, leaving a gap
# The Skewb Diamond's turns: the faces whose halves spare the UFR face (the skewb's turns, dual).
DIAMOND_TURNS = ("DBR", "UBL", "DFL", "DBL")


def normal(face: str) -> tuple[int, int, int]:
    return tuple(sum(AXES[v][k] for v in FACES[face]) for k in range(3))


def stickers(n: int) -> list[tuple[str, tuple[float, float, str], tuple[int, int, int], bool]]:
    """(face, layout cell, point, pointing like its face) per sticker of faces cut in n rows."""
    out = []
    for k, (face, corners) in enumerate(FACES.items()):
        down = face in LOWER
        apex_x, apex_y = (n + 1) * (k % 4) + n / 2, (2 * n if down else 0)
        for r, t, w in triangle_grid(n):
            x, y = apex_x + (t - r) * 0.5, apex_y - r if down else apex_y + r
            shape = "triangle-up" if (t % 2 == 0) != down else "triangle-down"
            point = tuple(sum(wk * AXES[v][i] for wk, v in zip(w, corners)) for i in range(3))
            out.append((face, (x, y, shape), point, t % 2 == 0))
    out.sort(key=lambda s: (s[1][1], s[1][0]))
    return out


def _polygon(face: str, point, like_face: bool) -> list[list[float]]:
    """The small triangle around `point`: its corners lie towards the face's vertices (pointing like
    the face) or away from them, a third of a face's side apart in the units of the points."""
    vertices = [AXES[v] for v in FACES[face]]
    centre = [sum(v[i] for v in vertices) / 3 for i in range(3)]
    sign = 3 * SHRINK if like_face else -3 * SHRINK
    return outward([[round(point[i] + sign * (v[i] - centre[i]), 4) for i in range(3)] for v in vertices],
                   centre)


def _build(name: str, description: str, n: int, turns: tuple[str, ...], above: float) -> dict:
    """Faces cut in n rows; each face in `turns` turns the stickers beyond the plane
    `point . normal = above`."""
    sts = stickers(n)
    body = Body([p for _f, _c, p, _l in sts])
    moves, geometry_moves = [], {}
    for face in turns:
        axis = normal(face)
        moves += native.turn_and_inverse(face, body.layer_turn(axis, -120, above))
        geometry_moves[face] = {"axis": list(axis), "angle": -120}
        geometry_moves[face + "'"] = {"axis": list(axis), "angle": 120}
    return native.definition(
        name=name,
        description=description,
        goal=[COLOURS[f][0] for f, _c, _p, _l in sts],
        moves=moves,
        colours={symbol: (label, hex_) for symbol, label, hex_ in COLOURS.values()},
        cells=[c for _f, c, _p, _l in sts],
        shape="triangle-up",
        geometry={"stickers": [_polygon(f, p, like) for f, _c, p, like in sts], "moves": geometry_moves},
    )


def build_diamond(name: str = "skewb-diamond") -> dict:
    # points in sixths: a face's plane is at 6 along its normal; the cut goes through the centre
    return _build(name, describe_diamond(), 2, DIAMOND_TURNS, 0)


def build_fto(name: str = "fto") -> dict:
    # points in ninths: a face's plane is at 9 along its normal, the cut at 3 (a third of the way in)
    return _build(name, describe_fto(), 3, tuple(FACES), 3)


def describe_diamond() -> str:
    return ("The Skewb Diamond, 32 stickers (4 triangles a face of an octahedron): turns of the half "
            "of the puzzle beyond the faces DBR, UBL, DFL, DBL (the UFR face stays put), with '.")


def describe_fto() -> str:
    return ("The Face-Turning Octahedron (FTO), 72 stickers (9 triangles a face): turns of each of the "
            "8 faces (UFR, UFL, ... DBL) with the layer under it, with '.")
