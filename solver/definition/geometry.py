"""The optional `geometry` block of a native definition: how the puzzle looks in 3D.

    geometry:
      stickers:            # one entry per sticker: a flat polygon of 3D points, or null (not drawn)
        - [[-2.8, 3, -2.8], [-1.2, 3, -2.8], [-1.2, 3, -1.2], [-2.8, 3, -1.2]]
        - ...
      moves:               # per move (any subset; names of moves the puzzle lacks are skipped):
        R: {axis: [1, 0, 0], angle: -90}      # the axis through the origin, degrees (right-hand rule)

Like the layout it is presentation: it stays out of the canonical form and the content hash. The
player draws the polygons, hides those facing away, and turns the stickers a move carries about
its axis while it animates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver.errors import DefinitionError

Point = tuple[float, float, float]
MAX_COORDINATE = 1e6


@dataclass(frozen=True)
class Geometry:
    stickers: tuple[tuple[Point, ...] | None, ...]
    moves: tuple[tuple[str, Point, float], ...]  # (move name, axis, angle in degrees)


def _number(value, place: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_COORDINATE:
        raise DefinitionError(f"{place}: expected a number, got {value!r}"[:200])
    return value


def _point(value, place: str) -> Point:
    if not isinstance(value, list) or len(value) != 3:
        raise DefinitionError(f"{place}: expected a point [x, y, z]")
    return tuple(_number(v, f"{place}") for v in value)


def parse(raw, stickers: int, move_names) -> Geometry:
    if not isinstance(raw, dict):
        raise DefinitionError("geometry: expected a mapping with stickers and moves")
    for key in raw:
        if key not in ("stickers", "moves"):
            raise DefinitionError(f"geometry: unknown key {key}; geometry has stickers and moves")
    polygons = raw.get("stickers")
    if not isinstance(polygons, list) or len(polygons) != stickers:
        count = len(polygons) if isinstance(polygons, list) else "no"
        raise DefinitionError(f"geometry.stickers has {count} entries, the puzzle has {stickers} stickers")
    out = []
    for i, polygon in enumerate(polygons):
        place = f"geometry.stickers[{i}]"
        if polygon is None:
            out.append(None)
            continue
        if not isinstance(polygon, list) or len(polygon) < 3:
            raise DefinitionError(f"{place}: expected a polygon of 3 or more points [x, y, z], or null")
        out.append(tuple(_point(p, f"{place}[{k}]") for k, p in enumerate(polygon)))
    moves = raw.get("moves") or {}
    if not isinstance(moves, dict):
        raise DefinitionError("geometry.moves: expected a mapping from move names to {axis, angle}")
    known = set(move_names)
    turns = []
    for name, turn in moves.items():
        place = f"geometry.moves.{name}"
        if name not in known:
            continue  # a definition derived with fewer moves (a fork, a subgroup) keeps its geometry
        if not isinstance(turn, dict) or set(turn) != {"axis", "angle"}:
            raise DefinitionError(f"{place}: expected {{axis: [x, y, z], angle: degrees}}")
        axis = _point(turn["axis"], f"{place}.axis")
        if not any(axis):
            raise DefinitionError(f"{place}.axis: the axis cannot be [0, 0, 0]")
        angle = _number(turn["angle"], f"{place}.angle")
        if abs(angle) > 360:
            raise DefinitionError(f"{place}.angle: at most 360 degrees either way, got {angle}")
        turns.append((name, axis, angle))
    return Geometry(tuple(out), tuple(turns))


def data(geometry: Geometry) -> dict:
    """The block as the native format writes it."""
    return {
        "stickers": [None if p is None else [list(point) for point in p] for p in geometry.stickers],
        "moves": {name: {"axis": list(axis), "angle": angle} for name, axis, angle in geometry.moves},
    }
