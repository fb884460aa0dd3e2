"""A drawing for a definition written without one: when it is a catalog puzzle written with another
sticker numbering, other names or an equivalent move set (solver.analysis.isomorphism), the catalog
puzzle's layout and 3D geometry are carried over through the sticker map, and each user move that
is one catalog move takes that move's axis and angle.

The match takes seconds on big puzzles, so the site runs this in a worker and stores the result
(`presentation`, plain JSON) with the revision's facts; `apply` puts it back on the definition.
"""

from __future__ import annotations

import dataclasses
import time
from functools import lru_cache

from solver import catalog
from solver.analysis.isomorphism import match
from solver.catalog import cubes, shapes
from solver.definition import geometry as geometry_block
from solver.definition.formats import load_data
from solver.definition.model import Definition, Layout

TIME_LIMIT = 20.0  # seconds for all candidates together


@lru_cache(maxsize=1)
def _drawn_catalog() -> dict[int, list[str]]:
    """Sticker count -> the catalog's puzzles of that size that have a layout (built once: 0.1-0.5 s).
    The named shapes are left out: cutting all 25 takes 3-7 s, and a site request (`borrowable`)
    asks this."""
    sizes: dict[int, list[str]] = {}
    for name in catalog.names():
        if name in shapes.BY_CATALOG_NAME:
            continue
        raw = catalog.build(name)
        if raw.get("layout"):
            sizes.setdefault(raw["stickers"], []).append(name)
    return sizes


def candidates(defn: Definition) -> list[str]:
    """Catalog puzzles a definition could be drawn as: the same sticker count and a layout (the
    catalog's representatives, and NxNxN cubes of every size)."""
    names = list(_drawn_catalog().get(defn.stickers, []))
    names += [f"cube{k}" for k in cubes.SIZES if 6 * k * k == defn.stickers and f"cube{k}" not in names]
    return names


def presentation(defn: Definition, time_limit: float = TIME_LIMIT) -> dict | None:
    """{"catalog", "cells", "geometry"} for a definition without a layout, in its own numbering and
    move names; None when it has a layout or matches no catalog puzzle in time."""
    if defn.layout is not None:
        return None
    deadline = time.monotonic() + time_limit
    for name in candidates(defn):
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        reference = load_data(catalog.build(name))
        found = match(defn, reference, time_limit=left)
        if found is None:
            continue
        cells = [reference.layout.cells[found.sticker[i]] for i in range(defn.stickers)]
        shape = None
        if reference.geometry is not None:
            polygons = [reference.geometry.stickers[found.sticker[i]] for i in range(defn.stickers)]
            # a user move that is exactly one catalog move turns about that move's axis
            single = {seq[0]: ref for ref, seq in found.moves.items() if len(seq) == 1}
            turns = {ref: (axis, angle) for ref, axis, angle in reference.geometry.moves}
            moves = tuple((user, *turns[ref]) for user, ref in single.items() if ref in turns)
            shape = geometry_block.data(geometry_block.Geometry(tuple(polygons), moves))
        return {"catalog": name, "shape": reference.layout.shape,
                "cells": [None if c is None else list(c) for c in cells], "geometry": shape}
    return None


def apply(defn: Definition, borrowed: dict | None) -> Definition:
    """The definition drawn with a presentation from `presentation` (unchanged when there is none
    or it has its own layout)."""
    if not borrowed or defn.layout is not None:
        return defn
    layout = Layout(borrowed["shape"], tuple(None if c is None else tuple(c) for c in borrowed["cells"]))
    shape = None
    if borrowed.get("geometry"):
        shape = geometry_block.parse(borrowed["geometry"], defn.stickers, defn.move_names)
    return dataclasses.replace(defn, layout=layout, geometry=shape)
