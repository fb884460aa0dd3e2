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

FROM = 6  # the smallest N solved this way when the short phases do not run (below, the 3-cycle libraries)
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
AXES = ("U", "R", "F")
INVALID = -1000  # the gain of a cell no commutator has (a slice in both sets, or no slice there)
SHORTLIST = 20  # frames (those with the most to gain) whose slice sets are chosen per step
BRANCH = 4  # commutators followed from each state of a beam (_search)
PIECE_TURNS = 4  # a beam's estimate of the turns a piece not home will cost
WIDTHS = {6: 16, 7: 16}  # beam widths by size (1: greedy), where the short phases leave time
BEAM_RESERVE = 3.0  # seconds: with less left a beam goes on as the greedy (a 6x6x6's wings: 2 s for 16)


def slice_layer(n: int, face: str, position: int, turns: int) -> Layer:
    """The layer at `position` (0 = the face's own) counted from `face`, turned `turns` quarter
    turns seen from `face`, as a Layer of depth at most N//2 from one face or the other."""
    if position < n // 2:
        return Layer(face, position + 1, turns)
    return Layer(OPPOSITE[face], n - position, 4 - turns)


@dataclass
class Kind:
    """The batched commutators of one kind (centres, wings or T-centres) for one size: frame f's
    3-cycle a -> b -> c per slice of X (centres: per slice of X and slice of Z), -1 where none."""
    frames: list  # centres: (axis face, X power, Z power, A, A power, forward); else (axis face, X power, M, forward)
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
        self.middles = self._middles() if n % 2 else None
        self.orbit = np.full(self.cube.size, -1)  # the piece orbit of a centre, of a wing's sticker
        for k, orbit in enumerate(cycles.piece_orbits(self.cube)):
            self.orbit[orbit.positions] = k
        self._cells: dict[int, tuple] = {}
        self._places: dict[int, np.ndarray] = {}
        self._orbit_places: dict[int, list[int]] = {}

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
                abc = np.full((3, k, k), -1, dtype=np.int32)
                for x in self.inner:
                    x_perm = self.perm_of(self._slices(face, [x], xt))
                    z = self.perm_of(self._slices(face, [x], 4 - zt if zt != 2 else 2))[z_all]
                    y = a_out[z[a_in]]
                    commutator = cycles.inverse_array(y)[cycles.inverse_array(x_perm)[y[x_perm]]]
                    s, t, u = _three_cycles(commutator, np.ones(self.cube.size, dtype=bool))
                    other = np.where(pos[s] != x, pos[s], np.where(pos[t] != x, pos[t], pos[u]))
                    assert ((pos[s] == x).astype(int) + (pos[t] == x) + (pos[u] == x) == 2).all(), "not one piece per pair of slices"
                    abc[:, index[x], [index[o] for o in other]] = (s, t, u)
                for forward in (True, False):  # [X, Y], and its inverse [Y, X] reversing each 3-cycle
                    frames.append((face, xt, zt, a_face, q, forward))
                    cells.append(abc if forward else abc[::-1])
        cells = np.array(cells)
        return Kind(frames, cells[:, 0], cells[:, 1], cells[:, 2])

    def centre_sequence(self, frame, xs, zs) -> list[Layer]:
        face, xt, zt, a_face, q, forward = frame
        y = [Layer(a_face, 1, q)] + self._slices(face, zs, zt) + [Layer(a_face, 1, 4 - q)]
        x = self._slices(face, xs, xt)
        first, second = (x, y) if forward else (y, x)
        return first + second + cycles.inverse_layers(first) + cycles.inverse_layers(second)

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
                    commutator = cycles.inverse_array(second)[cycles.inverse_array(first)[second[first]]]
                    abc = np.full((3, len(self.inner)), -1, dtype=np.int32)
                    s, t2, u = _three_cycles(commutator, self.canonical)
                    heights = [np.where(belt[v], pos[v], -1) for v in (s, t2, u)]
                    height = np.maximum(np.maximum(heights[0], heights[1]), heights[2])
                    assert ((heights[0] == height).astype(int) + (heights[1] == height) + (heights[2] == height) == 2).all()
                    abc[:, [self.inner.index(h) for h in height]] = (s, t2, u)
                    frames.append((face, t, tuple(m), forward))
                    cells.append(abc)
        cells = np.array(cells)
        return Kind(frames, cells[:, 0], cells[:, 1], cells[:, 2])

    def _middles(self) -> Kind:
        """T-centre frames [X, W] and [W, X] (odd N): W a face turn, or one conjugated by another
        face turn, X slices of an axis. They move other centres and wings too (solved after), no
        corner and no middle edge; a frame is kept when its 3-cycles of T-centres are one per slice (and
        in no other slice)."""
        middle = np.zeros(self.cube.size, dtype=bool)
        for orbit in cycles.piece_orbits(self.cube):
            if orbit.kind == "centre" and any(0 in self.cube.points[s] for s in orbit.positions):
                middle[orbit.positions] = True
        outer = [Layer(f, 1, t) for f in FACES for t in (1, 2, 3)]
        conjugated = [[a, b, Layer(a.face, 1, 4 - a.turns)] for a, b in itertools.product(outer, repeat=2)
                      if a.face not in (b.face, OPPOSITE[b.face])]
        inner = np.zeros(self.n, dtype=bool)
        inner[self.inner] = True
        frames, cells = [], []
        for face in AXES:
            pos = self.position[face]
            in_slice = (pos >= 0) & inner[np.maximum(pos, 0)]
            for t in (1, 2, 3):
                x_perm = self.perm_of(self._slices(face, self.inner, t))
                for w in [[b] for b in outer] + conjugated:
                    w_perm = self.perm_of(w)
                    commutator = cycles.inverse_array(w_perm)[cycles.inverse_array(x_perm)[w_perm[x_perm]]]
                    moved = np.flatnonzero((commutator != np.arange(self.cube.size)) & middle)
                    if not len(moved) or (commutator[commutator[commutator[moved]]] != moved).any():
                        continue
                    s, b, c = _three_cycles(commutator, middle)
                    slices = [np.where(in_slice[v], pos[v], -1) for v in (s, b, c)]
                    x = np.maximum(np.maximum(slices[0], slices[1]), slices[2])
                    if (x < 0).any() or any(((y >= 0) & (y != x)).any() for y in slices) or len(set(x.tolist())) != len(x):
                        continue
                    abc = np.full((3, len(self.inner)), -1, dtype=np.int32)
                    abc[:, [self.inner.index(h) for h in x]] = (s, b, c)
                    for forward in (True, False):
                        frames.append((face, t, tuple(w), forward))
                        cells.append(abc if forward else abc[::-1])
        cells = np.array(cells)
        return Kind(frames, cells[:, 0], cells[:, 1], cells[:, 2])

    def encode(self, triples: np.ndarray) -> np.ndarray:
        """A 3-cycle (a, b, c) per row as one number, the same for its three rotations."""
        size = self.cube.size
        triples = triples.astype(np.int64)
        rotations = [triples[:, [0, 1, 2]], triples[:, [1, 2, 0]], triples[:, [2, 0, 1]]]
        codes = [(r[:, 0] * size + r[:, 1]) * size + r[:, 2] for r in rotations]
        return np.minimum(np.minimum(codes[0], codes[1]), codes[2])

    def cell_index(self, kind: Kind):
        """Each single cell's 3-cycle and its inverse, encoded (sorted), and per code a row (frame,
        slice indices..., inverse)."""
        if id(kind) not in self._cells:
            cells = np.argwhere(kind.a >= 0)
            abc = np.stack([x[kind.a >= 0] for x in (kind.a, kind.b, kind.c)], axis=1)
            codes = np.concatenate([self.encode(abc), self.encode(abc[:, ::-1])])
            entries = np.concatenate([np.column_stack([cells, np.full(len(cells), inverse)]) for inverse in (0, 1)])
            order = np.argsort(codes, kind="stable")
            self._cells[id(kind)] = (codes[order], entries[order])
        return self._cells[id(kind)]

    def places(self, kind: Kind) -> np.ndarray:
        """The positions a kind's cells move (one sticker per wing)."""
        if id(kind) not in self._places:
            self._places[id(kind)] = np.unique(np.concatenate([x[x >= 0] for x in (kind.a, kind.b, kind.c)]))
        return self._places[id(kind)]

    def orbit_places(self, orbit: int) -> list[int]:
        if not self._orbit_places:
            for p in np.flatnonzero(self.orbit >= 0):
                self._orbit_places.setdefault(int(self.orbit[p]), []).append(int(p))
        return self._orbit_places[orbit]

    def setup_sequences(self):
        """None, then every layer turn, then every two (not of one layer)."""
        yield ()
        layers = self.cube.layers()
        for m in layers:
            yield (m,)
        for m, r in itertools.product(layers, repeat=2):
            if (m.face, m.depth) != (r.face, r.depth):
                yield (m, r)

    def slice_sequence(self, frame, xs) -> list[Layer]:
        """[X, M] or [M, X] with X the slices xs (the wings' and the T-centres' frames)."""
        face, t, m, forward = frame
        x = self._slices(face, xs, t)
        first, second = (x, list(m)) if forward else (list(m), x)
        return first + second + cycles.inverse_layers(first) + cycles.inverse_layers(second)


