"""Cuboids `cuboid-AxBxC`: A layers deep (front to back), B wide, C high, so that the last number is
the height as in "2x2x3 tower" and "3x3x2 domino", and `floppy` = `cuboid-1x3x3` stands facing you
with the four sides R U L D to turn. A face that is not square turns 180 degrees only; that turn is
named by the face alone (R), as it is the face's only move."""

from __future__ import annotations

from solver.catalog import box
from solver.errors import DefinitionError

SIZES = range(1, 11)
ALIASES = {"floppy": (1, 3, 3), "domino": (3, 3, 2)}


def check(depth: int, width: int, height: int) -> None:
    if max(depth, width, height) < 2:
        raise DefinitionError(f"catalog cuboid-{depth}x{width}x{height}: no layer of the box can turn")


def build(depth: int, width: int, height: int, name: str) -> dict:
    return box.definition(width, depth, height, name, describe(depth, width, height))


def describe(depth: int, width: int, height: int) -> str:
    stickers = 2 * (depth * width + width * height + depth * height)
    alias = next((a for a, dims in ALIASES.items() if dims == (depth, width, height)), None)
    return (
        (f"{alias.capitalize()}: the " if alias else "The ")
        + f"{depth}x{width}x{height} cuboid ({depth} deep, {width} wide, {height} high), {stickers} stickers"
        " numbered as a net: layer turns in SiGN names; a face that is not square turns 180 degrees only"
        " (named R, not R2)."
    )
