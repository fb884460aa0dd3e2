"""Shape descriptions in the language of the PuzzleGeometry generator (cubing.js): a solid and the
planes that cut it, and the named puzzles written that way.

    c f 0.333333333333333          the cube, cut by planes parallel to every face at 1/3
    t v 0.333333333333333 v 1.66666666666667    the tetrahedron cut twice across each vertex

The first word is the solid (t c o d i: tetrahedron, cube, octahedron, dodecahedron, icosahedron),
then any number of cuts: a family (f v e: planes perpendicular to the direction of every face,
vertex or edge midpoint) and its distance from the centre, where the faces lie at distance 1. A
negative distance puts the planes on the far side of the centre. The named puzzles are the list
cubing.js publishes in src/cubing/puzzle-geometry/PGPuzzles.ts (lower case; the cubes above
10x10x10 and the emperor pyraminx and tetraminx left out, as larger than a named shape needs). The Rex Cube is not among them: its cuts are spheres, which no planes
reproduce (planes deep enough to give its petals also cut the neighbouring corners); the catalog's
`rex` is built from its own geometry.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from solver.errors import DefinitionError
from solver.geometry.solids import KINDS, SHAPES

MAX_TEXT = 2_000
MAX_CUTS = 100
MAX_DISTANCE = 10.0  # in face distances; the farthest vertex of any solid is at 3 (the tetrahedron's)

NAMED = {
    "2x2x2": "c f 0",
    "3x3x3": "c f 0.333333333333333",
    "4x4x4": "c f 0.5 f 0",
    "5x5x5": "c f 0.6 f 0.2",
    "6x6x6": "c f 0.666666666666667 f 0.333333333333333 f 0",
    "7x7x7": "c f 0.714285714285714 f 0.428571428571429 f 0.142857142857143",
    "8x8x8": "c f 0.75 f 0.5 f 0.25 f 0",
    "9x9x9": "c f 0.777777777777778 f 0.555555555555556 f 0.333333333333333 f 0.111111111111111",
    "10x10x10": "c f 0.8 f 0.6 f 0.4 f 0.2 f 0",
    "skewb": "c v 0",
    "master skewb": "c v 0.275",
    "professor skewb": "c v 0 v 0.38",
    "compy cube": "c v 0.915641442663986",
    "helicopter": "c e 0.707106781186547",
    "curvy copter": "c e 0.83",
    "dino": "c v 0.577350269189626",
    "little chop": "c e 0",
    "pyramorphix": "t e 0",
    "mastermorphix": "t e 0.346184634065199",
    "pyraminx": "t v 0.333333333333333 v 1.66666666666667",
    "tetraminx": "t v 0.333333333333333",
    "master pyraminx": "t v 0 v 1 v 2",
    "master tetraminx": "t v 0 v 1",
    "professor pyraminx": "t v -0.2 v 0.6 v 1.4 v 2.2",
    "professor tetraminx": "t v -0.2 v 0.6 v 1.4",
    "royal pyraminx": "t v -0.333333333333333 v 0.333333333333333 v 1 v 1.66666666666667 v 2.33333333333333",
    "jing pyraminx": "t f 0",
    "master pyramorphix": "t e 0.866025403784437",
    "megaminx": "d f 0.7",
    "gigaminx": "d f 0.64 f 0.82",
    "teraminx": "d f 0.64 f 0.76 f 0.88",
    "pentultimate": "d f 0",
    "master pentultimate": "d f 0.1",
    "elite pentultimate": "d f 0 f 0.145905",
    "starminx": "d v 0.937962370425399",
    "starminx 2": "d f 0.23606797749979",
    "pyraminx crystal": "d f 0.447213595499989",
    "chopasaurus": "d v 0",
    "big chop": "d e 0",
    "skewb diamond": "o f 0",
    "fto": "o f 0.333333333333333",
    "master fto": "o f 0.5 f 0",
    "christopher's jewel": "o v 0.577350269189626",
    "octastar": "o e 0",
    "trajber's octahedron": "o v 0.433012701892219",
    "radio chop": "i f 0",
    "icosamate": "i v 0",
    "regular astrominx": "i v 0.18759247376021",
    "redicosahedron": "i v 0.794654472291766",
    "redicosahedron with centers": "i v 0.84",
    "icosaminx": "i v 0.73",
    "eitan's star": "i f 0.61803398874989",
    "2x2x2 + dino": "c f 0 v 0.577350269189626",
    "2x2x2 + little chop": "c f 0 e 0",
    "dino + little chop": "c v 0.577350269189626 e 0",
    "megaminx + chopasaurus": "d f 0.61803398875 v 0",
    "starminx combo": "d f 0.23606797749979 v 0.937962370425399",
}

# Puzzles people look for here that are not shapes of planes, and where they are
NOT_SHAPES = {
    "rex": "the Rex Cube's cuts are spheres, which no planes reproduce; the catalog's rex has it",
}

NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass(frozen=True)
class Description:
    shape: str  # t c o d i
    cuts: tuple[tuple[str, float], ...]  # (family f v e, distance)
    text: str  # as written, whitespace normalised
    name: str | None = None  # the named puzzle it came from

    @property
    def slug(self) -> str:
        """A definition name: the puzzle's name without apostrophes, anything else but letters,
        digits, . and _ as - (`christophers-jewel`; the catalog lists named shapes so)."""
        return re.sub(r"[^A-Za-z0-9_.]+", "-", (self.name or "shape").replace("'", "")).strip("-") or "shape"


def _key(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def named(name: str) -> str | None:
    """The description text of a named puzzle (any case; - or _ for spaces), or None."""
    return NAMED.get(_key(name)) if isinstance(name, str) else None


def parse(text: str) -> Description:
    """A named puzzle or a description text, checked: a known solid, families f v e, distances that
    are numbers within reach, at least one cut."""
    if not isinstance(text, str):
        raise DefinitionError("shape: expected text such as 'c f 0.333333333333333' or a puzzle name")
    if len(text) > MAX_TEXT:
        raise DefinitionError(f"shape: {len(text):,} characters, the limit is {MAX_TEXT:,}")
    name = None
    if named(text) is not None:
        name, text = _key(text), named(text)
    words = text.split()
    if not words:
        raise DefinitionError("shape: empty; write a solid (t c o d i) and cuts, e.g. 'c f 0.333333333333333'")
    shape = words[0].lower()
    if _key(text) in NOT_SHAPES:
        raise DefinitionError(f"shape: {text.strip()[:40]} is not a shape: {NOT_SHAPES[_key(text)]}")
    if shape not in SHAPES:
        known = ", ".join(sorted(NAMED)[:8])
        raise DefinitionError(f"shape: {words[0][:40]!r} is neither a solid (t c o d i) nor a named puzzle ({known}, ...)")
    rest = words[1:]
    if not rest:
        raise DefinitionError(f"shape: no cuts; the {SHAPES[shape]} needs at least one, e.g. '{shape} f 0'")
    if len(rest) % 2:
        raise DefinitionError(f"shape: cut {rest[-1][:20]!r} has no distance; cuts are a family (f v e) and a distance")
    if len(rest) // 2 > MAX_CUTS:
        raise DefinitionError(f"shape: {len(rest) // 2} cuts, the limit is {MAX_CUTS}")
    cuts = []
    for family, distance in zip(rest[::2], rest[1::2]):
        family = family.lower()
        if family not in KINDS:
            raise DefinitionError(f"shape: cut family {family[:20]!r} must be f, v or e (face, vertex, edge)")
        if not NUMBER.fullmatch(distance) or not math.isfinite(float(distance)):
            raise DefinitionError(f"shape: cut {family} {distance[:20]!r}: the distance must be a number")
        value = float(distance)
        if abs(value) > MAX_DISTANCE:
            raise DefinitionError(f"shape: cut {family} {distance[:20]}: absurd distance, the faces are at 1 "
                                  f"and every solid lies within {MAX_DISTANCE:g}")
        cuts.append((family, value))
    text = " ".join([shape, *(f"{f.lower()} {d}" for f, d in zip(rest[::2], rest[1::2]))])
    return Description(shape, tuple(cuts), text, name)