def _three_cycles(p: np.ndarray, among: np.ndarray):
    """The 3-cycles s -> t -> u of a permutation that moves only 3-cycles, those within `among`,
    each once (from its least sticker)."""
    moved = np.flatnonzero((p != np.arange(len(p))) & among)
    t = p[moved]
    u = p[t]
    assert (p[u] == moved).all(), "a commutator that is not 3-cycles"
    first = (moved < t) & (moved < u)
    return moved[first], t[first], u[first]


@lru_cache(maxsize=2)  # a 33x33x33's take about 50 MB
def tables(n: int) -> Tables:
    return Tables(n)


class _Scorer:
    """Pieces home after each cell's 3-cycle less those home before (INVALID where no cell), for one
    goal: a piece is its sticker's colour (a wing's: both colours as one number)."""

    def __init__(self, kind: Kind, goal: np.ndarray, partner: np.ndarray | None):
        self.partner = partner
        valid = kind.a >= 0
        self.cells = [np.where(valid, x, 0) for x in (kind.a, kind.b, kind.c)]
        self.goals = [self.pieces(goal)[x] for x in self.cells]
        self.offset = np.where(valid, 0, INVALID).astype(np.int16)

    def pieces(self, colours: np.ndarray) -> np.ndarray:
        codes = colours.astype(np.int16)
        return codes * 16 + codes[self.partner] if self.partner is not None else codes

    def gains(self, now: np.ndarray) -> np.ndarray:
        a, b, c = (self.pieces(now)[x] for x in self.cells)
        ga, gb, gc = self.goals
        return (self.offset + (a == gb) + (b == gc) + (c == ga) - (a == ga) - (b == gb) - (c == gc))


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


