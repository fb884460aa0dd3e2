"""The built-in catalog: generated, reproducible puzzle definitions as native-format dicts.

`names()` lists representative puzzles; `build(name)` accepts any name a family can generate
(`cube9`, `cuboid-2x3x4`, `loopover-7x12`, ...); `describe(name)` gives one line about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from solver.catalog import (
    ball_ring, cubes, cuboids, dino, flipit, globe, little_chop, loopover, megaminx, octahedra, pyraminx, rex, shapes,
    skewb, sliding, wreath,
)
from solver.errors import DefinitionError


@dataclass(frozen=True)
class Family:
    pattern: str  # a regular expression whose groups are the whole-number parameters
    form: str  # how the name is written, for error messages
    sizes: tuple[range, ...]  # allowed range of each parameter
    build: Callable[..., dict]  # (*parameters, name) -> definition
    describe: Callable[..., str]  # (*parameters) -> one line
    examples: tuple[str, ...]
    check: Callable[..., None] = lambda *params: None  # raises DefinitionError for a size that cannot be built


N = r"([1-9]\d{0,3})"  # a size parameter: a whole number without leading zeros

FAMILIES = (
    Family(rf"cube{N}", "cubeN", (cubes.SIZES,), cubes.build, cubes.describe,
           tuple(f"cube{n}" for n in range(2, 8))),
    Family(rf"cuboid-{N}x{N}x{N}", "cuboid-AxBxC", (cuboids.SIZES,) * 3, cuboids.build, cuboids.describe,
           ("floppy", "domino", "cuboid-2x2x3", "cuboid-2x2x4", "cuboid-2x3x3", "cuboid-3x3x4", "cuboid-3x3x5"), cuboids.check),
    Family("pyraminx", "pyraminx", (), pyraminx.build, pyraminx.describe, ("pyraminx",)),
    Family("skewb", "skewb", (), skewb.build, skewb.describe, ("skewb",)),
    Family("dino", "dino", (), dino.build, dino.describe, ("dino",)),
    Family("rex", "rex", (), rex.build, rex.describe, ("rex",)),
    Family("little-chop", "little-chop", (), little_chop.build, little_chop.describe, ("little-chop",)),
    Family("skewb-diamond", "skewb-diamond", (), octahedra.build_diamond, octahedra.describe_diamond,
           ("skewb-diamond",)),
    Family("fto", "fto", (), octahedra.build_fto, octahedra.describe_fto, ("fto",)),
    Family("megaminx", "megaminx", (), megaminx.build, megaminx.describe, ("megaminx",)),
    Family("ball-ring", "ball-ring", (), ball_ring.build, ball_ring.describe, ("ball-ring",)),
    Family(rf"loopover-{N}x{N}", "loopover-RxC", (loopover.SIZES,) * 2, loopover.build, loopover.describe,
           ("loopover-2x2", "loopover-3x3", "loopover-4x4", "loopover-5x5", "loopover-3x4", "loopover-6x6")),
    Family(rf"sliding-{N}x{N}", "sliding-RxC", (sliding.SIZES,) * 2, sliding.build, sliding.describe,
           ("sliding-2x2", "sliding-2x3", "sliding-3x3", "sliding-4x4", "sliding-5x5")),
    Family(rf"wreath-{N}x{N}", "wreath-AxB", (wreath.SIZES,) * 2, wreath.build, wreath.describe,
           ("wreath-6x6", "wreath-7x7", "wreath-12x12", "wreath-21x21", "wreath-33x33", "wreath-100x100")),
    Family(rf"globe-{N}x{N}", "globe-AxB", (globe.BANDS, globe.HALVES), globe.build, globe.describe,
           ("globe-2x4", "globe-3x4", "globe-2x6", "globe-4x8", "globe-33x25")),
    Family(rf"flipit-{N}", "flipit-N", (flipit.SIZES,), flipit.build, flipit.describe,
           tuple(f"flipit-{n}" for n in range(5, 9))),
    # the well-known named shapes, built from their cuts (solver.geometry)
    *(Family(re.escape(name), name, (), lambda name: shapes.build(name), lambda name=name: shapes.describe(name),
             (name,)) for name in shapes.BY_CATALOG_NAME),
)
ALIASES = {alias: "cuboid-{}x{}x{}".format(*dims) for alias, dims in cuboids.ALIASES.items()}


# the names people search for, beyond the catalog's own
NICKNAMES = {
    "cube2": ["pocket-cube"], "cube3": ["rubik", "rubiks-cube"], "cube4": ["rubiks-revenge"],
    "cube5": ["professors-cube"], "megaminx": ["dodecahedron"], "pyraminx": ["tetrahedron", "tetraminx"],
    "sliding-4x4": ["15-puzzle", "fifteen"], "sliding-3x3": ["8-puzzle"],
}
# shown first among the popular puzzles of a fresh install
FAVOURITES = ("cube3", "cube2", "cube4", "megaminx", "pyraminx", "skewb", "sliding-4x4", "loopover-4x4",
              "cube5", "flipit-6", "floppy", "ball-ring")


def topics(name: str) -> list[str]:
    """Search words for a catalog puzzle: its family, its size (`3x3x3` and `3x3` for cube3) and
    nicknames (`rubik`)."""
    if name in shapes.BY_CATALOG_NAME:
        return shapes.topics(name) + NICKNAMES.get(name, [])
    family = re.match(r"[a-z]+", ALIASES.get(name, name)).group(0)
    words = [family]
    sizes = [int(v) for v in re.findall(r"\d+", ALIASES.get(name, name))]
    if family == "cube" and sizes:
        n = sizes[0]
        words += [f"{n}x{n}x{n}", f"{n}x{n}"]
    elif len(sizes) >= 2:
        words.append("x".join(map(str, sizes)))
    words += [alias for alias, target in ALIASES.items() if target == name]
    return words + NICKNAMES.get(name, [])


# The puzzles most people come for: a fresh install works on these first (their algorithms and
# sets before any other catalog puzzle's), smallest first.
FEATURED = ("floppy", "pyraminx", "skewb", "cube2", "cube3", "megaminx")


def names() -> list[str]:
    """Every catalog name shown in listings, representative sizes of each family included."""
    return [name for family in FAMILIES for name in family.examples]


def _resolve(name: str) -> tuple[Family, tuple[int, ...]]:
    if not isinstance(name, str):
        raise DefinitionError(f"catalog name must be text, got {type(name).__name__}")
    generated = ALIASES.get(name, name)
    for family in FAMILIES:
        match = re.fullmatch(family.pattern, generated)
        if not match:
            continue
        params = tuple(int(g) for g in match.groups())
        for value, allowed in zip(params, family.sizes):
            if value not in allowed:
                raise DefinitionError(
                    f"catalog {name}: {family.form} takes sizes {allowed.start}..{allowed.stop - 1}, got {value}"
                )
        family.check(*params)
        return family, params
    forms = ", ".join(f.form for f in FAMILIES) + ", " + ", ".join(ALIASES)
    raise DefinitionError(f"catalog: unknown puzzle {name[:60]!r}; known: {forms}")


def build(name: str) -> dict:
    """The native definition (format puzzlehub/1) of a catalog puzzle, in its goal state."""
    family, params = _resolve(name)
    return family.build(*params, name)


def describe(name: str) -> str:
    family, params = _resolve(name)
    return family.describe(*params) + shapes.same_as_note(name)
