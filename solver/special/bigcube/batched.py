"""Centres and wings of big cubes (N > 7) by commutators aimed and batched: one commutator moves
many pieces home at once, each in a 3-cycle of its own.

Centres. X turns a set of slices of one axis, Z another set of the same axis (no slice in both),
A is a quarter turn of a face those slices cross. Y = A Z A' turns the slices of Z rotated on A's
face, so the supports of X and Y meet only on A's face, in the grid of X's columns by Y's rows:
each centre piece there is isolated, and the commutator X Y X' Y' 3-cycles each of them with
one piece of X's ring and one of Y's, |X| x |Z| disjoint 3-cycles for 4 + 4 x (runs of slices)
catalog turns (a run of neighbouring slices is two wide turns). A *frame* fixes the axis, A, and
the powers of X, Z and A; its 3-cycles for single slices x, z are computed once per size, and the
sets X and Z are chosen for the state at hand, greedily by pieces brought home per turn.

Wings. M is a sequence of outer turns that fixes every centre (each face turned a whole number of
times) and moves exactly one of the four edges around an axis, out of that ring. With X a set of
slices of the axis, the supports of X and M meet in that edge's wings at X's heights, each isolated:
[X, M] 3-cycles one wing per slice of X, across every wing orbit at once.

Both kinds of commutator move nothing else (no corner, no middle edge, no piece of the other
kind). When no frame gains, its commutators are tried under a face turn as set-up. The T-centres of
odd cubes (on a face's middle lines) lie in no slice of the catalog's (the middle slice is not a
move), so reduction.py solves them first with 3-cycles from a library (cycles.py), which may move
the other centres and the wings.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import deadline
from solver.errors import UnreachableError
from solver.special.bigcube import cycles
from solver.special.bigcube.model import FACES, NORMALS, BigCube, Layer

FROM = 8  # the smallest N solved this way (below, the short phases and the 3-cycle libraries)
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
AXES = ("U", "R", "F")
INVALID = -1000  # the gain of a cell no commutator has (a slice in both sets, or no slice there)
SHORTLIST = 6  # frames (those with the most to gain) whose slice sets are chosen per step


def slice_layer(n: int, face: str, position: int, turns: int) -> Layer:
    """The layer at `position` (0 = the face's own) counted from `face`, turned `turns` quarter
    turns seen from `face`, as a Layer of depth at most N//2 from one face or the other."""
    if position < n // 2:
        return Layer(face, position + 1, turns)
    return Layer(OPPOSITE[face], n - position, (4 - turns) % 4 or 2)


@dataclass
class Kind:
    """The commutators of one kind (centre or wing) for one size: frame f with slice set D (and for
    centres a second set E) is sequence(f, D, E); cells[f] holds its 3-cycles a -> b -> c per slice
    (per pair of slices), -1 where there is none."""
    sequences: list  # per frame: (slices' axis face, X power, before X, after X ...) see _sequence
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray


class Tables:
    """What the batched commutators of one size need, computed once per size."""

    def __init__(self, n: int):
        self.n = n
        self.cube = BigCube(n)
        self.arrays = {layer: cycles.layer_array(self.cube, layer) for layer in self.cube.layers()}
        points = np.array(self.cube.points)
        self.inner = [k for k in range(1, n - 1) if n % 2 == 0 or k != n // 2]
        # a sticker's slice position counted from each axis face (-1 on the face or its opposite)
        self.position = {}
        for face in AXES:
            along = points @ np.array(NORMALS[face])
            pos = (n - 1 - along) // 2
            pos[np.abs(along) == n] = -1
            self.position[face] = pos
        self.centres = self._centres()
        wings = [o for o in cycles.piece_orbits(self.cube) if o.kind == "wing"]
        self.partner = np.arange(self.cube.size)  # the other sticker of a wing
        self.canonical = np.zeros(self.cube.size, dtype=bool)  # one sticker per wing
        for orbit in wings:
            self.canonical[orbit.positions] = True
            for s, t in orbit.partner.items():
                self.partner[s], self.partner[t] = t, s
        self.wing_sticker = self.canonical | self.canonical[self.partner]
        self.wings = self._wings()
        self.orbit = np.full(self.cube.size, -1)  # the piece orbit of a centre, of a wing's sticker
        for k, orbit in enumerate(cycles.piece_orbits(self.cube)):
            self.orbit[orbit.positions] = k
        self._cells: dict[int, dict] = {}

    def perm_of(self, seq) -> np.ndarray:
        p = np.arange(self.cube.size)
        for layer in seq:
            p = self.arrays[layer][p]
        return p

    def _slices(self, face, positions, turns) -> list[Layer]:
        return [slice_layer(self.n, face, k, turns) for k in positions]

    def _centres(self) -> Kind:
        k = len(self.inner)
        index = {x: i for i, x in enumerate(self.inner)}
        frames, cells = [], []
        for face in AXES:
            ring = [f for f in FACES if f not in (face, OPPOSITE[face])]
            pos = self.position[face]
            for xt, zt, a_face, q in itertools.product((1, 2, 3), (1, 2, 3), ring, (1, 3)):
                a_in, a_out = self.arrays[Layer(a_face, 1, q)], self.arrays[Layer(a_face, 1, 4 - q)]
                z_all = self.perm_of(self._slices(face, self.inner, zt))
                abc = np.full((3, k, k), -1)
                for x in self.inner:
                    x_perm = self.perm_of(self._slices(face, [x], xt))
                    z = self.perm_of(self._slices(face, [x], 4 - zt if zt != 2 else 2))[z_all]
                    y = a_out[z[a_in]]
                    commutator = np.argsort(y)[np.argsort(x_perm)[y[x_perm]]]
                    for s in np.flatnonzero(commutator != np.arange(self.cube.size)):
                        t = commutator[s]
                        u = commutator[t]
                        if s > t or s > u:
                            continue
                        other = [p for p in (pos[s], pos[t], pos[u]) if p != x]
                        assert len(other) == 1 and commutator[u] == s, "a batched centre commutator is not 3-cycles"
                        abc[:, index[x], index[other[0]]] = (s, t, u)
                frames.append((face, xt, zt, a_face, q))
                cells.append(abc)
        cells = np.array(cells)
        return Kind(frames, cells[:, 0], cells[:, 1], cells[:, 2])

    def centre_sequence(self, frame, xs, zs) -> list[Layer]:
        face, xt, zt, a_face, q = frame
        y = [Layer(a_face, 1, q)] + self._slices(face, zs, zt) + [Layer(a_face, 1, 4 - q)]
        x = self._slices(face, xs, xt)
        return x + y + cycles.inverse_layers(x) + cycles.inverse_layers(y)

    def _wings(self) -> Kind:
        """Frames [X, M] and [M, X] for the outer sequences M that move one edge out of a ring."""
        outer = [Layer(f, 1, t) for f in FACES for t in (1, 2, 3)]
        candidates = []
        for p, r in itertools.product(outer, repeat=2):
            if p.face != r.face:
                candidates.append([p, r] + cycles.inverse_layers([p]) + cycles.inverse_layers([r]))
        candidates += [] and [[s] + m + cycles.inverse_layers([s]) for m in list(candidates) for s in outer
                       if s.face not in (m[0].face, m[1].face)]
        size = self.cube.size
        frames, cells = [], []
        for face in AXES:
            pos = self.position[face]
            belt = self.wing_sticker & (pos >= 1) & (pos <= self.n - 2)
            seen = set()
            x_perms = {t: self.perm_of(self._slices(face, self.inner, t)) for t in (1, 2, 3)}
            for m in candidates:
                m_perm = self.perm_of(m)
                moved = belt & (m_perm != np.arange(size))
                if not moved.any() or belt[m_perm[moved]].any() or moved.sum() != 2 * len(self.inner):
                    continue
                key = m_perm.tobytes()
                if key in seen:
                    continue
                seen.add(key)
                for t, forward in itertools.product((1, 2, 3), (True, False)):
                    first, second = (x_perms[t], m_perm) if forward else (m_perm, x_perms[t])
                    commutator = np.argsort(second)[np.argsort(first)[second[first]]]
                    abc = np.full((3, len(self.inner)), -1)
                    moved_c = np.flatnonzero((commutator != np.arange(size)) & self.canonical)
                    for s in moved_c:
                        t2, u = commutator[s], commutator[commutator[s]]
                        if s > t2 or s > u:
                            continue
                        heights = [pos[v] for v in (s, t2, u) if belt[v]]
                        assert commutator[u] == s and len(heights) == 2 and heights[0] == heights[1]
                        abc[:, self.inner.index(heights[0])] = (s, t2, u)
                    frames.append((face, t, tuple(m), forward))
                    cells.append(abc)
        cells = np.array(cells)
        return Kind(frames, cells[:, 0], cells[:, 1], cells[:, 2])

    def encode(self, triples: np.ndarray) -> np.ndarray:
        """A 3-cycle (a, b, c) per row as one number, the same for its three rotations."""
        size = self.cube.size
        rotations = [triples[:, [0, 1, 2]], triples[:, [1, 2, 0]], triples[:, [2, 0, 1]]]
        codes = [(r[:, 0] * size + r[:, 1]) * size + r[:, 2] for r in rotations]
        return np.minimum(np.minimum(codes[0], codes[1]), codes[2])

    def cell_index(self, kind: Kind):
        """Each single cell's 3-cycle and its inverse, encoded (sorted), and per code (frame, cell,
        inverse)."""
        if id(kind) not in self._cells:
            cells = np.argwhere(kind.a >= 0)
            abc = np.stack([x[kind.a >= 0] for x in (kind.a, kind.b, kind.c)], axis=1)
            codes = np.concatenate([self.encode(abc), self.encode(abc[:, ::-1])])
            entries = [(int(c[0]), tuple(int(x) for x in c[1:]), inverse)
                       for inverse in (False, True) for c in cells]
            order = np.argsort(codes, kind="stable")
            self._cells[id(kind)] = (codes[order], [entries[i] for i in order])
        return self._cells[id(kind)]

    def places(self, kind: Kind) -> np.ndarray:
        """The positions a kind's cells move (one sticker per wing)."""
        return np.unique(np.concatenate([x[x >= 0] for x in (kind.a, kind.b, kind.c)]))

    def setup_sequences(self):
        """None, then every layer turn, then every two (not of one layer)."""
        yield ()
        layers = self.cube.layers()
        for m in layers:
            yield (m,)
        for m, r in itertools.product(layers, repeat=2):
            if (m.face, m.depth) != (r.face, r.depth):
                yield (m, r)

    def wing_sequence(self, frame, xs) -> list[Layer]:
        face, t, m, forward = frame
        x = self._slices(face, xs, t)
        first, second = (x, list(m)) if forward else (list(m), x)
        return first + second + cycles.inverse_layers(first) + cycles.inverse_layers(second)


@lru_cache(maxsize=None)
def tables(n: int) -> Tables:
    return Tables(n)


def _gains(kind: Kind, now: np.ndarray, goal: np.ndarray, partner: np.ndarray | None, inverse=None):
    """Pieces home after each cell's 3-cycle less those home before (INVALID where no cell);
    `inverse` of a set-up's permutation moves the cells where the set-up takes them."""
    valid = kind.a >= 0
    a, b, c = (np.where(valid, x, 0) for x in (kind.a, kind.b, kind.c))
    if inverse is not None:
        a, b, c = inverse[a], inverse[b], inverse[c]

    def fits(u, v):  # the piece at u belongs at v
        same = now[u] == goal[v]
        return same & (now[partner[u]] == goal[partner[v]]) if partner is not None else same

    gain = (fits(a, b).astype(np.int32) + fits(b, c) + fits(c, a) - fits(a, a) - fits(b, b) - fits(c, c))
    return np.where(valid, gain, INVALID)


class _Runs:
    """Runs of neighbouring slices (each run is two wide turns of one face)."""

    def __init__(self, tables: Tables):
        inner = np.array(tables.inner)
        half = tables.n // 2
        # linked[i]: slices i and i + 1 (of tables.inner) are neighbours turned from the same face
        self.linked = np.append((np.diff(inner) == 1) & (inner[1:] != half), False)

    def added(self, chosen: np.ndarray) -> np.ndarray:
        """How many runs adding each slice makes (1 alone, 0 next to one run, -1 joining two)."""
        left = np.zeros_like(chosen)
        left[1:] = chosen[:-1] & self.linked[:-1]
        right = np.zeros_like(chosen)
        right[:-1] = chosen[1:] & self.linked[:-1]
        return 1 - left.astype(int) - right.astype(int)


def _grow(gain: np.ndarray, runs: _Runs, fixed: int):
    """Greedy slice sets for one frame, by pieces per turn: rows (X) and columns (Z) of `gain`
    for a 2-d frame, positions for a 1-d one; cost `fixed` + 4 per run. (ratio, gain, sets)."""
    two = gain.ndim == 2
    start = np.unravel_index(np.argmax(gain), gain.shape)
    total = gain[start]
    if total <= 0:
        return None
    sets = [np.zeros(gain.shape[0], dtype=bool) for _ in start]
    for chosen, i in zip(sets, start):
        chosen[i] = True
    count = len(start)
    while True:
        ratio = total / (fixed + 4 * count)
        best = None
        for axis, chosen in enumerate(sets):
            if two:
                add = gain[:, sets[1]].sum(axis=1) if axis == 0 else gain[sets[0], :].sum(axis=0)
            else:
                add = gain.copy()
            add = np.where(chosen, INVALID, add)
            new_ratio = (total + add) / (fixed + 4 * (count + runs.added(chosen)))
            i = int(np.argmax(new_ratio))
            if add[i] > 0 and new_ratio[i] > ratio and (best is None or new_ratio[i] > best[0]):
                best = (new_ratio[i], axis, i, add[i])
        if best is None:
            return ratio, total, sets
        _, axis, i, add = best
        count += runs.added(sets[axis])[i]
        sets[axis][i] = True
        total += add


def _step(tab: Tables, kind: Kind, now, goal, partner, fixed):
    """The best commutator of a kind, as (pieces per turn, layers), or None."""
    gain = _gains(kind, now, goal, partner)
    bound = np.clip(gain, 0, None).reshape(len(gain), -1).sum(axis=1)
    runs = _Runs(tab)
    best = None
    for f in np.argsort(-bound)[:SHORTLIST]:
        if bound[f] <= 0:
            break
        frame = kind.sequences[f]
        cost = fixed(frame)
        grown = _grow(gain[f], runs, cost)
        if grown and (best is None or grown[0] > best[0]):
            sets = [[tab.inner[i] for i in np.flatnonzero(s)] for s in grown[2]]
            best = (grown[0], frame, sets)
    if best is None:
        return None
    _, frame, sets = best
    seq = tab.centre_sequence(frame, *sets) if kind is tab.centres else tab.wing_sequence(frame, *sets)
    return best[0], seq


def _set_up(tab: Tables, kind: Kind, now, goal, partner):
    """When no commutator gains: one 3-cycle u -> v -> w of one orbit bringing u's piece home to v
    (w not home, or taking v's piece), as S C S' with C a single cell and S a set-up of one or two
    layer turns (S C S' moves only the pieces S takes onto C's support, so it stays pure).
    (0, layers) or None."""
    keys, values = tab.cell_index(kind)
    places = [int(u) for u in tab.places(kind)]
    wrong = [u for u in places if not _fits(now, goal, partner, u, u)][:60]
    wanted = []
    for u, v in itertools.permutations(wrong, 2):
        if tab.orbit[u] == tab.orbit[v] and _fits(now, goal, partner, u, v):
            ws = [w for w in wrong if w not in (u, v) and tab.orbit[w] == tab.orbit[u]]
            ws += [w for w in places if tab.orbit[w] == tab.orbit[u] and w not in wrong
                   and _fits(now, goal, partner, v, w)][:4]
            wanted += [(u, v, w) for w in ws[:8]]
    if not wanted:
        return None
    triples = np.array(wanted[:400])
    for setup in tab.setup_sequences():
        at = triples
        for layer in setup:
            at = tab.arrays[layer][at]
        codes = tab.encode(at)
        where = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
        found = np.flatnonzero(keys[where] == codes)
        if len(found):
            frame, cell, inverse = values[int(where[found[0]])]
            seq = (tab.centre_sequence(kind.sequences[frame], [tab.inner[cell[0]]], [tab.inner[cell[1]]])
                   if kind is tab.centres else tab.wing_sequence(kind.sequences[frame], [tab.inner[cell[0]]]))
            if inverse:
                seq = cycles.inverse_layers(seq)
            return 0, list(setup) + seq + cycles.inverse_layers(list(setup))
    return None


def _fits(now, goal, partner, u, v) -> bool:
    return now[u] == goal[v] and (partner is None or now[partner[u]] == goal[partner[v]])


def solve(n: int, now: np.ndarray, goal: np.ndarray) -> tuple[list[Layer], np.ndarray]:
    """Layer turns that bring every centre (but the T-centres, which must be home already) and
    every wing home with batched commutators, and the state they reach (colour codes per sticker).
    The wings must be an even permutation in each orbit (reduction.fix_parity)."""
    tab = tables(n)
    layers: list[Layer] = []
    kinds = ((tab.centres, None, lambda frame: 4), (tab.wings, tab.partner, lambda frame: 2 * len(frame[2])))
    for kind, partner, fixed in kinds:
        places = tab.places(kind)
        if partner is not None:
            places = np.union1d(places, partner[places])
        while (now[places] != goal[places]).any():
            deadline.check()
            found = _step(tab, kind, now, goal, partner, fixed) or _set_up(tab, kind, now, goal, partner)
            if found is None:
                raise UnreachableError(f"cube{n}: no batched commutator brings a piece home")
            p = tab.perm_of(found[1])
            moved = np.empty_like(now)
            moved[p] = now
            now = moved
            layers += found[1]
    return layers, now
