"""Test puzzles for the analysis tests, generated from geometry (integer 3D points and rotations),
so that no sticker array is typed by hand. Also: renumbering a definition at random."""

from __future__ import annotations

import random

from solver import perm
from solver.definition.model import Case, Definition, Move

AXES = {"x": 0, "y": 1, "z": 2}


def rotate(p, axis: int, quarter: int):
    """Rotate an integer point by quarter * 90 degrees about an axis (right-hand rule)."""
    p = list(p)
    a, b = [(1, 2), (2, 0), (0, 1)][axis]
    for _ in range(quarter % 4):
        p[a], p[b] = -p[b], p[a]
    return tuple(p)


def from_points(name, points, colours, moves, goal_extra=None) -> Definition:
    """points: one 3D point per sticker; moves: (name, point -> point or None when unmoved)."""
    index = {p: i for i, p in enumerate(points)}
    built = []
    for move_name, f in moves:
        images = []
        for p in points:
            q = f(p)
            images.append(index[q] if q is not None else index[p])
        built.append(Move(move_name, (Case(tuple(images)),)))
    return Definition(name=name, stickers=len(points), moves=tuple(built), goals=(tuple(colours),))


FACE_COLOURS = {(0, 1): "R", (0, -1): "O", (1, 1): "W", (1, -1): "Y", (2, 1): "G", (2, -1): "B"}
FACE_NAMES = {(0, 1): "R", (0, -1): "L", (1, 1): "U", (1, -1): "D", (2, 1): "F", (2, -1): "B"}


def cuboid(dims, slices=False, faces=("U", "D", "R", "L", "F", "B"), inverses=False, halves=False):
    """A dims[0] x dims[1] x dims[2] cuboid (x, y, z). Face turns of the named faces (clockwise
    seen from the face); with `slices` also every inner layer, turned like the face on its
    positive side. A layer whose cross-section is not square turns 180 degrees."""
    points, colours = [], []
    for axis in range(3):
        for sign in (1, -1):
            others = [a for a in range(3) if a != axis]
            for u in range(-(dims[others[0]] - 1), dims[others[0]], 2):
                for v in range(-(dims[others[1]] - 1), dims[others[1]], 2):
                    p = [0, 0, 0]
                    p[axis] = sign * dims[axis]
                    p[others[0]], p[others[1]] = u, v
                    points.append(tuple(p))
                    colours.append(FACE_COLOURS[(axis, sign)])

    def layer_move(axis, lo, hi, quarter):
        def f(p):
            if lo <= p[axis] <= hi:
                return rotate(p, axis, quarter)
            return None
        return f

    moves = []

    def add(name, axis, lo, hi, sign):
        others = [a for a in range(3) if a != axis]
        square = dims[others[0]] == dims[others[1]]
        q = -sign if square else 2
        moves.append((name, layer_move(axis, lo, hi, q)))
        if square and inverses:
            moves.append((name + "'", layer_move(axis, lo, hi, -q)))
        if square and halves:
            moves.append((name + "2", layer_move(axis, lo, hi, 2)))

    for (axis, sign), face in FACE_NAMES.items():
        if face in faces:
            edge = dims[axis]
            if sign > 0:
                add(face, axis, edge - 1, edge, 1)
            else:
                add(face, axis, -edge, -(edge - 1), -1)
    if slices:
        for axis in range(3):
            for c in range(-(dims[axis] - 3), dims[axis] - 2, 2):
                add(f"{'xyz'[axis]}{c}", axis, c, c, 1)
    return from_points(f"cuboid-{dims}", points, colours, moves)


def _tetra_rotation(c):
    """120 degrees about the body diagonal c = (+-1, +-1, +-1)."""
    def f(p):
        q = [p[i] * c[i] for i in range(3)]
        q = (q[2], q[0], q[1])
        return tuple(q[i] * c[i] for i in range(3))
    return f


def _turn(axis_vec, threshold, rotation):
    def f(p):
        if sum(a * b for a, b in zip(p, axis_vec)) > threshold:
            return rotation(p)
        return None
    return f


