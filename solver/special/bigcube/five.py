"""The 5x5x5's reduction from centres on their axes to a 3x3x3: the last centres and every edge in
three phases with pruning tables (coordinates.py) and IDA* (ida.py), each phase's turns keeping
what the phases before did (the phase design of cs0x7f's cube555, its phases 3 to 5; our own
coordinates, tables and code).

short.py's first two phases leave the U/D, R/L and F/B centres on their axes and the wings an even
permutation. Then, in the catalog's turns:

3. Edges oriented, among the outer turns and the wide half turns (24). The turns of the later
   phases, within <U, D, F, B, R2, L2, wide half turns>, keep the middle edges' orientation about
   the R/L axis and the wings within two classes of 12 places (one place of each class per edge
   slot), so an edge can be paired there only when its middle edge's orientation and which of its
   wings lies in class 0 agree: either way for each edge (its `flip`; the 2,048 choices of even
   parity are the phase's starts). Also the R/L centres into the later phases' reach (R and L
   turn by halves there), and, checked on the ends found, at most 8 edges with a piece in the S
   slice (UR, UL, DR, DL), which phase 4's turns keep there: four of the others are paired next.
4. Four edges whole outside the S slice paired into FR, FL, BR, BL (the E slice), and the R/L and
   F/B centres into phase 5's reach, among F, B, U2, D2, R2, L2 and the wide half turns (16).
5. Every centre home and the other eight edges paired among U, D, R2, L2, F2, B2, Rw2, Lw2, Fw2,
   Bw2 (14), which keep the E slice's edges paired.

Each phase collects several ways, shortest whole first, and the next starts from all of them.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import deadline, perm
from solver.search.budget import Budget, one_time_work
from solver.special import store
from solver.special.bigcube import centres, coordinates, cycles, ida
from solver.special.bigcube.coordinates import UNSEEN, arrangement, distances, product
from solver.special.bigcube.model import BigCube, Rotation, parse_turn, rotations

N = 5
VERSION = 1  # of the stored tables
WIDE_HALVES = [f + "w2" for f in "URFDLB"]
TURNS = {
    3: [f + s for f in "URFDLB" for s in ("", "2", "'")] + WIDE_HALVES,
    4: ["F", "F2", "F'", "B", "B2", "B'", "U2", "D2", "R2", "L2"] + WIDE_HALVES,
    5: ["U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2", "Rw2", "Lw2", "Fw2", "Bw2"],
}
LATER = sorted(set(TURNS[4]) | set(TURNS[5]))
ORIENTING = ["U", "D", "F", "B", "R2", "L2"]  # keep the middle edges' orientation about R/L
AXIS = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}
# Ways each phase collects (the shortest wholes first) for the next to start from: on 8 states
# {8, 8, 1} took 10.3 M nodes on average (30 M at most), {8, 3, 1} 8.1 M (19 M) for the same
# lengths, {24, 8, 1} 13.9 M, {4, 8, 1} 8.2 M and half a turn more, {8, 1, 1} a turn more. With
# the time of more rotations (reduction.VARIANT_MARGIN), on 16 states: {8, 3, 1} 75.5 turns,
# {16, 3, 1} 75.2, {16, 6, 3} 74.6 (more ends for the 3x3x3 stage to choose from), {16, 8, 4} 74.8.
WAYS = {3: 16, 4: 6, 5: 3}
SHARES = {3: 0.5, 4: 0.75, 5: 1.0}  # of the time left when it starts, when each phase gives up


@dataclass(frozen=True)
class Geometry:
    """Piece places of the catalog's cube5 and where each turn takes them."""
    sources: dict[str, np.ndarray]  # new state = state[sources[turn]]
    midges: np.ndarray     # (12, 2) stickers of each middle edge slot; column 0 its orientation's reference
    wings: np.ndarray      # (24, 2) stickers of each wing place (one sticker orbit, then the partner)
    wing_slot: np.ndarray  # (24,) the middle edge slot beside each wing place
    wing_class: np.ndarray  # (24,) 0 or 1: the wing places the later phases' turns keep apart
    x_centres: np.ndarray  # (24,) stickers
    t_centres: np.ndarray  # (24,)
    points: np.ndarray     # (12, 3) each middle edge slot's cubie
    faces: list[str]       # of each sticker

    def to(self, turn: str, stickers: np.ndarray) -> np.ndarray:
        """Where `turn` takes each of `stickers` (rows of a piece's stickers: where it takes the
        first), as indices into `stickers` (rows)."""
        dest = np.empty_like(self.sources[turn])
        dest[self.sources[turn]] = np.arange(len(dest))
        flat = stickers.reshape(len(stickers), -1)
        row = np.full(len(dest), -1)
        row[flat] = np.arange(len(flat))[:, None]
        return row[dest[flat[:, 0]]]

    def flips(self, turn: str) -> np.ndarray:
        """Whether `turn` takes each middle edge's reference sticker to a slot's other sticker."""
        dest = np.empty_like(self.sources[turn])
        dest[self.sources[turn]] = np.arange(len(dest))
        return np.isin(dest[self.midges[:, 0]], self.midges[:, 1]).astype(np.int64)


