"""Box-shaped twisty puzzles (the NxNxN cubes and AxBxC cuboids) as sticker models.

Axes: x to the right (R), y up (U), z to the front (F). A box is w layers wide (x), d deep (z) and
h high (y). Coordinates are doubled so that every sticker point is whole: the box spans
[-w, w] x [-h, h] x [-d, d] and the k-th of n layers from the negative side has its centre at
-n + 1 + 2k.

Stickers are numbered as the net of the seed 3x3x3, read row by row: the U face from the back, then
each row across L, F, R, B (every face read as seen from outside, upright), then the D face from the
front. The net is also the layout, so sticker i is the i-th cell of the net in reading order.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import perm
from solver.catalog import native
from solver.catalog.geometry import Body, dot
from solver.perm import Perm

# face: (outward axis, colour symbol, colour name, hex)
FACES = {
    "U": ((0, 1, 0), "W", "white", "#ffffff"),
    "D": ((0, -1, 0), "Y", "yellow", "#ffd500"),
    "L": ((-1, 0, 0), "O", "orange", "#ff8000"),
    "R": ((1, 0, 0), "R", "red", "#c41e3a"),
    "F": ((0, 0, 1), "G", "green", "#009e60"),
    "B": ((0, 0, -1), "B", "blue", "#0051ba"),
}
# whole-puzzle rotations, each turning like the face named beside it
ROTATIONS = (("x", "R"), ("y", "U"), ("z", "F"))


@dataclass(frozen=True)
class Sticker:
    face: str
    cell: tuple[int, int]  # (column, row) in the net
    point: tuple[int, int, int]


def _centre(n: int, k: int) -> int:
    """Doubled coordinate of the k-th of n layers, counted from the negative side."""
    return -n + 1 + 2 * k


def stickers(w: int, d: int, h: int) -> list[Sticker]:
    """Every sticker of the box w wide, d deep and h high, in net order."""
    out = []
    for row in range(d):  # U, from the back
        for col in range(w):
            out.append(Sticker("U", (d + col, row), (_centre(w, col), h, _centre(d, row))))
    for row in range(h):  # the band L F R B, from the top
        y = -_centre(h, row)
        for col in range(d):
            out.append(Sticker("L", (col, d + row), (-w, y, _centre(d, col))))
        for col in range(w):
            out.append(Sticker("F", (d + col, d + row), (_centre(w, col), y, d)))
        for col in range(d):
            out.append(Sticker("R", (d + w + col, d + row), (w, y, -_centre(d, col))))
        for col in range(w):
            out.append(Sticker("B", (2 * d + w + col, d + row), (-_centre(w, col), y, -d)))
    for row in range(d):  # D, from the front
        for col in range(w):
            out.append(Sticker("D", (d + col, d + h + row), (_centre(w, col), -h, -_centre(d, row))))
    return out


def in_face(s: Sticker) -> list[int]:
    """The sticker's two coordinates within its face (those along the face's outward axis dropped)."""
    return [c for c, a in zip(s.point, FACES[s.face][0]) if a == 0]


def corner_turn_puzzle(name: str, description: str, sts: list[Sticker], corners: dict, above: float,
                       cells: list, polygons: list | None = None) -> dict:
    """A puzzle on some stickers of a cube net turned around corners: each named corner turns
    the stickers beyond the plane `point . corner = above` by 120 degrees, with '. With `polygons`
    (one 3D polygon per sticker) the definition carries the geometry the 3D player draws."""
    body = Body([s.point for s in sts])
    moves, turns = [], {}
    for move_name, corner in corners.items():
        moves += native.turn_and_inverse(move_name, body.layer_turn(corner, -120, above))
        turns[move_name] = {"axis": list(corner), "angle": -120}
        turns[move_name + "'"] = {"axis": list(corner), "angle": 120}
    geometry = None if polygons is None else {"stickers": polygons, "moves": turns}
    return native.definition(name=name, description=description, goal=[FACES[s.face][1] for s in sts],
                             moves=moves, colours=colours(), cells=cells, geometry=geometry)


def layers(w: int, d: int, h: int, face: str) -> int:
    """How many layers the box has along the axis of `face`."""
    axis = FACES[face][0]
    return abs(axis[0]) * w + abs(axis[1]) * h + abs(axis[2]) * d


def turn_name(face: str, depth: int) -> str:
    """SiGN: R turns one layer, Rw two, 3Rw three, and so on."""
    return face if depth == 1 else ("" if depth == 2 else str(depth)) + face + "w"


def layer_moves(body: Body, w: int, d: int, h: int) -> list[tuple[str, Perm, tuple, int]]:
    """Clockwise turns of the outer 1 .. n//2 layers of every face (n layers along its axis): quarter
    turns with ' and 2 where the layer maps onto itself, else the half turn alone, named without
    the 2 (it is the face's only turn: R on the floppy cube). Each with its axis and angle."""
    result = []
    for face, (axis, *_colour) in FACES.items():
        n = layers(w, d, h, face)
        for depth in range(1, n // 2 + 1):
            name = turn_name(face, depth)
            above = n - 2 * depth  # the plane between the turned layers and the rest
            quarter = body.layer_turn(axis, -90, above)
            if quarter is not None:
                result += [(name, quarter, axis, -90), (name + "'", perm.inverse(quarter), axis, 90),
                           (name + "2", perm.power(quarter, 2), axis, -180)]
            else:
                result.append((name, body.layer_turn(axis, 180, above), axis, 180))
    return result


STICKER_HALF = 0.88  # half a sticker's side, in the doubled coordinates where stickers are 2 apart


def sticker_polygon(s: Sticker) -> list[list[float]]:
    """The sticker's square in its face's plane, counter-clockwise seen from outside."""
    axis = FACES[s.face][0]
    u = tuple(abs(axis[(k + 1) % 3]) for k in range(3))  # two directions in the face's plane
    v = tuple(abs(axis[(k + 2) % 3]) for k in range(3))
    outward = dot((u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]), axis) > 0
    corners = ((-1, -1), (1, -1), (1, 1), (-1, 1)) if outward else ((-1, -1), (-1, 1), (1, 1), (1, -1))
    return [[round(s.point[k] + STICKER_HALF * (a * u[k] + b * v[k]), 3) for k in range(3)] for a, b in corners]


def rotation_symmetries(body: Body, w: int, d: int, h: int) -> list[tuple[str, Perm]]:
    """Whole-puzzle rotations the moves can make, as a small generating set.

    Along an axis with an even number of layers the two half-deep turns from opposite faces add up
    to a rotation of the whole puzzle, so its goal turned that way is solved too. With an odd count
    the middle layer never turns and fixes the orientation (the centres of odd cubes)."""
    chosen: list[tuple[str, Perm]] = []
    for name, face in ROTATIONS:
        if layers(w, d, h, face) % 2:
            continue
        axis = FACES[face][0]
        p = body.whole_turn(axis, -90)
        if p is None:
            name, p = name + "2", body.whole_turn(axis, 180)
        if p not in perm.group_elements([q for _, q in chosen], len(body)):
            chosen.append((name, p))
    return chosen


def colours() -> dict[str, native.Colour]:
    return {symbol: (label, hex_) for _axis, symbol, label, hex_ in FACES.values()}


def definition(w: int, d: int, h: int, name: str, description: str) -> dict:
    """The native definition of the box puzzle w wide, d deep and h high, in its goal state."""
    sts = stickers(w, d, h)
    body = Body([s.point for s in sts])
    moves = layer_moves(body, w, d, h)
    geometry = {"stickers": [sticker_polygon(s) for s in sts],
                "moves": {name: {"axis": list(axis), "angle": angle} for name, _p, axis, angle in moves}}
    return native.definition(
        name=name,
        description=description,
        goal=[FACES[s.face][1] for s in sts],
        moves=[native.move(n, p) for n, p, _axis, _angle in moves],
        colours=colours(),
        cells=[s.cell for s in sts],
        symmetries=[native.move(n, p) for n, p in rotation_symmetries(body, w, d, h)],
        geometry=geometry,
    )
