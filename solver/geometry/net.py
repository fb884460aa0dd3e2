"""The flat net of a solid, for the 2D layout: faces unfolded about shared sides into the plane of a
root face, in pieces laid side by side.

Nets: the cube's cross (F in the middle, U above, D below, L and R beside it, B right of R), the
tetrahedron's triangle (ULR, the Pyraminx's F, with the other three folded out), the octahedron's
star (the four faces around U, each lower face folded out of its upper neighbour), the
dodecahedron's two flowers (U with its ring, D with its ring, as the Megaminx is drawn) and the
icosahedron's three strips (the five faces around U, the ten of the middle band, the five around D).
A point is unfolded with its face; y grows downwards, as layouts have it.
"""

from __future__ import annotations

import math

import numpy as np

from solver.geometry.solids import Solid
from solver.geometry.turns import rotation_matrix

Plan = list[tuple[int, int | None]]  # (face, parent face or None for a root), parents first


def _index(solid: Solid, name: str) -> int:
    return solid.face_names.index(name)


def _shared(solid: Solid, a: int, b: int) -> list[int]:
    return [v for v in solid.faces[a] if v in solid.faces[b]]


def _adjacent(solid: Solid, a: int, b: int) -> bool:
    return len(_shared(solid, a, b)) == 2


def _chain(solid: Solid, faces: list[int]) -> Plan:
    """Faces in order, each folded out of the one before it (they must share sides in turn)."""
    return [(f, faces[k - 1] if k else None) for k, f in enumerate(faces)]


def _around(solid: Solid, vertex: np.ndarray, faces: list[int]) -> list[int]:
    """The faces in `faces` ordered by their direction around `vertex`, consecutive ones adjacent."""
    axis = vertex / np.linalg.norm(vertex)
    first = np.cross(axis, [0.3, 0.1, 0.9]) if abs(axis[1]) > 0.9 else np.cross([0, 1, 0], axis)
    second = np.cross(axis, first)
    return sorted(faces, key=lambda f: math.atan2(solid.face_normal(f) @ second, solid.face_normal(f) @ first))


def plans(solid: Solid) -> list[Plan]:
    name = solid.letter
    if name == "c":
        f = {n: _index(solid, n) for n in solid.face_names}
        return [[(f["F"], None), (f["U"], f["F"]), (f["D"], f["F"]), (f["L"], f["F"]), (f["R"], f["F"]),
                 (f["B"], f["R"])]]
    if name == "t":
        root = _index(solid, "ULR")
        return [[(root, None)] + [(k, root) for k in range(4) if k != root]]
    if name == "o":
        up = solid.vertices[solid.order.index("U")]
        upper = _around(solid, up, [k for k in range(8) if solid.face_normal(k)[1] > 0])
        plan = _chain(solid, upper)
        for k in range(8):
            if solid.face_normal(k)[1] < 0:
                plan.append((k, next(u for u in upper if _adjacent(solid, u, k))))
        return [plan]
    if name == "d":
        out = []
        for hub in ("U", "D"):
            h = _index(solid, hub)
            out.append([(h, None)] + [(k, h) for k in range(12) if _adjacent(solid, h, k)])
        return out
    top = solid.vertices[solid.order.index("U")]
    bottom = solid.vertices[solid.order.index("D")]
    near_top = [k for k in range(20) if any(np.allclose(solid.vertices[v], top) for v in solid.faces[k])]
    near_bottom = [k for k in range(20) if any(np.allclose(solid.vertices[v], bottom) for v in solid.faces[k])]
    band = [k for k in range(20) if k not in near_top and k not in near_bottom]
    return [_chain(solid, _around(solid, top, near_top)), _chain(solid, _around(solid, top, band)),
            _chain(solid, _around(solid, top, near_bottom))]


def _fold(solid: Solid, child: int, parent: int) -> tuple[np.ndarray, np.ndarray]:
    """The rotation (matrix, point on its axis) that turns `child` into the plane of `parent`
    about their shared side."""
    a, b = (solid.vertices[v] for v in _shared(solid, child, parent))
    edge = (b - a) / np.linalg.norm(b - a)
    nc, np_ = solid.face_normal(child), solid.face_normal(parent)
    degrees = math.degrees(math.atan2(np.cross(nc, np_) @ edge, nc @ np_))
    return rotation_matrix(edge, degrees), a


def _frame(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(right, down) in a root face's plane: down is world down where it can be, else towards the
    front (seen from above) or the back (seen from below)."""
    down = np.array([0.0, -1.0, 0.0]) - normal * -normal[1]
    if np.linalg.norm(down) < 1e-6:
        down = np.array([0.0, 0.0, 1.0 if normal[1] > 0 else -1.0])
    down /= np.linalg.norm(down)
    return np.cross(normal, down), down


def unfold(solid: Solid, points_by_face: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """2D positions (rows x, y) of the given 3D points of each face, pieces side by side."""
    out: dict[int, np.ndarray] = {}
    left = 0.0
    for plan in plans(solid):
        transforms: dict[int, list] = {}
        root = plan[0][0]
        for face, parent in plan:
            transforms[face] = [] if parent is None else [_fold(solid, face, parent)] + transforms[parent]
        right, down = _frame(solid.face_normal(root))
        centre = solid.vertices[list(solid.faces[root])].mean(axis=0)
        flat = {}
        for face, _ in plan:
            pts = points_by_face.get(face, np.zeros((0, 3)))
            corners = solid.vertices[list(solid.faces[face])]
            for m, at in transforms[face]:
                pts, corners = (pts - at) @ m.T + at, (corners - at) @ m.T + at
            flat[face] = (np.c_[(pts - centre) @ right, (pts - centre) @ down],
                          np.c_[(corners - centre) @ right, (corners - centre) @ down])
        xs = np.concatenate([c[:, 0] for _, c in flat.values()])
        shift = left - xs.min()
        for face, (pts, _) in flat.items():
            out[face] = pts + [shift, 0.0]
        left += xs.max() - xs.min() + 0.3
    return out
