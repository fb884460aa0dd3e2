"""A shape description to a native definition: the solid's faces cut into stickers, the slab turns
as moves (inverses and powers as extenders), colours per face, the net as layout and the sticker
polygons with the move axes as 3D geometry.

Stickers are numbered in reading order of the net (rows top to bottom, left to right), as the
catalog's puzzles are.
"""

from __future__ import annotations

import math

import numpy as np

from solver.catalog import native
from solver.catalog.geometry import rotation
from solver.definition.formats import MAX_STICKERS
from solver.errors import DefinitionError
from solver.geometry import net, turns
from solver.geometry.cutting import cut_faces
from solver.geometry.description import Description, parse
from solver.geometry.solids import solid as solid_of

SHRINK = 0.9  # each sticker drawn a little smaller than its place, leaving a gap
CELL_GAP = 1.15  # layout units between the nearest two sticker centres
SMALLEST = 1e-3  # a sticker's size (square root of its area) as a part of its face's, at least
MATCH = 1e-6  # how near a turned sticker's centre must come to a sticker's (faces are at 1)


def build(text: str, name: str | None = None) -> dict:
    """The native definition (a dict, format puzzlehub/1) of a named puzzle or a description."""
    description = parse(text)
    solid = solid_of(description.shape)
    lines = turns.lines(solid, description)
    turns.check_cut(solid, lines, description)
    faces = [solid.vertices[list(f)] for f in solid.faces]
    pieces = cut_faces(faces, lines, MAX_STICKERS)
    _check_sizes(faces, pieces)
    centres = np.array([_centroid(p) for _, p in pieces])
    cells = _layout(solid, pieces, centres)
    order = sorted(range(len(pieces)), key=lambda i: (cells[i][1], cells[i][0]))
    pieces = [pieces[i] for i in order]
    centres, cells = centres[order], [cells[i] for i in order]

    moves, extenders, geometry_moves = _moves(solid, lines, centres)
    shape = "square" if description.shape == "c" and {f for f, _ in description.cuts} == {"f"} else "circle"
    data = native.definition(
        name=name or description.slug,
        description=_describe(description, len(pieces), len(moves)),
        goal=[solid.colours[f][0] for f, _ in pieces],
        moves=moves,
        colours={symbol: (label, hex_) for symbol, label, hex_ in solid.colours},
        cells=[(x, y) for x, y in cells],
        shape=shape,
        geometry={"stickers": [_polygon(p) for _, p in pieces], "moves": geometry_moves},
    )
    data["extenders"] = extenders
    return data


def _describe(description: Description, stickers: int, moves: int) -> str:
    named = f"the {description.name}, " if description.name else ""
    return (f"Built from the shape '{description.text}' ({named}{stickers} stickers, {moves} slab turns "
            "with their inverses and powers).")


def _layout(solid, pieces, centres) -> list[tuple[float, float]]:
    by_face: dict[int, list[int]] = {}
    for i, (f, _) in enumerate(pieces):
        by_face.setdefault(f, []).append(i)
    flat = net.unfold(solid, {f: centres[idx] for f, idx in by_face.items()})
    points = np.zeros((len(pieces), 2))
    for f, idx in by_face.items():
        points[idx] = flat[f]
    nearest = _nearest(points)
    points = points * (CELL_GAP / nearest)
    points -= points.min(axis=0)
    return [(round(float(x), 3), round(float(y), 3)) for x, y in points]


def _area(poly: np.ndarray) -> float:
    return float(np.linalg.norm(np.cross(poly[1:-1] - poly[0], poly[2:] - poly[0]), axis=1).sum() / 2)


def _check_sizes(faces, pieces) -> None:
    """Refuse cuts so close that a sticker could not be drawn (nor told apart after rounding)."""
    face = _area(faces[0])
    smallest = min(_area(p) for _, p in pieces)
    if math.sqrt(smallest / face) < SMALLEST:
        raise DefinitionError(f"shape: the cuts leave a sticker under {SMALLEST:g} of its face's size; "
                              "move the planes apart")


