"""The Dino Cube: twelve two-coloured edge pieces; turns of the three edges around a corner,
120 degrees, with ', at each of the eight corners (12!/2 states: the edges are never flipped in
place, and every turn is an even permutation of them).

Its stickers are the edge stickers of the 3x3x3 net (24, numbered in reading order of that net).
A turn moves the stickers beyond the plane perpendicular to the corner's diagonal that leaves just
the corner's three edges on its side.
"""

from __future__ import annotations

from solver.catalog import box
from solver.catalog.geometry import outward

# move name: the corner it turns around (x: R +1, y: U +1, z: F +1)
CORNERS = {
    "UFR": (1, 1, 1), "UFL": (-1, 1, 1), "UBR": (1, 1, -1), "UBL": (-1, 1, -1),
    "DFR": (1, -1, 1), "DFL": (-1, -1, 1), "DBR": (1, -1, -1), "DBL": (-1, -1, -1),
}
# Doubled coordinates (see box): an edge sticker next to the corner lies at height 5 along its
# diagonal, the next edges at 1 or below.
CUT = 3


def stickers() -> list[box.Sticker]:
    """The edge stickers of the 3x3x3 net: exactly one in-face coordinate is zero."""
    result = []
    for s in box.stickers(3, 3, 3):
        a, b = box.in_face(s)
        if (a == 0) != (b == 0):
            result.append(s)
    return result


SHRINK = 0.85  # each triangle drawn a little smaller than its place, leaving a gap


def triangle(s: box.Sticker) -> list[list[float]]:
    """The sticker's triangle: between its face's centre and the two ends of its edge (doubled
    coordinates: faces at 3), counter-clockwise seen from outside; its centre is the sticker's point."""
    axis = box.FACES[s.face][0]
    toward = [0 if a else (1 if c > 0 else -1 if c < 0 else 0) for a, c in zip(axis, s.point)]
    along = [0 if a or t else 1 for a, t in zip(axis, toward)]
    corners = [[3 * a for a in axis]] + [[3 * (a + t + sign * g) for a, t, g in zip(axis, toward, along)]
                                         for sign in (1, -1)]
    shrunk = [[round(p + SHRINK * (c - p), 4) for c, p in zip(corner, s.point)] for corner in corners]
    return outward(shrunk, axis)


def build(name: str = "dino") -> dict:
    sts = stickers()
    return box.corner_turn_puzzle(name, describe(), sts, CORNERS, CUT, [s.cell for s in sts],
                                  polygons=[triangle(s) for s in sts])


def describe() -> str:
    return (
        "The Dino Cube, 24 stickers (the edge stickers of a cube net): turns of the three edges "
        "around each corner (UFR, UFL, ... DBL), with '."
    )