@lru_cache(maxsize=None)
def geometry() -> Geometry:
    cube = BigCube(N)
    sources = {name: np.asarray(perm.sources(p)) for name, p in cube.named_moves.items()}
    midge_cubies = [c for c in cube.pieces if sorted(map(abs, c)) == [0, 4, 4]]
    pairs = [cube.pieces[c] for c in midge_cubies]
    # the reference stickers: the orbit of one middle edge sticker under ORIENTING
    dests = []
    for name in ORIENTING:
        dest = np.empty(cube.size, dtype=np.int64)
        dest[sources[name]] = np.arange(cube.size)
        dests.append(dest)
    reached, todo = {pairs[0][0]}, [pairs[0][0]]
    while todo:
        s = todo.pop()
        for dest in dests:
            if int(dest[s]) not in reached:
                reached.add(int(dest[s]))
                todo.append(int(dest[s]))
    assert all((a in reached) != (b in reached) for a, b in pairs), "no middle edge orientation about R/L"
    midges = np.array([(a, b) if a in reached else (b, a) for a, b in pairs])
    wing_orbit = next(o for o in cycles.piece_orbits(cube) if o.kind == "wing")
    wings = np.array([(s, wing_orbit.partner[s]) for s in wing_orbit.positions])
    slot_of = {c: k for k, c in enumerate(midge_cubies)}
    wing_slot = np.array([slot_of[tuple(0 if abs(x) == 2 else x for x in cube.cubie_of(int(s)))] for s in wings[:, 0]])
    centre_orbits = [o for o in cycles.piece_orbits(cube) if o.kind == "centre"]
    x_centres, t_centres = (np.array(next(o.positions for o in centre_orbits
                                          if (0 in cube.cubie_of(o.positions[0])) == t)) for t in (False, True))
    geo = Geometry(sources, midges, wings, wing_slot, np.zeros(24, dtype=np.int64), x_centres, t_centres,
                   np.array(midge_cubies), cube.faces)
    # the wing classes: the orbits of the wing places under the later phases' turns
    root = list(range(24))

    def find(i):
        while root[i] != i:
            i = root[i]
        return i
    for name in LATER:
        for i, j in enumerate(geo.to(name, wings[:, 0])):
            root[find(i)] = find(int(j))
    classes = sorted({find(i) for i in range(24)})
    wing_class = np.array([classes.index(find(i)) for i in range(24)])
    assert len(classes) == 2 and all(sorted(wing_class[wing_slot == k]) == [0, 1] for k in range(12))
    return Geometry(sources, midges, wings, wing_slot, wing_class, x_centres, t_centres, np.array(midge_cubies),
                    cube.faces)


@dataclass(frozen=True)
class Pieces:
    """Which piece is where in a sticker state: middle edges (the edge at each slot, numbered by
    its home slot, with its orientation about R/L) and wings (the wing at each place, by its home place)."""
    midge: np.ndarray
    orientation: np.ndarray
    wing: np.ndarray


def pieces(state: np.ndarray, goal: np.ndarray) -> Pieces:
    geo = geometry()
    edge_of = {frozenset(map(int, goal[pair])): k for k, pair in enumerate(geo.midges)}
    midge = np.array([edge_of[frozenset(map(int, state[pair]))] for pair in geo.midges])
    orientation = (state[geo.midges[:, 0]] != goal[geo.midges[midge, 0]]).astype(np.int64)
    wing_of = {tuple(map(int, goal[pair])): k for k, pair in enumerate(geo.wings)}
    wing = np.array([wing_of[tuple(map(int, state[pair]))] for pair in geo.wings])
    return Pieces(midge, orientation, wing)


