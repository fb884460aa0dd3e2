"""The move axes of a cut solid and the turns of the slabs between its parallel planes.

Every cut family puts a plane across each face, vertex or edge direction of the solid. Planes on
one line through the centre (a direction and its opposite: U and D on the cube, a vertex and the
face opposite it on the tetrahedron) cut the solid into slabs. Each slab turns about the line by
the smallest angle that carries the solid onto itself (360 degrees over the order of the line's
rotation symmetry: 4 for the cube's faces, 3 for its corners, 2 for its edges). A turn is a move
only when it carries the slab's stickers onto stickers; one that would not (a jumbling cut) gives
no move. With symmetric families and symmetry angles this always holds; the check stays as the
proof that every move is a permutation.

One slab per line never turns: turning it is the same as turning the rest of the line back and the
whole puzzle with it, so leaving it out holds the puzzle still, as the published state counts do.
It is the slab that holds the centre or, when the centre lies on a plane, the outermost slab at the
line's negative end: the end nearer the solid's reference corner (D, L and B on the cube, so the
2x2x2's and the 4x4x4's DBL corner stays put), or the face end of a tetrahedron's vertex-face line.

Slabs are named after the nearer end and counted from it: U turns the outermost slab at U, 2U the
one below it (SiGN's slice turn), 2D the second from D; each turns clockwise seen from its end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.catalog.geometry import rotation
from solver.errors import DefinitionError
from solver.geometry.cutting import EPSILON, THROUGH, Line
from solver.geometry.description import Description
from solver.geometry.solids import KINDS, TOLERANCE, Solid


@dataclass(frozen=True)
class Slab:
    name: str  # e.g. U, 2U, 2D
    line: int  # index into the lines
    end: int  # 0 or 1: the end it is named after and turns clockwise about
    index: int  # its place along the line, counted from the negative end (sticker slab numbers)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.linalg.norm(a - b) < TOLERANCE)


def lines(solid: Solid, description: Description) -> list[Line]:
    """Every line some cut family runs across, with the heights of its planes that cut the solid
    (planes nearer each other or the solid's surface than `THROUGH` count once, or not at all)."""
    ends: list[tuple] = []  # per line: its two ends, each (name, direction, family letter)
    planes: list[list[float]] = []  # per line: heights along its first end's direction
    for family, distance in description.cuts:
        for name, direction in solid.directions[family]:
            k = next((i for i, (a, _) in enumerate(ends) if _same(a[1], direction) or _same(a[1], -direction)), None)
            if k is None:
                ends.append(((name, direction, family), _opposite(solid, direction)))
                planes.append([])
                k = len(ends) - 1
            planes[k].append(distance if _same(ends[k][0][1], direction) else -distance)
    result = []
    for (a, b), heights in zip(ends, planes):
        if _negative_first(solid, a, b):
            a, b, heights = b, a, [-h for h in heights]
        top, bottom = float((solid.vertices @ a[1]).max()), float((solid.vertices @ b[1]).max())
        kept: list[float] = []
        for h in sorted(heights):
            if -bottom + THROUGH < h < top - THROUGH and (not kept or h - kept[-1] > THROUGH):
                kept.append(h)
        result.append(Line(((a[0], a[1]), (b[0], b[1])), (a[2], b[2]), np.array(kept)))
    return sorted(result, key=lambda line: _rank(solid, line.ends[0][0]))  # U's axis first, and so on


def _opposite(solid: Solid, direction: np.ndarray) -> tuple[str, np.ndarray, str]:
    for kind in KINDS:
        for name, d in solid.directions[kind]:
            if _same(d, -direction):
                return name, d, kind
    raise AssertionError("every direction of a Platonic solid has an opposite feature")


def _negative_first(solid: Solid, a, b) -> bool:
    """Whether end `a` (name, direction, family) is the line's negative end."""
    if a[2] != b[2]:  # a tetrahedron's vertex and the face opposite it: the face is negative
        return a[2] == "f"
    da, db = float(a[1] @ solid.reference), float(b[1] @ solid.reference)
    if abs(da - db) > TOLERANCE:
        return da > db
    return _rank(solid, a[0]) > _rank(solid, b[0])


def _rank(solid: Solid, name: str) -> tuple:
    """A joined name (UFR, U.BL.BR) as the places of its parts in the solid's naming order."""
    ranks = {n: i for i, n in enumerate(solid.order)}
    parts = name.split(".") if "." in name else list(name)
    return tuple(ranks[p] for p in parts)


def symmetry_order(solid: Solid, direction: np.ndarray) -> int:
    """How many turns about the line make a full turn: the largest k whose 360/k-degree rotation
    carries the solid's vertices onto themselves."""
    for k in (5, 4, 3, 2):
        m = rotation_matrix(direction, 360 / k)
        turned = solid.vertices @ m.T
        if all(np.min(np.linalg.norm(solid.vertices - p, axis=1)) < TOLERANCE for p in turned):
            return k
    raise AssertionError("every line through a face, vertex or edge has a half-turn symmetry")


def rotation_matrix(axis, degrees: float) -> np.ndarray:
    return np.array(rotation(tuple(float(c) for c in axis), degrees))


def slabs(all_lines: list[Line]) -> list[Slab]:
    """The slabs that turn, per line from the positive end's outermost inwards, then the negative."""
    out = []
    for li, line in enumerate(all_lines):
        count = len(line.heights) + 1
        if count == 1:
            continue
        centre = int(np.searchsorted(line.heights, 0.0))
        on_plane = bool(np.any(np.abs(line.heights) < EPSILON))
        still = 0 if on_plane else centre
        for index in reversed(range(count)):
            if index == still:
                continue
            above = index > 0 and line.heights[index - 1] >= -EPSILON  # the slab lies on the positive side
            end = 0 if above else 1
            depth = count - index if end == 0 else index + 1
            name = line.ends[end][0]
            out.append(Slab(name if depth == 1 else f"{depth}{name}", li, end, index))
    return out


def check_cut(solid: Solid, all_lines: list[Line], description: Description) -> None:
    """Refuse a description whose planes all miss the solid: no slab could turn about any axis."""
    if any(len(line.heights) for line in all_lines):
        return
    line = all_lines[0]
    reach = float((solid.vertices @ line.direction).max())
    raise DefinitionError(f"shape: no turn is possible: every plane of '{description.text}' misses the {solid.name} "
                          f"(about the {KINDS[line.kinds[0]]} axis {line.ends[0][0]}-{line.ends[1][0]} it reaches "
                          f"{reach:.3g} from the centre)")