def pyraminx():
    """Pyraminx without tips: 4 faces x 6 facelets, 4 vertex turns of two layers."""
    verts = [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]
    colours_of = "RGBY"
    points, colours = [], []
    for opposite in range(4):
        face = [v for i, v in enumerate(verts) if i != opposite]
        for a in range(10):
            for b in range(10 - a):
                c = 9 - a - b
                bary = (a, b, c)
                up = all(x % 3 == 1 for x in bary)
                down = all(x % 3 == 2 for x in bary)
                if not (up or down) or max(bary) == 7:  # not a facelet centre, or a tip
                    continue
                p = tuple(sum(w * v[k] for w, v in zip(bary, face)) for k in range(3))
                points.append(p)
                colours.append(colours_of[opposite])
    moves = [(n, _turn(v, 3, _tetra_rotation(v))) for n, v in zip("ULRB", verts)]
    return from_points("pyraminx", points, colours, moves)


def skewb():
    """Skewb with the corner (-1,-1,-1) fixed: the four turns whose half avoids it."""
    points, colours = [], []
    for (axis, sign), col in FACE_COLOURS.items():
        others = [a for a in range(3) if a != axis]
        centre = [0, 0, 0]
        centre[axis] = 3 * sign
        points.append(tuple(centre))
        colours.append(col)
        for s1 in (1, -1):
            for s2 in (1, -1):
                p = list(centre)
                p[others[0]], p[others[1]] = 2 * s1, 2 * s2
                points.append(tuple(p))
                colours.append(col)
    corners = [(1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)]
    moves = [(n, _turn(c, 0, _tetra_rotation(c))) for n, c in zip("ABCD", corners)]
    return from_points("skewb", points, colours, moves)


def sliding(rows, cols) -> Definition:
    """The sliding puzzle with the blank ("0") first; moves name where the tile goes."""
    n = rows * cols
    goal = tuple(str(i) for i in range(n))
    moves = []
    for name, dr, dc in (("L", 0, 1), ("R", 0, -1), ("U", 1, 0), ("D", -1, 0)):
        cases = []
        for r in range(rows):
            for c in range(cols):
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < rows and 0 <= c2 < cols:
                    b, t = r * cols + c, r2 * cols + c2
                    cases.append(Case(perm.from_cycles(n, [[b, t]]), ((b, "0"),)))
        moves.append(Move(name, tuple(cases)))
    return Definition(name=f"sliding-{rows}x{cols}", stickers=n, moves=tuple(moves), goals=(goal,))


def renumbered(defn: Definition, rng: random.Random, rename_colours=True):
    """The same puzzle with stickers, move names and colours relabelled at random.
    Returns (definition, sticker map old->new, colour map old->new)."""
    n = defn.stickers
    new_of = list(range(n))
    rng.shuffle(new_of)
    colours = list(defn.colours)
    fresh = [f"c{i}" for i in range(len(colours))]
    rng.shuffle(fresh)
    cmap = dict(zip(colours, fresh)) if rename_colours else {c: c for c in colours}

    def move_perm(p):
        q = [0] * n
        for i, x in enumerate(p):
            q[new_of[i]] = new_of[x]
        return tuple(q)

    moves = []
    names = [f"m{i}" for i in range(len(defn.moves))]
    rng.shuffle(names)
    for m, name in zip(defn.moves, names):
        cases = tuple(
            Case(move_perm(c.perm), tuple(sorted((new_of[pos], cmap[col]) for pos, col in c.guard)))
            for c in m.cases
        )
        moves.append(Move(name, cases))
    rng.shuffle(moves)
    goals = []
    for g in defn.goals:
        new = [None] * n
        for i, col in enumerate(g):
            new[new_of[i]] = cmap[col]
        goals.append(tuple(new))
    out = Definition(name=defn.name + "-renumbered", stickers=n, moves=tuple(moves), goals=tuple(goals))
    return out, new_of, cmap


def loopover(rows, cols, colours=None) -> Definition:
    """Loopover: shift a row right or a column down by one cell; `colours` recolours the goal."""
    n = rows * cols
    moves = []
    for r in range(rows):
        moves.append(Move(f"R{r}", (Case(perm.from_cycles(n, [[r * cols + c for c in range(cols)]])),)))
    for c in range(cols):
        moves.append(Move(f"D{c}", (Case(perm.from_cycles(n, [[r * cols + c for r in range(rows)]])),)))
    goal = tuple(colours) if colours else tuple(f"t{i}" for i in range(n))
    return Definition(name=f"loopover-{rows}x{cols}", stickers=n, moves=tuple(moves), goals=(goal,))


def recoloured(defn: Definition, colours) -> Definition:
    return Definition(name=defn.name, stickers=defn.stickers, moves=defn.moves, goals=(tuple(colours),))