def _slots(where) -> np.ndarray:
    """The middle edge slots whose cubie (x, y, z) satisfies `where`."""
    return np.array([k for k, p in enumerate(geometry().points) if where(*p)])


def _wing_places(slots: np.ndarray) -> list[np.ndarray]:
    """The class-0 and the class-1 wing places of the slots."""
    geo = geometry()
    return [np.flatnonzero(np.isin(geo.wing_slot, slots) & (geo.wing_class == c)) for c in (0, 1)]


def _restricted(full: np.ndarray, places: np.ndarray) -> np.ndarray:
    """(turns, len(places)) from (turns, n) maps of places to places: as indices into `places`."""
    index = np.full(full.shape[1], -1)
    index[places] = np.arange(len(places))
    local = index[full[:, places]]
    assert (local >= 0).all(), "the turns do not keep the places among themselves"
    return local


def _maps(turns: list[str], stickers: np.ndarray) -> np.ndarray:
    return np.array([geometry().to(name, stickers) for name in turns])


def _axis_places(faces: str) -> list[np.ndarray]:
    """The x- and T-centre stickers on an axis' two faces."""
    geo = geometry()
    return [np.array([s for s in stickers if geo.faces[s] in faces]) for stickers in (geo.x_centres, geo.t_centres)]


def _axis_table(turns: list[str], faces: str) -> np.ndarray:
    """Which of the 8 x- and the 8 T-centre places of an axis' faces hold the first face's colour, as
    one coordinate of 4,900 values: its move table."""
    return product(*(arrangement([4, 4], _maps(turns, places)) for places in _axis_places(faces)))


def _axis_value(state: np.ndarray, goal: np.ndarray, faces: str) -> int:
    colour = goal[geometry().faces.index(faces[0])]
    x, t = (coordinates.rank([4, 4], state[places] == colour) for places in _axis_places(faces))
    return x * 70 + t


def _axis_solved(faces: str) -> int:
    goal = np.array(["URFDLB".index(f) for f in geometry().faces])
    return _axis_value(goal, goal, faces)


def _reach(turns: list[str], faces: str, more: str | None = None) -> np.ndarray:
    """The values of an axis' centre coordinate (or of two axes', as pairs) the turns reach from home."""
    a = _axis_table(turns, faces)
    b = None if more is None else _axis_table(turns, more)
    home = _axis_solved(faces) * (1 if b is None else len(b)) + (0 if more is None else _axis_solved(more))
    return np.flatnonzero(distances(a, b, [home]) != UNSEEN)


def _stored(name: str, build) -> np.ndarray:
    return np.asarray(store.load_or_build("bigcube", f"cube5-{name}-v{VERSION}", {"table": name, "version": VERSION},
                                          lambda stop: build()))