def _steps(tab: Tables, kind: Kind, now, scorer: _Scorer, fixed, count: int) -> list[list[Layer]]:
    """The `count` best commutators of a kind by pieces per turn (one per frame of the shortlist)."""
    gain = scorer.gains(now)
    bound = np.clip(gain, 0, None).reshape(len(gain), -1).sum(axis=1)
    runs = _Runs(tab)
    found = []
    for f in np.argsort(-bound)[:SHORTLIST]:
        if bound[f] <= 0:
            break
        frame = kind.frames[f]
        grown = _grow(gain[f], runs, fixed(frame))
        if grown:
            found.append((grown[0], frame, [[tab.inner[i] for i in np.flatnonzero(s)] for s in grown[2]]))
    found.sort(key=lambda entry: -entry[0])
    return [tab.centre_sequence(frame, *sets) if kind is tab.centres else tab.slice_sequence(frame, *sets)
            for _, frame, sets in found[:count]]


def _set_up(tab: Tables, kind: Kind, now, goal, partner):
    """When no commutator gains: one 3-cycle u -> v -> w of one orbit bringing u's piece home to v
    (w not home, or taking v's piece), as S C S' with C a single cell and S a set-up of one layer
    turn (S C S' moves only the pieces S takes onto C's support, so it stays pure), else as two
    such, else with a set-up of two layer turns. (0, layers) or None."""
    places = [int(u) for u in tab.places(kind)]
    wrong = [u for u in places if not _fits(now, goal, partner, u, u)]
    by_orbit: dict[int, list[int]] = {}
    for u in wrong:
        by_orbit.setdefault(int(tab.orbit[u]), []).append(u)
    wanted = []
    for group in by_orbit.values():
        for u, v in itertools.permutations(group, 2):
            if _fits(now, goal, partner, u, v):
                ws = [w for w in group if w not in (u, v)]
                ws += [w for w in tab.orbit_places(int(tab.orbit[u])) if w not in group
                       and _fits(now, goal, partner, v, w)][:4]
                wanted += [(u, v, w) for w in ws[:8]]
        if len(wanted) > 400:
            break
    if not wanted:
        return None
    singles = 1 + len(tab.cube.layers())
    found = _cells_for(tab, kind, np.array(wanted[:400]), itertools.islice(tab.setup_sequences(), singles), first=True)
    for triple in wanted[:3] if not found else ():
        found = _two_cycles(tab, kind, triple)
        if found:
            return 0, found
    found = found or _cells_for(tab, kind, np.array(wanted[:400]),
                                itertools.islice(tab.setup_sequences(), singles, None), first=True)
    return (0, next(iter(found.values()))) if found else None


