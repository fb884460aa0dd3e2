"""The NxNxN cubes (`cube2`, `cube3`, ...): the box model with every face square."""

from __future__ import annotations

from solver.catalog import box

SIZES = range(2, 21)


def build(n: int, name: str) -> dict:
    return box.definition(n, n, n, name, describe(n))


def describe(n: int) -> str:
    if n == 2:
        turns = "face turns U D L R F B with ' and 2; every whole-cube rotation of the goal is solved"
    elif n == 3:
        turns = "face turns U D L R F B with ' and 2; the centres fix the orientation"
    else:
        turns = "face turns and wide turns (SiGN: Rw, 3Rw, ...) with ' and 2"
        turns += "; every whole-cube rotation of the goal is solved" if n % 2 == 0 else "; the centres fix the orientation"
    return f"The {n}x{n}x{n} cube, {6 * n * n} stickers numbered as a net: {turns}."