def _turn_order(turns: list[str]) -> tuple[list[int], list[int]]:
    """The axis and layer number of each turn (an axis' layers in order, for ida's pruning)."""
    axis, layer = [], []
    for name in turns:
        face, depth, _ = parse_turn(name)
        axis.append(AXIS[face])
        layer.append(AXIS[face] * 4 + "URFDLB".index(face) // 3 * 2 + depth - 1)
    return axis, layer


def _orientation_table(turns: list[str]) -> np.ndarray:
    """The orientations of the 12 middle edges (of even sum: 11 bits) under the turns, as a move table."""
    geo = geometry()
    bits = (np.arange(2048)[:, None] >> np.arange(11)) & 1
    bits = np.concatenate([bits, bits.sum(1, keepdims=True) & 1], axis=1)
    table = np.empty((2048, len(turns)), dtype=np.int32)
    for t, name in enumerate(turns):
        moved = np.empty_like(bits)
        moved[:, geo.to(name, geo.midges)] = bits ^ geo.flips(name)
        table[:, t] = (moved[:, :11] << np.arange(11)).sum(1)
    return table


@lru_cache(maxsize=None)
def _flips() -> np.ndarray:
    """The 2,048 even choices of which way each edge is paired (phase 3's starts)."""
    every = (np.arange(4096)[:, None] >> np.arange(12)) & 1
    return every[every.sum(1) % 2 == 0]


@lru_cache(maxsize=None)
def phase3() -> ida.Phase:
    """Coordinates: which wing places hold wings of class 1 (a 24-bit mask), the middle edges'
    orientations, the R/L centres; tables: the mask alone (16 MB), orientation by centres (10 M)."""
    geo, turns = geometry(), TURNS[3]
    wing_moves = centres.OrbitMoves(geo.wings[:, 0].tolist(), np.array([geo.sources[t] for t in turns]),
                                    np.zeros(len(turns), dtype=np.int64))

    def wing_table():
        table = centres.build(wing_moves, int((geo.wing_class << np.arange(24)).sum()))
        dense = np.full(1 << 24, UNSEEN, dtype=np.uint8)
        dense[table.keys] = table.dist
        return dense
    orientation, rl = _orientation_table(turns), _axis_table(turns, "RL")
    oriented = lambda: distances(orientation, rl, _reach(LATER, "RL"))  # noqa: E731
    axis, layer = _turn_order(turns)
    return ida.pack(axis, layer, [wing_moves.lookups[wing_moves.effect_of], orientation, rl],
                    [(_stored("orientation-rl", oriented), 1, 2, 4900),
                     (_stored("wing-classes", wing_table), 0, -1, 1)])


def phase3_starts(state: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """(2048, 3) coordinate rows of a state, one per flip."""
    geo, now, flips = geometry(), pieces(state, goal), _flips()
    target = geo.wing_class[now.wing][None, :] ^ flips[:, geo.wing_slot[now.wing]]
    orient = (now.orientation[None, :] ^ flips[:, now.midge])[:, :11]
    return np.stack([(target << np.arange(24)).sum(1), (orient << np.arange(11)).sum(1),
                     np.full(len(flips), _axis_value(state, goal, "RL"))], axis=1)


def _apart(state: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """The edges with no piece in the S slice (phase 4 pairs four of them)."""
    geo, now = geometry(), pieces(state, goal)
    s_slice = _slots(lambda x, y, z: z == 0)
    inside = set(now.midge[s_slice]) | set(geo.wing_slot[now.wing[np.isin(geo.wing_slot, s_slice)]])
    return np.array(sorted(set(range(12)) - inside))


@dataclass(frozen=True)
class Phase4:
    search: ida.Phase
    outside: np.ndarray  # the 8 slots outside the S slice
    low: np.ndarray      # their class-0 wing places
    high: np.ndarray     # their class-1 wing places
    good: np.ndarray     # the R/L centre values phase 3 ends in


@lru_cache(maxsize=None)
def phase4() -> Phase4:
    """Coordinates: which of the 8 slots outside the S slice hold the four chosen middle edges, with
    which of them (by slot order) the wings on their class-0 places belong to, the same with the
    class-1 places (coordinates.relative: 117,600 each), the R/L and the F/B centres (4,900 each),
    the F/B x- and T-centres alone (70 each), the R/L centres among the 432 values phase 3 leaves
    them in; tables: the three edge parts together (198 M), each wing class by the F/B x- and
    T-centres (8 M each) and by the R/L centres (51 M each), the centres (24 M)."""
    geo, turns = geometry(), TURNS[4]
    outside = _slots(lambda x, y, z: z != 0)
    low, high = _wing_places(outside)
    slots = _restricted(_maps(turns, geo.midges), outside)
    wing_maps = _maps(turns, geo.wings)
    edges = [coordinates.relative(slots, _restricted(wing_maps, places)) for places in (low, high)]
    goal = [_relative_value(np.isin(outside, _slots(lambda x, y, z: y == 0)), outside, geo.wing_slot[places])
            for places in (low, high)]
    rl, fb = _axis_table(turns, "RL"), _axis_table(turns, "FB")
    paired = _stored("pairing-four", lambda: distances(edges[0], edges[1], [goal[0] * 1680 + goal[1] % 1680], 1680))
    ends = _reach(TURNS[5], "RL", "FB")
    centred = _stored("centres-rl-fb", lambda: distances(rl, fb, ends))
    # each class of wings with the F/B x- or T-centres alone (8 M each): the edges and the centres
    # move together
    alone = [arrangement([4, 4], _maps(turns, places)) for places in _axis_places("FB")]
    fb_ends = [np.unique(ends % 4900 // 70), np.unique(ends % 70)]
    mixed = [_stored(f"pairing-{c}-fb-{k}", lambda e=e, a=a, g=g, f=f: distances(e, a, (g * 70 + f[:, None]).ravel()))
             for c, e, g in (("low", edges[0], goal[0]), ("high", edges[1], goal[1]))
             for k, a, f in (("x", alone[0], fb_ends[0]), ("t", alone[1], fb_ends[1]))]
    # and with the R/L centres, within the 432 values phase 3 leaves them in (51 M each)
    good = _reach(turns, "RL")
    within = np.searchsorted(good, rl[good]).astype(np.int32)
    rl_ends = np.searchsorted(good, np.unique(ends // 4900))
    with_rl = [_stored(f"pairing-{c}-rl", lambda e=e, g=g: distances(e, within, (g * len(good) + rl_ends).ravel()))
               for c, e, g in (("low", edges[0], goal[0]), ("high", edges[1], goal[1]))]
    axis, layer = _turn_order(turns)
    return Phase4(ida.pack(axis, layer, [*edges, rl, fb, *alone, within],
                           [(mixed[0], 0, 4, 70), (mixed[1], 0, 5, 70), (mixed[2], 1, 4, 70), (mixed[3], 1, 5, 70),
                            (centred, 2, 3, 4900), (with_rl[0], 0, 6, len(good)), (with_rl[1], 1, 6, len(good)),
                            (paired, 0, 1, 1680)]),
                  outside, low, high, good)


def _relative_value(held: np.ndarray, slots: np.ndarray, wing_slots: np.ndarray) -> int:
    """A coordinates.relative value: `held` marks the slots (of `slots`) holding the marked middle
    edges, wing_slots the slot of the middle edge of each place's wing (-1: not marked)."""
    order = np.cumsum(held) * held  # 1 .. 4 by slot order
    where = {int(s): int(order[k]) for k, s in enumerate(slots)}
    labels = [where.get(int(s), 0) for s in wing_slots]
    return coordinates.rank([4, 4], held) * 1680 + coordinates.rank([4, 1, 1, 1, 1], labels)


def phase4_starts(state: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """Coordinate rows of a state, one per choice of four edges with no piece in the S slice."""
    geo, p, now = geometry(), phase4(), pieces(state, goal)
    slot_of_edge = np.empty(12, dtype=np.int64)
    slot_of_edge[now.midge] = np.arange(12)
    rows = []
    fb, rl = _axis_value(state, goal, "FB"), _axis_value(state, goal, "RL")
    centres_now = [rl, fb, fb // 70, fb % 70, int(np.searchsorted(p.good, rl))]
    for chosen in itertools.combinations(_apart(state, goal), 4):
        held = np.isin(now.midge[p.outside], chosen)
        rows.append([_relative_value(held, p.outside, np.where(np.isin(edge, chosen), slot_of_edge[edge], -1))
                     for edge in (geo.wing_slot[now.wing[p.low]], geo.wing_slot[now.wing[p.high]])] + centres_now)
    return np.array(rows, dtype=np.int64).reshape(-1, 7)


@dataclass(frozen=True)
class Phase5:
    search: ida.Phase
    layers: np.ndarray  # the 8 slots of the U and D layers
    low: np.ndarray     # their class-0 wing places
    high: np.ndarray    # and class-1
    sides: np.ndarray   # the R/L and F/B centre pairs phase 5 reaches (its side coordinate's values)


@lru_cache(maxsize=None)
def phase5() -> Phase5:
    """Coordinates: for each class-0 (and class-1) wing place of the U and D layers, the slot of
    its wing's middle edge (8! each), the U/D centres (4,900) and the side centres (the 36 R/L and
    F/B pairs phase 5 reaches), for each class-0 place the class-1 place of its wing's other wing
    (8!); tables: the centres (4,900 x 36), each wing class and the other wings by the U/D centres
    (198 M each), each wing class by the side centres (1.5 M each)."""
    geo, turns = geometry(), TURNS[5]
    layers = _slots(lambda x, y, z: y != 0)
    low, high = _wing_places(layers)
    relabel = _restricted(_maps(turns, geo.midges), layers)
    wing_maps = _maps(turns, geo.wings)
    relative = [arrangement([1] * 8, _restricted(wing_maps, places), relabel) for places in (low, high)]
    home = [coordinates.rank([1] * 8, np.searchsorted(layers, geo.wing_slot[places])) for places in (low, high)]
    ud = _axis_table(turns, "UD")
    sides = _reach(turns, "RL", "FB")
    rl, fb = _axis_table(turns, "RL"), _axis_table(turns, "FB")
    side = np.searchsorted(sides, rl[sides // 4900].astype(np.int64) * 4900 + fb[sides % 4900]).astype(np.int32)
    solved_ud = _axis_solved("UD")
    solved_side = int(np.searchsorted(sides, _axis_solved("RL") * 4900 + _axis_solved("FB")))
    centred = _stored("centres-ud-sides", lambda: distances(ud, side, [solved_ud * len(sides) + solved_side]))
    paired = [_stored(f"relative-{name}-ud", lambda r=r, h=h: distances(r, ud, [h * 4900 + solved_ud]))
              for name, r, h in (("low", relative[0], home[0]), ("high", relative[1], home[1]))]
    # the other wing of each class-0 place's wing: on which class-1 place (8!), by the U/D centres
    partner = [arrangement([1] * 8, _restricted(wing_maps, low), _restricted(wing_maps, high))]
    partner_home = coordinates.rank([1] * 8, [int(np.flatnonzero(geo.wing_slot[high] == geo.wing_slot[k])[0]) for k in low])
    partnered = _stored("partners-ud", lambda: distances(partner[0], ud, [partner_home * 4900 + solved_ud]))
    with_sides = [_stored(f"relative-{name}-sides", lambda r=r, h=h: distances(r, side, [h * len(sides) + solved_side]))
                  for name, r, h in (("low", relative[0], home[0]), ("high", relative[1], home[1]))]
    axis, layer = _turn_order(turns)
    return Phase5(ida.pack(axis, layer, [*relative, ud, side, *partner],
                           [(centred, 2, 3, len(sides)), (with_sides[0], 0, 3, len(sides)),
                            (with_sides[1], 1, 3, len(sides)), (paired[0], 0, 2, 4900), (paired[1], 1, 2, 4900),
                            (partnered, 4, 2, 4900)]),
                  layers, low, high, sides)


def phase5_starts(state: np.ndarray, goal: np.ndarray) -> np.ndarray:
    geo, p, now = geometry(), phase5(), pieces(state, goal)
    slot_of_edge = np.empty(12, dtype=np.int64)
    slot_of_edge[now.midge] = np.arange(12)
    relative = [coordinates.rank([1] * 8, np.searchsorted(p.layers, slot_of_edge[geo.wing_slot[now.wing[places]]]))
                for places in (p.low, p.high)]
    ud = _axis_value(state, goal, "UD")
    side = int(np.searchsorted(p.sides, _axis_value(state, goal, "RL") * 4900 + _axis_value(state, goal, "FB")))
    # the class-1 place (0 .. 7) of the other wing of each class-0 place's wing
    place_of = np.empty(24, dtype=np.int64)
    place_of[now.wing] = np.arange(24)
    other = {k: next(j for j in range(24) if j != k and geo.wing_slot[j] == geo.wing_slot[k]) for k in range(24)}
    partner = coordinates.rank([1] * 8, np.searchsorted(p.high, place_of[[other[int(k)] for k in now.wing[p.low]]]))
    return np.array([[*relative, ud, side, partner]], dtype=np.int64)


def prepare() -> None:
    """Load, or build once (4-6 minutes on this loaded machine), every phase's tables (980 MB) and
    search kernels: reading and checking them (several seconds under load) is one-time work for
    the process too, left out of the solve's time."""
    with one_time_work():
        goal = np.array(["URFDLB".index(f) for f in geometry().faces], dtype=np.uint8)
        for search, rows in ((phase3(), phase3_starts), (phase4().search, phase4_starts), (phase5().search, phase5_starts)):
            # the search kernels compiled (or loaded) here, not against a phase's clock
            _ways(search, rows(goal, goal)[:1], np.zeros(1, dtype=np.int64), 1, math.inf)


def _played(state: np.ndarray, turns: list[str]) -> np.ndarray:
    sources = geometry().sources
    for name in turns:
        state = state[sources[name]]
    return state


def _ways(search: ida.Phase, starts: np.ndarray, lengths: np.ndarray, want: int, stop_at: float,
          keep=lambda start, path: True) -> list[tuple[int, list[int]]]:
    """Up to `want` (start index, turn indices) to the phase's goal that `keep` accepts, all of the
    shortest whole (lengths[start] + turns) that has some, by IDA* with the whole's bound raised
    one by one (the next bound would cost about ten times more); none when the clock
    (time.perf_counter) passes `stop_at` first. Past SETTLE of the time, the ways for one wanted
    (FOUND) are enough. A cancel raises Cancelled (within POLL seconds)."""
    bounds = lengths + np.array([ida.bound(search, row) for row in starts])
    order = np.argsort(bounds, kind="stable")  # the most promising starts first: the first ways come sooner
    settle_at = time.perf_counter() + SETTLE * (stop_at - time.perf_counter())
    with (deadline.current() or Budget()).watching() as stop:
        for total in range(int(bounds.min()), int(bounds.min()) + LONGER):
            for settle in (settle_at, math.inf):  # settled on ways `keep` refuses all: this bound again
                got, out_of_time, nodes = ida.search(search, starts[order], lengths[order], total, FOUND * want,
                                                     stop_at, stop, enough=FOUND, settle_at=settle)
                NODES[0] += nodes
                deadline.check()  # a cancel (or the whole solve's time) stops the solve here
                found = [(int(order[s]), path) for s, path in got if keep(int(order[s]), path)]
                if found or not (got and out_of_time) or time.perf_counter() >= stop_at:
                    break
            if found or out_of_time:
                return found[:want]
    return []


FOUND = 4  # ways found for each one wanted (phase 3's keep passes about half)
# Of a phase's time, after which FOUND ways end its search: the last bound's search that collects
# FOUND * WAYS took 5-10 s on one 5x5x5 in five (phase 3; 0.3-0.8 s on most, at load 2), when the
# later phases then ran out of time, the pairing fell back to greedy macros (30-40 turns more).
SETTLE = 0.5
NODES = [0]  # searched, for benches
LONGER = 12  # turns past a phase's first bound at which it gives up (none was needed in tests)


@lru_cache(maxsize=None)
def _turned_over() -> Rotation:
    """The quarter rotation about the R/L axis: it takes the E slice onto the S slice and keeps
    every phase's turn set, the middle edges' orientation and the wing classes (up to their names)."""
    return next(r for r in rotations(N) if r.back["R"] == "R" and r.back["U"] in "FB")


def _rotated(state: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """The state turned over (_turned_over), its colours renamed so that its goal is `goal` again."""
    sources = _turned_over().sources
    rename = np.zeros(256, dtype=np.uint8)
    rename[goal[sources]] = goal
    return rename[state[sources]]


def reduce(state: np.ndarray, goal: np.ndarray, done: int, stop_at: float) -> list[list[str]]:
    """Ways (catalog turns) from a state with its centres on their axes and even wings (after `done`
    turns) to centres home and edges paired, shortest first (phase by phase, each phase's ways all
    taken on); none when the clock (time.perf_counter) passes `stop_at` first. Phase 3's ends
    with more than 8 edges in the S slice but at most 8 in the E slice go on turned over."""
    def share(k):
        return time.perf_counter() + SHARES[k] * (stop_at - time.perf_counter())
    names = TURNS[3]
    ends3 = {}

    def apart(start, path):
        reached = _played(state, [names[t] for t in path])
        if len(_apart(reached, goal)) < 4:
            reached = _rotated(reached, goal)
            if len(_apart(reached, goal)) < 4:
                return False
            ends3[start, tuple(path)] = (reached, True)
        else:
            ends3[start, tuple(path)] = (reached, False)
        return True
    starts = phase3_starts(state, goal)
    found = _ways(phase3(), starts, np.full(len(starts), done), WAYS[3], share(3), apart)
    ways = [([names[t] for t in path], *ends3[start, tuple(path)]) for start, path in found]
    for k, rows in ((4, phase4_starts), (5, phase5_starts)):
        if not ways:
            return []
        starts = [rows(reached, goal) for _, reached, _ in ways]
        owner = [w for w, more in zip(ways, starts) for _ in range(len(more))]
        search = phase4().search if k == 4 else phase5().search
        found = _ways(search, np.concatenate(starts), np.array([done + len(w[0]) for w in owner]), WAYS[k],
                      share(k))
        ways = []
        for start, path in found:
            turns, reached, over = owner[start]
            more = [TURNS[k][t] for t in path]
            ways.append((turns + (_turned_over().unrotate(more) if over else more), _played(reached, more), over))
    return [turns for turns, _, _ in ways]
