"""Small puzzles for the search tests, generated from geometry, with their pieces known by
construction (so the search is tested without depending on how pieces are derived), optionally
with every sticker renumbered at random."""

from __future__ import annotations

import itertools
import random
import numpy as np

from solver import perm
from solver.analysis.pieces import Orbit  # the orbit record only: its pieces are given here, not derived
from solver.definition.model import Case, Definition, Move
from solver.errors import StateError


class HandPieces:
    """A piece model given by its orbits, following the pieces/orbits contract."""

    def __init__(self, defn: Definition, orbits: list[Orbit]):
        self.defn = defn
        self.orbits = tuple(orbits)
        used = {p for o in orbits for slot in o.slots for p in slot}
        self.fixed = tuple(p for p in range(defn.stickers) if p not in used)
        self._where = {}
        for r, o in enumerate(orbits):
            for s in range(len(o.slots)):
                for t in range(o.twists):
                    self._where[(r, tuple(o.slots[s][o.rot[t][j]] for j in range(len(o.slots[s]))))] = s * o.twists + t

    def action(self, p):
        out = []
        for r, o in enumerate(self.orbits):
            t = np.empty(len(o.slots) * o.twists, dtype=np.int32)
            for s, slot in enumerate(o.slots):
                for tw in range(o.twists):
                    image = tuple(p[slot[o.rot[tw][j]]] for j in range(len(slot)))
                    t[s * o.twists + tw] = self._where[(r, image)]
            out.append(t)
        return out

    def read(self, state):
        goal = self.defn.goal
        out = []
        for o in self.orbits:
            view = np.empty(len(o.slots), dtype=np.int32)
            for s, slot in enumerate(o.slots):
                for label, tw in itertools.product(range(len(o.slots)), range(o.twists)):
                    if all(state[slot[o.rot[tw][j]]] == goal[o.slots[label][j]] for j in range(len(slot))):
                        view[s] = label * o.twists + tw
                        break
                else:
                    raise StateError(f"{o.name}: slot {s} shows colours of no piece")
            out.append(view)
        return out


def _rotate(v, axis):
    """Quarter turn clockwise looking at the face whose normal is `axis`."""
    cross = np.cross(axis, v)
    return tuple(int(x) for x in -cross + np.array(axis) * int(np.dot(axis, v)))


FACES = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0), "F": (0, 0, 1), "B": (0, 0, -1)}
COLOURS = {(0, 1, 0): "W", (0, -1, 0): "Y", (1, 0, 0): "R", (-1, 0, 0): "O", (0, 0, 1): "G", (0, 0, -1): "B"}


def cube2(faces: str = "URFDLB", **kw):
    return cube(2, faces, **kw)


def cube(size: int, faces: str = "URFDLB", *, symmetric: bool | None = None, renumber: int | None = None, powers=(1, 2, 3)):
    """The 2x2x2 or 3x3x3 with turns of `faces`; `symmetric` (default for the 2x2x2) adds the 24
    whole-cube rotations as goals."""
    symmetric = size == 2 if symmetric is None else symmetric
    coords = (-1, 1) if size == 2 else (-1, 0, 1)
    stickers = []
    for pos in itertools.product(coords, repeat=3):
        for axis in range(3):
            if pos[axis] != 0:
                normal = [0, 0, 0]
                normal[axis] = pos[axis]
                stickers.append((pos, tuple(normal)))
    order = list(range(len(stickers)))
    if renumber is not None:
        random.Random(renumber).shuffle(order)
    number = {st: order[i] for i, st in enumerate(stickers)}
    n = len(stickers)

    def turn_perm(axis, select):
        p = [0] * n
        for st, i in number.items():
            pos, normal = st
            p[i] = number[(_rotate(pos, axis), _rotate(normal, axis))] if select(pos) else i
        return tuple(p)

    moves = []
    for f in faces:
        axis = FACES[f]
        q = turn_perm(axis, lambda pos, a=axis: np.dot(pos, a) > 0)
        for k in powers:
            name = f + {1: "", 2: "2", 3: "'"}[k]
            moves.append(Move(name, (Case(perm.power(q, k)),)))
    goal = [""] * n
    for (pos, normal), i in number.items():
        goal[i] = COLOURS[normal]
    goals = [tuple(goal)]
    if symmetric:
        x = turn_perm((1, 0, 0), lambda pos: True)
        y = turn_perm((0, 1, 0), lambda pos: True)
        seen = {tuple(goal)}
        frontier = [tuple(goal)]
        while frontier:
            nxt = []
            for g in frontier:
                for s in (x, y):
                    h = perm.apply(s, g)
                    if h not in seen:
                        seen.add(h)
                        goals.append(h)
                        nxt.append(h)
            frontier = nxt
    defn = Definition(name=f"cube{size}-" + faces, stickers=n, moves=tuple(moves), goals=tuple(goals),
                      base_moves=tuple(m.name for m in moves), given_goals=1)
    moved = {i for m in moves for i in perm.support(m.cases[0].perm)}
    orbits = []
    for count, name in ((3, "corners"), (2, "edges")):
        slots = []
        for pos in itertools.product(coords, repeat=3):
            axes = [a for a in (1, 2, 0) if pos[a] != 0]  # U/D first, then F/B, then L/R
            if len(axes) != count:
                continue
            normals = [tuple(pos[a] if b == a else 0 for b in range(3)) for a in axes]
            if count == 3 and np.linalg.det(np.array(normals)) < 0:
                normals[1], normals[2] = normals[2], normals[1]
            slot = tuple(number[(pos, nm)] for nm in normals)
            if set(slot) <= moved:
                slots.append(slot)
        if slots:
            rot = tuple(tuple((j + o) % count for j in range(count)) for o in range(count))
            orbits.append(Orbit(tuple(slots), count, rot, name))
    return defn, HandPieces(defn, orbits)


def sliding(rows: int, cols: int, *, renumber: int | None = None):
    """The rows x cols sliding puzzle, blank `0` first, moves named by the tile's direction."""
    n = rows * cols
    order = list(range(n))
    if renumber is not None:
        random.Random(renumber).shuffle(order)
    cell = lambda r, c: order[r * cols + c]
    moves = []
    for name, (dr, dc) in {"L": (0, 1), "R": (0, -1), "U": (1, 0), "D": (-1, 0)}.items():
        cases = []
        for r in range(rows):
            for c in range(cols):
                r2, c2 = r + dr, c + dc  # the tile that slides into the blank at (r, c)
                if 0 <= r2 < rows and 0 <= c2 < cols:
                    cases.append(Case(perm.from_cycles(n, [[cell(r2, c2), cell(r, c)]]), ((cell(r, c), "0"),)))
        moves.append(Move(name, tuple(sorted(cases, key=lambda cs: cs.guard))))
    goal = [""] * n
    for i in range(n):
        goal[order[i]] = str(i)
    defn = Definition(name=f"sliding-{rows}x{cols}", stickers=n, moves=tuple(moves), goals=(tuple(goal),),
                      base_moves=tuple(m.name for m in moves))
    slots = tuple((order[i],) for i in range(n))
    return defn, HandPieces(defn, [Orbit(slots, 1, ((0,),), "tiles")])