def _cells_for(tab: Tables, kind: Kind, triples: np.ndarray, setups, first: bool) -> dict:
    """Sequences S C S' (C a single cell, S from `setups`, the first that fits) that 3-cycle
    triples (a, b, c) (a's piece to b, b's to c), by triple; with `first`, the first one found only."""
    keys, values = tab.cell_index(kind)
    found = {}
    done = np.zeros(len(triples), dtype=bool)
    for setup in setups:
        at = triples
        for layer in setup:
            at = tab.arrays[layer][at]
        codes = tab.encode(at)
        where = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
        hits = (keys[where] == codes) & ~done
        done |= hits
        for i in np.flatnonzero(hits):
            frame, *cell, inverse = (int(x) for x in values[where[i]])
            seq = (tab.centre_sequence(kind.frames[frame], [tab.inner[cell[0]]], [tab.inner[cell[1]]])
                   if kind is tab.centres else tab.slice_sequence(kind.frames[frame], [tab.inner[cell[0]]]))
            if inverse:
                seq = cycles.inverse_layers(seq)
            found[tuple(int(x) for x in triples[i])] = list(setup) + seq + cycles.inverse_layers(list(setup))
            if first:
                return found
    return found


def _two_cycles(tab: Tables, kind: Kind, triple) -> list[Layer] | None:
    """The 3-cycle u -> v -> w as two 3-cycles of its orbit with set-ups of at most one layer turn."""
    u, v, w = triple
    orbit = tab.orbit_places(int(tab.orbit[u]))
    triples = np.array([t for t in itertools.permutations(orbit, 3) if t[0] < min(t[1:])])
    cells = _cells_for(tab, kind, triples, itertools.islice(tab.setup_sequences(), 1 + len(tab.cube.layers())),
                       first=False)
    want = {u: v, v: w, w: u}
    for (a, b, c), seq in cells.items():
        undo = {b: a, c: b, a: c}  # where the piece now at a place was before the first cycle
        rest = {}
        for y in set(want) | set(undo):
            z = want.get(undo.get(y, y), undo.get(y, y))
            if z != y:
                rest[y] = z
        if len(rest) == 3:
            x = min(rest)
            second = cells.get((x, rest[x], rest[rest[x]]))
            if second:
                return seq + second
    return None


