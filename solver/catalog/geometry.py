"""Moves of twisty puzzles derived from 3D geometry.

A puzzle is a list of sticker points in space. A turn rotates the points of one layer about an axis;
the move is the permutation that sends each turned sticker to the position whose point it lands on.
Nothing is written by hand: a wrong layer or angle shows up as a point that lands on no sticker.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from solver.perm import Perm

Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def rotation(axis: Sequence[float], degrees: float) -> Matrix:
    """The rotation by `degrees` about `axis`, counter-clockwise seen from the axis' tip
    (so a negative angle turns clockwise as seen from outside, the way puzzle notation turns)."""
    length = math.sqrt(dot(axis, axis))
    x, y, z = (c / length for c in axis)
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    t = 1 - c
    return (
        (t * x * x + c, t * x * y - s * z, t * x * z + s * y),
        (t * x * y + s * z, t * y * y + c, t * y * z - s * x),
        (t * x * z - s * y, t * y * z + s * x, t * z * z + c),
    )


def rotate(m: Matrix, p: Sequence[float]) -> Vector:
    return (dot(m[0], p), dot(m[1], p), dot(m[2], p))


def _key(p: Sequence[float]) -> tuple:
    # Points are compared after rounding: the rotations are exact up to floating-point noise.
    return tuple(round(c, 6) + 0.0 for c in p)


class Body:
    """The sticker points of one puzzle, with lookups by point."""

    def __init__(self, points: Sequence[Sequence[float]]):
        self.points = [tuple(p) for p in points]
        self._index = {_key(p): i for i, p in enumerate(self.points)}
        if len(self._index) != len(self.points):
            raise ValueError("two stickers share a point")

    def __len__(self) -> int:
        return len(self.points)

    def turn(self, m: Matrix, moved: Callable[[int], bool]) -> Perm | None:
        """The permutation of rotating the stickers for which `moved(i)` holds by `m`, or None when
        the rotation does not carry that set of stickers onto itself (the turn is blocked)."""
        p = list(range(len(self.points)))
        for i, point in enumerate(self.points):
            if not moved(i):
                continue
            j = self._index.get(_key(rotate(m, point)))
            if j is None or not moved(j):
                return None
            p[i] = j
        return tuple(p)

    def layer_turn(self, axis: Sequence[float], degrees: float, above: float) -> Perm | None:
        """Turn every sticker whose point lies beyond the plane `point . axis = above`."""
        heights = [dot(p, axis) for p in self.points]
        return self.turn(rotation(axis, degrees), lambda i: heights[i] > above)

    def whole_turn(self, axis: Sequence[float], degrees: float) -> Perm | None:
        """A rotation of the whole puzzle (a symmetry when it maps the body onto itself)."""
        return self.turn(rotation(axis, degrees), lambda i: True)


def triangle_grid(n: int):
    """The n*n small triangles of a triangular face cut in n rows, drawn apex up: (row, index in
    row, weights of the face's apex, left and right corners in units of 1/(3n)) per triangle, row by
    row; index even = pointing like the face. The weights place the triangle's centre."""
    for r in range(n):
        for t in range(2 * r + 1):
            m = t // 2
            if t % 2 == 0:
                yield r, t, (3 * (n - 1 - r) + 1, 3 * (r - m) + 1, 3 * m + 1)
            else:
                yield r, t, (3 * (n - 1 - r) + 2, 3 * (r - m) - 1, 3 * m + 2)


def outward(corners: list[list[float]], inside_to_out: Sequence[float]) -> list[list[float]]:
    """A flat polygon's corners ordered counter-clockwise seen from outside (`inside_to_out` points
    out of the solid through it)."""
    a, b, c = corners[:3]
    u = [b[k] - a[k] for k in range(3)]
    w = [c[k] - b[k] for k in range(3)]
    normal = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
    return corners if dot(normal, inside_to_out) > 0 else corners[::-1]
