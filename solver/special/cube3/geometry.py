"""Where the 54 stickers of the catalog's 3x3x3 sit in space, and the face turns and whole-cube
symmetries as sticker permutations derived from that placement.

The sticker numbering is the net of the seed articles: U face 0-8 row by row from the back; three
rows of 12 across L, F, R, B (9-20, 21-32, 33-44), each face seen from outside with its top up;
D 45-53 row by row from the front. Space axes: x points to R, y to U, z to F. A sticker's point is
2 * (position of its cubie) + (outward normal of its face), so every sticker has a distinct integer
point and every rotation or reflection of the cube maps points to points.
"""

from __future__ import annotations

import itertools

import numpy as np

from solver.perm import Perm

FACES = "URFDLB"
NORMALS = {
    "U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1),
    "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1),
}
STICKERS = 54

# Cubie position (x, y, z) of the sticker at row r, column c of each face as drawn in the net.
_FACE_GRID = {
    "U": lambda r, c: (c - 1, 1, r - 1),
    "L": lambda r, c: (-1, 1 - r, c - 1),
    "F": lambda r, c: (c - 1, 1 - r, 1),
    "R": lambda r, c: (1, 1 - r, 1 - c),
    "B": lambda r, c: (1 - c, 1 - r, -1),
    "D": lambda r, c: (c - 1, -1, 1 - r),
}


def _net_place(index: int) -> tuple[str, int, int]:
    """Face, row and column of a sticker number in the net."""
    if index < 9:
        return "U", index // 3, index % 3
    if index < 45:
        row, col = divmod(index - 9, 12)
        return "LFRB"[col // 3], row, col % 3
    return "D", (index - 45) // 3, (index - 45) % 3


def _sticker_point(index: int) -> tuple[int, int, int]:
    face, r, c = _net_place(index)
    cubie = _FACE_GRID[face](r, c)
    return tuple(2 * a + n for a, n in zip(cubie, NORMALS[face]))


POINTS: tuple[tuple[int, int, int], ...] = tuple(_sticker_point(i) for i in range(STICKERS))
_INDEX_OF_POINT = {p: i for i, p in enumerate(POINTS)}


def sticker_at(point) -> int:
    """The sticker number at a point (raises KeyError when no sticker is there)."""
    return _INDEX_OF_POINT[tuple(int(v) for v in point)]


def face_of(index: int) -> str:
    return _net_place(index)[0]


def centre(face: str) -> int:
    return sticker_at(tuple(3 * n for n in NORMALS[face]))


def _matrix_perm(matrix: np.ndarray, layer: tuple[int, int, int] | None = None) -> Perm:
    """Sticker permutation of a linear map of space, restricted to the stickers whose point lies in
    the given layer (dot product with the layer's normal at least 2) when a layer is given."""
    perm = list(range(STICKERS))
    for i, p in enumerate(POINTS):
        if layer is not None and np.dot(p, layer) < 2:
            continue
        perm[i] = sticker_at(matrix @ np.array(p))
    return tuple(perm)


def _quarter_turn_matrix(axis: tuple[int, int, int]) -> np.ndarray:
    """Rotation by 90 degrees clockwise as seen from the tip of `axis` (i.e. -90 degrees about it):
    v -> (n.v) n - n x v."""
    n = np.array(axis)
    columns = [np.dot(n, e) * n - np.cross(n, e) for e in np.eye(3, dtype=int)]
    return np.array(columns).T


def face_turn(face: str) -> Perm:
    """The clockwise quarter turn of one face (as seen looking at that face)."""
    axis = NORMALS[face]
    return _matrix_perm(_quarter_turn_matrix(axis), layer=axis)


def _signed_permutation_matrices() -> list[np.ndarray]:
    """All 48 rotations and reflections that map the cube onto itself."""
    result = []
    for order in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=int)
            for row, (col, sign) in enumerate(zip(order, signs)):
                m[row, col] = sign
            result.append(m)
    return result


def ud_symmetries() -> list[tuple[Perm, bool]]:
    """The 16 symmetries of the cube that keep the U-D axis (rotations about it, half turns that
    swap U and D, and their mirror images), identity first: (sticker permutation, is_reflection)."""
    found = []
    for m in _signed_permutation_matrices():
        if abs(m[1, 1]) == 1:
            found.append((_matrix_perm(m), round(np.linalg.det(m)) < 0))
    found.sort(key=lambda entry: entry[0] != tuple(range(STICKERS)))
    return found


def diagonal_rotation() -> Perm:
    """Whole-cube rotation by 120 degrees about the URF-DLB diagonal, taking R to U, U to F and F to R:
    conjugating by it puts another face axis where the U-D axis was."""
    m = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    return _matrix_perm(m)
