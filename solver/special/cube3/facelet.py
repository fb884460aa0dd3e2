"""Sticker states of the catalog's 3x3x3 <-> cubies.

Each corner position lists its three stickers starting with the U or D one, then clockwise as seen
from outside; its twist is the place in that list where the corner's U/D colour sits. Each edge
position lists its reference sticker first (U or D for U/D-layer edges, F or B for the middle layer);
its flip is 1 when the edge's reference colour is on the other sticker. The sticker numbers come from
the geometry of the net (geometry.py), not from a hand-written table.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from solver.errors import StateError
from solver.special.cube3 import geometry
from solver.special.cube3.cubie import CORNER_NAMES, EDGE_NAMES, CubieCube

CORNER_PLACES = ((-1, 1, -1), (1, 1, -1), (1, 1, 1), (-1, 1, 1),
                 (-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1))
EDGE_PLACES = ((-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1),
               (0, 1, -1), (1, 1, 0), (0, 1, 1), (-1, 1, 0),
               (0, -1, -1), (1, -1, 0), (0, -1, 1), (-1, -1, 0))

# Colours of the solved cube in the catalog: U white, L orange, F green, R red, B blue, D yellow.
CATALOG_COLOURS = {"U": "W", "L": "O", "F": "G", "R": "R", "B": "B", "D": "Y"}


def _sticker(place, normal) -> int:
    return geometry.sticker_at(tuple(2 * p + n for p, n in zip(place, normal)))


def _corner_stickers(place) -> tuple[int, int, int]:
    x, y, z = place
    first = (0, y, 0)
    a, b = (x, 0, 0), (0, 0, z)
    # Clockwise seen from outside: (first x second) points away from the viewer.
    if np.dot(np.cross(first, a), place) > 0:
        a, b = b, a
    return tuple(_sticker(place, n) for n in (first, a, b))


def _edge_stickers(place) -> tuple[int, int]:
    x, y, z = place
    if y:
        return _sticker(place, (0, y, 0)), _sticker(place, (x, 0, z))
    return _sticker(place, (0, 0, z)), _sticker(place, (x, 0, 0))


CORNER_STICKERS = tuple(_corner_stickers(p) for p in CORNER_PLACES)
EDGE_STICKERS = tuple(_edge_stickers(p) for p in EDGE_PLACES)
CENTRES = {face: geometry.centre(face) for face in geometry.FACES}


def to_cubies(state: Sequence) -> CubieCube:
    """The cubies of a sticker state (a 54-letter string or 54 colours), faces recognised by their
    centre colours. Raises StateError for malformed or impossible colourings; the result may still
    be unreachable (see CubieCube.check)."""
    if len(state) != geometry.STICKERS:
        raise StateError(f"state: a 3x3x3 has {geometry.STICKERS} stickers, got {len(state)}")
    colour_face = {}
    for face, index in CENTRES.items():
        if state[index] in colour_face:
            raise StateError(f"state: the centres of {colour_face[state[index]]} and {face} have the same colour "
                             f"{state[index]!r}")
        colour_face[state[index]] = face
    for index, colour in enumerate(state):
        if colour not in colour_face:
            raise StateError(f"state: colour {colour!r} at sticker {index} is on no centre")
    for colour in colour_face:
        count = sum(1 for c in state if c == colour)
        if count != 9:
            raise StateError(f"state: colour {colour!r} appears {count} times, not 9")
    faces = [colour_face[c] for c in state]

    def home_faces(stickers):
        return tuple(geometry.face_of(s) for s in stickers)

    corner_home = {home_faces(s): j for j, s in enumerate(CORNER_STICKERS)}
    edge_home = {home_faces(s): j for j, s in enumerate(EDGE_STICKERS)}
    cp, co, ep, eo = [], [], [], []
    for i, stickers in enumerate(CORNER_STICKERS):
        seen = [faces[s] for s in stickers]
        twists = [k for k, f in enumerate(seen) if f in "UD"]
        piece = corner_home.get(tuple(seen[(twists[0] + k) % 3] for k in range(3))) if len(twists) == 1 else None
        if piece is None:
            raise StateError(f"state: the corner at {CORNER_NAMES[i]} (stickers {list(stickers)}) has colours "
                             f"{[state[s] for s in stickers]}, which no corner has")
        cp.append(piece)
        co.append(twists[0])
    for i, stickers in enumerate(EDGE_STICKERS):
        seen = tuple(faces[s] for s in stickers)
        for flip in (0, 1):
            piece = edge_home.get(seen[flip:] + seen[:flip])
            if piece is not None:
                break
        else:
            raise StateError(f"state: the edge at {EDGE_NAMES[i]} (stickers {list(stickers)}) has colours "
                             f"{[state[s] for s in stickers]}, which no edge has")
        ep.append(piece)
        eo.append(flip)
    for name, perm, names in (("corner", cp, CORNER_NAMES), ("edge", ep, EDGE_NAMES)):
        missing = sorted(set(range(len(perm))) - set(perm))
        if missing:
            raise StateError(f"state: the {name} {names[missing[0]]} is missing (another {name} appears twice)")
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def to_stickers(cube: CubieCube, colours: dict[str, str] = CATALOG_COLOURS) -> str:
    """The sticker state of a cube, coloured face -> colour (the catalog's colours by default)."""
    state = [colours[geometry.face_of(i)] for i in range(geometry.STICKERS)]
    for i, stickers in enumerate(CORNER_STICKERS):
        home = CORNER_STICKERS[cube.cp[i]]
        for k in range(3):
            state[stickers[(cube.co[i] + k) % 3]] = colours[geometry.face_of(home[k])]
    for i, stickers in enumerate(EDGE_STICKERS):
        home = EDGE_STICKERS[cube.ep[i]]
        for k in range(2):
            state[stickers[(cube.eo[i] + k) % 2]] = colours[geometry.face_of(home[k])]
    return "".join(state)
