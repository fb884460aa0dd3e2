"""The Little Chop: an edge-turning cube cut through its centre, so that every turn is a half turn
of half the puzzle and nothing jumbles (the Helicopter Cube's cuts moved in to the centre). Each
face is cut along its diagonals into 4 triangles: 24 one-coloured pieces. Moves are named by their
edge (UF, UR, ... DL) and turn the half of the cube on its side by 180 degrees.

Its stickers are the Dino Cube's: the edge stickers of the 3x3x3 net, each drawn as its triangle.
"""

from __future__ import annotations

from solver.catalog import box, dino, native
from solver.catalog.geometry import Body

EDGES = ("UF", "UR", "UB", "UL", "FR", "FL", "BR", "BL", "DF", "DR", "DB", "DL")


def axis(edge: str) -> tuple[int, int, int]:
    return tuple(box.FACES[edge[0]][0][k] + box.FACES[edge[1]][0][k] for k in range(3))


def build(name: str = "little-chop") -> dict:
    sts = dino.stickers()
    body = Body([s.point for s in sts])
    moves = [native.move(edge, body.layer_turn(axis(edge), 180, 0)) for edge in EDGES]
    return native.definition(
        name=name, description=describe(), goal=[box.FACES[s.face][1] for s in sts], moves=moves,
        colours=box.colours(), cells=[s.cell for s in sts],
        geometry={"stickers": [dino.triangle(s) for s in sts],
                  "moves": {edge: {"axis": list(axis(edge)), "angle": 180} for edge in EDGES}},
    )


def describe() -> str:
    return ("The Little Chop, 24 stickers (a cube's faces cut along their diagonals): half turns of the "
            "half of the cube around each of the 12 edges (UF, UR, ... DL).")
