"""Cutting the faces of a solid by families of parallel planes into sticker polygons.

A plane is a height along a unit direction; planes along the same line (a direction and its
opposite) form one family of parallel cuts. Each face polygon is split by every plane that crosses
it, line after line; a polygon is only tested against the planes between its lowest and highest
point along the line, so the work grows with the number of stickers, not stickers times planes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import DefinitionError

EPSILON = 1e-9
# A plane that passes within this of a polygon's corner goes through it: published distances carry
# 15 digits, and a plane meant to pass through a point of other cuts must not leave a sliver.
THROUGH = 1e-7


@dataclass(frozen=True)
class Line:
    """An axis through the centre: its two ends (names and unit directions, `ends[0]` the positive
    one) and the heights along `ends[0]` of the planes that cut the solid across it."""

    ends: tuple[tuple[str, np.ndarray], tuple[str, np.ndarray]]
    kinds: tuple[str, str]  # the family letter (f v e) of each end
    heights: np.ndarray  # sorted, only planes that cross the solid

    @property
    def direction(self) -> np.ndarray:
        return self.ends[0][1]


def _split(poly: np.ndarray, direction: np.ndarray, height: float) -> tuple[np.ndarray, np.ndarray]:
    """The parts of a convex polygon below and above the plane `x . direction = height`."""
    d = poly @ direction - height
    below, above = [], []
    n = len(poly)
    for i in range(n):
        j = (i + 1) % n
        p, dp, dq = poly[i], d[i], d[j]
        if dp <= EPSILON:
            below.append(p)
        if dp >= -EPSILON:
            above.append(p)
        if (dp < -EPSILON and dq > EPSILON) or (dp > EPSILON and dq < -EPSILON):
            x = p + (poly[j] - p) * (dp / (dp - dq))
            below.append(x)
            above.append(x)
    return _clean(below), _clean(above)


def _clean(points: list) -> np.ndarray:
    """Drop repeated corners and corners on a straight side, so every 3 consecutive corners turn."""
    pts = [p for k, p in enumerate(points) if np.linalg.norm(p - points[k - 1]) > 1e-9]
    changed = True
    while changed and len(pts) > 3:
        changed = False
        for k in range(len(pts)):
            a, b, c = pts[k - 1], pts[k], pts[(k + 1) % len(pts)]
            if np.linalg.norm(np.cross(b - a, c - b)) < 1e-12:
                del pts[k]
                changed = True
                break
    return np.array(pts)


def cut_faces(faces: list[np.ndarray], lines: list[Line], limit: int) -> list[tuple[int, np.ndarray]]:
    """(face index, polygon) per sticker: every face cut by the planes of every line. The faces of
    a Platonic solid and the cut families are alike under its symmetries, so every face holds as
    many stickers as the first: a description over `limit` is refused after cutting part of one."""
    out = []
    for f, face in enumerate(faces):
        pieces = _cut(face, lines, limit // len(faces) + 1)
        if len(pieces) * len(faces) > limit:
            raise DefinitionError(f"shape: more than {limit:,} stickers ({len(faces)} faces of at least "
                                  f"{len(pieces):,}); the limit is {limit:,}")
        out += [(f, p) for p in pieces]
    return out


def _cut(face: np.ndarray, lines: list[Line], most: int) -> list[np.ndarray]:
    """The face cut by every line's planes, or the first pieces past `most` when there are more."""
    pieces = [face]
    for line in lines:
        if not len(line.heights):
            continue
        split = []
        for k, poly in enumerate(pieces):
            d = poly @ line.direction
            crossing = line.heights[(line.heights > d.min() + THROUGH) & (line.heights < d.max() - THROUGH)]
            for h in crossing:
                below, poly = _split(poly, line.direction, h)
                split.append(below)
            split.append(poly)
            if len(split) + len(pieces) - k - 1 > most:
                return split + pieces[k + 1:]
        pieces = split
    return pieces