def _fits(now, goal, partner, u, v) -> bool:
    return now[u] == goal[v] and (partner is None or now[partner[u]] == goal[partner[v]])


def solve_middles(n: int, now: np.ndarray, goal: np.ndarray) -> tuple[list[Layer], np.ndarray]:
    """Layer turns that bring T-centres home (odd N) while batched commutators gain (those left go
    to the 3-cycle libraries), and the state they reach."""
    tab = tables(n)
    return _solve(tab, ((tab.middles, None, lambda frame: 2 * len(frame[2]), False),), now, goal)


def solve(n: int, now: np.ndarray, goal: np.ndarray) -> tuple[list[Layer], np.ndarray]:
    """Layer turns that bring every centre (but the T-centres, which must be home already) and
    every wing home with batched commutators, and the state they reach (colour codes per sticker).
    The wings must be an even permutation in each orbit (reduction.fix_parity)."""
    tab = tables(n)
    kinds = ((tab.centres, None, lambda frame: 4, True), (tab.wings, tab.partner, lambda frame: 2 * len(frame[2]), True))
    return _solve(tab, kinds, now, goal)


def _solve(tab: Tables, kinds, now, goal):
    layers: list[Layer] = []
    for kind, partner, fixed, complete in kinds:
        more, now = _search(tab, kind, partner, fixed, complete, now, goal, WIDTHS.get(tab.n, 1))
        layers += more
    return layers, now


def _search(tab: Tables, kind: Kind, partner, fixed, complete: bool, now, goal, width: int):
    """The pieces of one kind home: with `width` 1, the best commutator by pieces per turn each time
    (greedy); wider, a beam of `width` states, each followed by its BRANCH best commutators, ranked
    by turns so far plus PIECE_TURNS per piece not home (the greedy's best commutator of the moment
    often leaves pieces no commutator gathers cheaply; the greedy again once less than BEAM_RESERVE
    seconds are left). When a state has no commutator that gains, a set-up one (_set_up) or, for a
    kind not `complete`, the end. (layers, state reached)"""
    places = tab.places(kind)
    if partner is not None:
        places = np.union1d(places, partner[places])
    scorer = _Scorer(kind, goal, partner)
    pieces, home = tab.places(kind), scorer.pieces(goal)[tab.places(kind)]  # one sticker per wing
    beam = [(0, now, [])]  # (catalog turns, state, layers)
    best = None
    while beam:
        deadline.check()
        left = deadline.remaining()
        if left is not None and left < BEAM_RESERVE:  # the time nearly out: the greedy, from the best state
            width, beam = 1, beam[:1]
        children = {}
        for turns, state, layers in beam:
            finished = (state[places] == goal[places]).all()
            steps = [] if finished else _steps(tab, kind, state, scorer, fixed, 1 if width == 1 else BRANCH)
            if finished or (not steps and not complete):
                if best is None or turns < best[0]:
                    best = (turns, state, layers)
                continue
            if not steps:
                found = _set_up(tab, kind, state, goal, partner)
                if found is None:
                    raise UnreachableError(f"cube{tab.n}: no batched commutator brings a piece home")
                steps = [found[1]]
            for seq in steps:
                p = tab.perm_of(seq)
                moved = np.empty_like(state)
                moved[p] = state
                cost = turns + sum(len(layer.sign()) for layer in seq)
                if best is None or cost < best[0]:
                    children.setdefault(moved.tobytes(), (cost, moved, layers + seq))
        rank = lambda entry: entry[0] + PIECE_TURNS * int((scorer.pieces(entry[1])[pieces] != home).sum())  # noqa: E731
        beam = sorted(children.values(), key=rank)[:width]
    return best[2], best[1]
