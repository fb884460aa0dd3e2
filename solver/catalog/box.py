"""Box-shaped twisty puzzles (the NxNxN cubes and AxBxC cuboids) as sticker models.

Axes: x to the right (R), y up (U), z to the front (F). A puzzle A x B x C is A layers wide (x),
B deep (z) and C high (y). Coordinates are doubled so that every sticker point is whole: the box
spans [-A, A] x [-C, C] x [-B, B] and the k-th layer from the negative side has its centre at
-n + 1 + 2k.

Stickers are numbered as the net of the seed 3x3x3, read row by row: the U face from the back, then
each row across L, F, R, B (every face read as seen from outside, upright), then the D face from the
front. The net is also the layout, so sticker i is the i-th cell of the net in reading order.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import perm
from solver.catalog import native
from solver.catalog.geometry import Body
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


def stickers(a: int, b: int, c: int) -> list[Sticker]:
    """Every sticker of the a x b x c box in net order."""
    out = []
    for row in range(b):  # U, from the back
        for col in range(a):
            out.append(Sticker("U", (b + col, row), (_centre(a, col), c, _centre(b, row))))
    for row in range(c):  # the band L F R B, from the top
        y = -_centre(c, row)
        for col in range(b):
            out.append(Sticker("L", (col, b + row), (-a, y, _centre(b, col))))
        for col in range(a):
            out.append(Sticker("F", (b + col, b + row), (_centre(a, col), y, b)))
        for col in range(b):
            out.append(Sticker("R", (b + a + col, b + row), (a, y, -_centre(b, col))))
        for col in range(a):
            out.append(Sticker("B", (2 * b + a + col, b + row), (-_centre(a, col), y, -b)))
    for row in range(b):  # D, from the front
        for col in range(a):
            out.append(Sticker("D", (b + col, b + c + row), (_centre(a, col), -c, -_centre(b, row))))
    return out


def layers(a: int, b: int, c: int, face: str) -> int:
    """How many layers the box has along the axis of `face`."""
    axis = FACES[face][0]
    return abs(axis[0]) * a + abs(axis[1]) * c + abs(axis[2]) * b


def turn_name(face: str, depth: int) -> str:
    """SiGN: R turns one layer, Rw two, 3Rw three, and so on."""
    return face if depth == 1 else ("" if depth == 2 else str(depth)) + face + "w"


def layer_moves(body: Body, a: int, b: int, c: int) -> list[tuple[str, Perm]]:
    """Clockwise turns of the outer 1 .. n//2 layers of every face (n layers along its axis): quarter
    turns with ' and 2 where the layer maps onto itself, else the half turn alone."""
    result = []
    for face, (axis, *_colour) in FACES.items():
        n = layers(a, b, c, face)
        for depth in range(1, n // 2 + 1):
            name = turn_name(face, depth)
            above = n - 2 * depth  # the plane between the turned layers and the rest
            quarter = body.layer_turn(axis, -90, above)
            if quarter is not None:
                result += [(name, quarter), (name + "'", perm.inverse(quarter)), (name + "2", perm.power(quarter, 2))]
            else:
                result.append((name + "2", body.layer_turn(axis, 180, above)))
    return result


def rotation_symmetries(body: Body, a: int, b: int, c: int) -> list[tuple[str, Perm]]:
    """Whole-puzzle rotations the moves can make, as a small generating set.

    Along an axis with an even number of layers the two half-deep turns from opposite faces add up
    to a rotation of the whole puzzle, so its goal turned that way is solved too. With an odd count
    the middle layer never turns and fixes the orientation (the centres of odd cubes)."""
    chosen: list[tuple[str, Perm]] = []
    for name, face in ROTATIONS:
        if layers(a, b, c, face) % 2:
            continue
        axis = FACES[face][0]
        p = body.whole_turn(axis, -90)
        if p is None:
            name, p = name + "2", body.whole_turn(axis, 180)
        if p not in _closure([q for _, q in chosen], len(body)):
            chosen.append((name, p))
    return chosen


def _closure(generators: list[Perm], n: int) -> set[Perm]:
    group = {perm.identity(n)}
    frontier = list(group)
    while frontier:
        nxt = []
        for g in frontier:
            for s in generators:
                h = perm.compose(g, s)
                if h not in group:
                    group.add(h)
                    nxt.append(h)
        frontier = nxt
    return group


def colours() -> dict[str, native.Colour]:
    return {symbol: (label, hex_) for _axis, symbol, label, hex_ in FACES.values()}


def definition(a: int, b: int, c: int, name: str, description: str) -> dict:
    """The native definition of the a x b x c box puzzle in its goal state."""
    sts = stickers(a, b, c)
    body = Body([s.point for s in sts])
    moves = layer_moves(body, a, b, c)
    return native.definition(
        name=name,
        description=description,
        goal=[FACES[s.face][1] for s in sts],
        moves=[native.move(n, p) for n, p in moves],
        colours=colours(),
        cells=[s.cell for s in sts],
        symmetries=[native.move(n, p) for n, p in rotation_symmetries(body, a, b, c)],
    )
