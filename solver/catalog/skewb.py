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


SHRINK = 0.88  # each sticker drawn a little smaller than its place, leaving a gap


def _polygon(s: box.Sticker) -> list[list[float]]:
    """A centre is the square between the face's edge midpoints; a corner the triangle between the
    face's corner and the two edge midpoints beside it (doubled coordinates: faces at 3)."""
    axis = box.FACES[s.face][0]
    u = [abs(axis[(k + 1) % 3]) for k in range(3)]
    v = [abs(axis[(k + 2) % 3]) for k in range(3)]
    su, sv = sum(p * a for p, a in zip(s.point, u)), sum(p * a for p, a in zip(s.point, v))
    if su == 0:
        flat = [(3, 0), (0, 3), (-3, 0), (0, -3)]
    else:
        su, sv = (1 if su > 0 else -1), (1 if sv > 0 else -1)
        flat = [(3 * su, 3 * sv), (3 * su, 0), (0, 3 * sv)]
    middle = (sum(x for x, _ in flat) / len(flat), sum(y for _, y in flat) / len(flat))
    corners = [[round(3 * axis[k] + (middle[0] + SHRINK * (x - middle[0])) * u[k]
                      + (middle[1] + SHRINK * (y - middle[1])) * v[k], 4) for k in range(3)] for x, y in flat]
    a, b, c = corners[:3]
    e, f = [b[k] - a[k] for k in range(3)], [c[k] - b[k] for k in range(3)]
    normal = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]]
    return corners if sum(n * x for n, x in zip(normal, axis)) > 0 else corners[::-1]


def build(name: str = "skewb") -> dict:
    sts = stickers()
    return box.corner_turn_puzzle(name, describe(), sts, CORNERS, 0,
                                  [s.cell if 0 not in s.point else (*s.cell, "diamond") for s in sts],
                                  polygons=[_polygon(s) for s in sts])


def describe() -> str:
    return (
        "The Skewb with the UFR corner fixed, 30 stickers (corners and centres on a cube net): "
        "turns R U L B around the corners DBR, UBL, DFL, DBL, with '."
    )
