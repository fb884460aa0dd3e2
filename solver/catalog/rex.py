"""The Rex Cube: the Dino Cube's corner turns with deeper, spherical cuts. A face shows a centre,
four petals (towards the corners), four edge halves and four corners. A turn around a corner moves,
by 120 degrees, everything inside the sphere about that corner that reaches just past the far
petals of its three faces: three centres, nine petals, three edges (and the corner, which only
twists in place by its own turns: like the Dino Cube's corner tips it is left out, so that 54
stickers remain and the states are those counted in the literature).

Its stickers are 9 of the 25 a face of the 5x5x5 net has (the centre, its four diagonal neighbours
and the four edge middles), numbered in reading order of that net.
"""

from __future__ import annotations

from solver.catalog import box, dino, native
from solver.catalog.geometry import Body, dot, rotation

SIZE = 5  # the 5x5x5 net the stickers are taken from (doubled coordinates: faces at 5)
KINDS = {(0, 0): "centre", (2, 2): "petal", (0, 4): "edge", (4, 0): "edge"}
# Squared radius of a corner's sphere (corner at (5, 5, 5)): the far petals of its faces lie at 58,
# the nearest stickers that stay (the next corners' places) at 82.
REACH = 70


def stickers() -> list[box.Sticker]:
    return [s for s in box.stickers(SIZE, SIZE, SIZE) if tuple(abs(c) for c in box.in_face(s)) in KINDS]


def _inside(point, corner) -> bool:
    return sum((p - SIZE * c) ** 2 for p, c in zip(point, corner)) < REACH


def build(name: str = "rex") -> dict:
    sts = stickers()
    body = Body([s.point for s in sts])
    moves, turns = [], {}
    for move_name, corner in dino.CORNERS.items():
        p = body.turn(rotation(corner, -120), lambda i, c=corner: _inside(sts[i].point, c))
        moves += native.turn_and_inverse(move_name, p)
        turns[move_name] = {"axis": list(corner), "angle": -120}
        turns[move_name + "'"] = {"axis": list(corner), "angle": 120}
    cells = [(*s.cell, "diamond") if KINDS[tuple(abs(c) for c in box.in_face(s))] == "petal" else s.cell
             for s in sts]
    return native.definition(
        name=name, description=describe(), goal=[box.FACES[s.face][1] for s in sts], moves=moves,
        colours=box.colours(), cells=cells,
        geometry={"stickers": [box.sticker_polygon(s) for s in sts], "moves": turns},
    )


def describe() -> str:
    return ("The Rex Cube, 54 stickers (centre, petals and edges of each face): turns around each corner "
            "(UFR, UFL, ... DBL) of its centres, petals and edges, with '.")
