"""The Skewb with its UFR corner fixed: turns R U L B (WCA names) of the half of the puzzle around
the corners DBR, UBL, DFL and DBL, 120 degrees, with '.

Its stickers are those of the 3x3x3 net that a Skewb has: the four corners and the centre of every
face (30 stickers, numbered in reading order of that net; the centre is drawn as a diamond). A cut
through the middle perpendicular to a corner's diagonal splits the puzzle in halves of four corners
and three centres; the turned half is the one on the corner's side of the cut.
"""

from __future__ import annotations

from solver.catalog import box

# move name: the corner it turns around (x: R +1, y: U +1, z: F +1). None of these halves holds UFR.
CORNERS = {"R": (1, -1, -1), "U": (-1, 1, -1), "L": (-1, -1, 1), "B": (-1, -1, -1)}


def stickers() -> list[box.Sticker]:
    """The corner and centre stickers of the 3x3x3 net: those with both in-face coordinates zero
    (a centre) or both non-zero (a corner)."""
    result = []
    for s in box.stickers(3, 3, 3):
        a, b = box.in_face(s)
        if (a == 0) == (b == 0):
            result.append(s)
    return result


def build(name: str = "skewb") -> dict:
    sts = stickers()
    return box.corner_turn_puzzle(name, describe(), sts, CORNERS, 0,
                                  [s.cell if 0 not in s.point else (*s.cell, "diamond") for s in sts])


def describe() -> str:
    return (
        "The Skewb with the UFR corner fixed, 30 stickers (corners and centres on a cube net): "
        "turns R U L B around the corners DBR, UBL, DFL, DBL, with '."
    )