def _centroid(poly: np.ndarray) -> np.ndarray:
    """The polygon's centre of area: unlike the mean of its corners it does not depend on where
    the cutting left a corner on a straight side, so a sticker and its turned image agree."""
    a, b, c = poly[0], poly[1:-1], poly[2:]
    weights = np.linalg.norm(np.cross(b - a, c - a), axis=1)
    return ((a + b + c) / 3 * weights[:, None]).sum(axis=0) / weights.sum()


def _nearest(points: np.ndarray) -> float:
    """The smallest distance between two of the 2D points. Some two of n points in a box of area A
    lie within sqrt(2 A / (n - 1)) of each other (two share one of n - 1 cells), so with cells that
    wide, the nearest pair sits in one cell or in two neighbouring ones."""
    span = np.maximum(points.max(axis=0) - points.min(axis=0), 1e-9)
    size = math.sqrt(2 * span[0] * span[1] / max(len(points) - 1, 1)) + 1e-9
    grid: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(points):
        grid.setdefault((int(x // size), int(y // size)), []).append(i)
    best = np.inf
    for (gx, gy), members in grid.items():
        near = [j for dx in (-1, 0, 1) for dy in (-1, 0, 1) for j in grid.get((gx + dx, gy + dy), ())]
        d = np.linalg.norm(points[members][:, None, :] - points[near][None, :, :], axis=2)
        d[d < 1e-12] = np.inf
        best = min(best, float(d.min()))
    return best


def _polygon(poly: np.ndarray) -> list[list[float]]:
    middle = poly.mean(axis=0)
    return [[round(float(c), 4) + 0.0 for c in middle + SHRINK * (p - middle)] for p in poly]


def _turn(centres: np.ndarray, inside: np.ndarray, matrix) -> tuple | None:
    """The permutation that turns the stickers `inside` by `matrix`, or None when some turned
    sticker lands on no sticker of the slab (a jumbling turn). Matched by distance, not by rounded
    coordinates (catalog.geometry.Body): cut points such as 0.0729525 sit on a rounding boundary."""
    idx = np.flatnonzero(inside)
    points = centres[idx]
    turned = points @ np.asarray(matrix).T
    p = list(range(len(centres)))
    targets = set()
    for k in range(0, len(idx), 256):
        d = np.linalg.norm(turned[k:k + 256, None, :] - points[None, :, :], axis=2)
        nearest = d.argmin(axis=1)
        if np.any(d[np.arange(len(nearest)), nearest] > MATCH):
            return None
        for a, b in zip(idx[k:k + 256], idx[nearest]):
            p[a] = int(b)
            targets.add(int(b))
    return tuple(p) if len(targets) == len(idx) else None


def _moves(solid, lines, centres):
    heights = [np.searchsorted(line.heights, centres @ line.direction) for line in lines]
    moves, extenders, geometry_moves = [], [], {}
    for slab in turns.slabs(lines):
        line = lines[slab.line]
        axis = line.ends[slab.end][1]
        k = turns.symmetry_order(solid, line.direction)
        inside = heights[slab.line] == slab.index
        p = _turn(centres, inside, rotation(tuple(float(c) for c in axis), -360 / k))
        if p is None:
            continue  # a jumbling turn: its slab does not land on itself
        name = slab.name
        moves.append(native.move(name, p))
        direction = [round(float(c), 6) + 0.0 for c in axis]
        powers = [(name, 1)]
        if k > 2:
            extenders.append({"name": name + "'", "function": "REVERSE", "params": [name]})
            powers.append((name + "'", -1))
        if k > 3:
            extenders.append({"name": name + "2", "function": "REPEAT", "params": [name, 2]})
            powers.append((name + "2", 2))
        if k > 4:
            extenders.append({"name": name + "2'", "function": "REVERSE", "params": [name + "2"]})
            powers.append((name + "2'", -2))
        for move_name, times in powers:
            geometry_moves[move_name] = {"axis": list(direction), "angle": round(-360 / k * times, 6)}
    return moves, extenders, geometry_moves
