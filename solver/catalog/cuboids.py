"""Cuboids `cuboid-AxBxC` (A wide, B deep, C high): the box model; a face that is not square turns
180 degrees only. `floppy` is the 1x3x3 and `domino` the 3x3x2."""

from __future__ import annotations

from solver.catalog import box
from solver.errors import DefinitionError

SIZES = range(1, 11)
ALIASES = {"floppy": (1, 3, 3), "domino": (3, 3, 2)}


def check(a: int, b: int, c: int) -> None:
    if max(a, b, c) < 2:
        raise DefinitionError(f"catalog cuboid-{a}x{b}x{c}: no layer of the box can turn")


def build(a: int, b: int, c: int, name: str) -> dict:
    return box.definition(a, b, c, name, describe(a, b, c))


def describe(a: int, b: int, c: int) -> str:
    return (
        f"The {a}x{b}x{c} cuboid ({a} wide, {b} deep, {c} high), {2 * (a * b + b * c + a * c)} stickers"
        " numbered as a net: layer turns in SiGN names; faces that are not square turn 180 degrees only."
    )
