"""The 18 face turns of the half-turn metric, numbered 3 * face + (0 quarter, 1 half, 2 inverse) with
faces in the order U R F D L B, and named in SiGN (U, U2, U'). Each move is a sticker permutation
(from geometry) and a cubie state (the state the move reaches from solved)."""

from __future__ import annotations

from solver import perm
from solver.errors import NotationError
from solver.special.cube3 import facelet, geometry
from solver.special.cube3.cubie import CubieCube

N_MOVES = 18
MOVE_NAMES = tuple(face + suffix for face in geometry.FACES for suffix in ("", "2", "'"))
_MOVE_OF_NAME = {name: m for m, name in enumerate(MOVE_NAMES)}

MOVE_PERMS: tuple[perm.Perm, ...] = tuple(
    perm.power(geometry.face_turn(face), power) for face in geometry.FACES for power in (1, 2, 3))
SOLVED_STICKERS = facelet.to_stickers(CubieCube.solved())
MOVE_CUBIES: tuple[CubieCube, ...] = tuple(
    facelet.to_cubies(perm.apply(p, SOLVED_STICKERS)) for p in MOVE_PERMS)

# Phase 2 of the two-phase algorithm keeps to the subgroup <U, D, R2, L2, F2, B2>.
PHASE2_MOVES = tuple(m for m, name in enumerate(MOVE_NAMES) if name[0] in "UD" or name[1:] == "2")


def face(m: int) -> int:
    return m // 3


def inverse(m: int) -> int:
    return 3 * (m // 3) + 2 - m % 3


def parse(text: str) -> list[int]:
    """Move numbers of a space-separated SiGN sequence."""
    result = []
    for token in text.split():
        if token not in _MOVE_OF_NAME:
            raise NotationError(f"moves: unknown 3x3x3 move {token!r} (expected one of {' '.join(MOVE_NAMES)})")
        result.append(_MOVE_OF_NAME[token])
    return result


def names(moves) -> list[str]:
    return [MOVE_NAMES[m] for m in moves]


def apply(cube: CubieCube, moves) -> CubieCube:
    for m in moves:
        cube = cube * MOVE_CUBIES[m]
    return cube


def sticker_permutation(moves) -> perm.Perm:
    """The sticker permutation of a move sequence (first move first)."""
    return perm.compose(perm.identity(geometry.STICKERS), *(MOVE_PERMS[m] for m in moves))


def conjugate(m: int, symmetry: perm.Perm) -> int:
    """The move that `m` becomes seen through a whole-cube symmetry: s^-1 m s as sticker permutations."""
    image = perm.compose(perm.inverse(symmetry), MOVE_PERMS[m], symmetry)
    return MOVE_PERMS.index(image)
