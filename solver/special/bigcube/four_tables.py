"""The 4x4x4's pieces as the coordinates of its three-phase reduction (four_search.py), with their
move tables and exact distance tables.

The reduction has a special axis, U/D (the state is rotated for the others):

1. the U and D colours' centres onto the U and D faces, among all 36 turns (the 735,471 masks of
   short.centre_table);
2. among the 28 turns that keep them there (outer turns, Uw and Dw, the other wide half turns),
   every centre onto its own axis, the U/D centres in an arrangement phase 3 can bring home,
   every wing an even permutation, and each composite edge with one wing in each *class*;
3. among the 20 turns of G3 (R, L, F, B, U2, D2 and the six wide half turns) every centre home and
   every edge paired, its permutation of the same parity as the corners': the 3x3x3 left needs
   no parity algorithm.

G3 splits the 24 wing places into two classes of 12 (no turn of it takes a wing from one to the
other), one place of each composite edge in each. A wing piece's class is where it sits, so phase 2
ends with one wing of every edge in each class, and an even number of them out of their home
class (else no G3 sequence pairs them: the 3x3x3's edge flips would be odd). Phase 3 sees the
wings as r, a permutation of the 12 composite edges (*slots*): for each High place, the slot whose
Low place holds the other wing of its edge; every edge is paired when r is the identity.

Coordinates (ranks of masks among their places, `_ranks`):
- phase 1: the 24-bit mask of the places holding U/D colours;
- phase 2: `ud` (which 4 of the 8 U/D places hold the U colour, 70) x `side` (which 8 of the 16
  other places hold R/L colours, 12,870) x the wing parity;
- phase 3: `ud`, `rl` (R colour among the R/L places), `fb` (F among F/B) x `p`, the parity of
  the edges' permutation (read off the Low wings) against the corners'; and r (12!/2 values,
  even, as G3 turns both classes alike), folded by the four symmetries that keep each class
  (edge_index): 61.7 million entries; and the goal ball, every whole phase-3 state within BALL
  turns of the goal (joint_key).

The tables are one-time work, kept in the table cache (store.py): 1.8 MB, 0.7 MB, 31 MB, 10 MB.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import deadline, perm
from solver.compiled import njit
from solver.special import store
from solver.special.bigcube import centres, short
from solver.special.bigcube.model import parse_turn

VERSION = 1  # of the stored tables
FACES = "URFDLB"
N = 4


def _keeps_ud(name: str) -> bool:
    """Phase 2's turns: those keeping the U/D colours on U/D (short.KEEPS["UD"])."""
    return short.KEEPS["UD"](*parse_turn(name))


def _in_g3(name: str) -> bool:
    """Phase 3's turns: quarter turns of R, L, F, B, half turns of U and D, wide half turns."""
    face, depth, quarters = parse_turn(name)
    return quarters == 2 or (depth == 1 and face not in "UD")


@dataclass(frozen=True)
class Cube:
    """The catalog 4x4x4's turns on its centre and wing pieces."""
    names: list[str]
    sources: np.ndarray        # (36, 96) sticker sources of each turn
    centres: np.ndarray        # the 24 centre stickers (short.plan's centre orbit order)
    centre_faces: np.ndarray   # home face of each (index in FACES)
    wings: np.ndarray          # one sticker per wing place (short.plan's wing orbit order)
    partner: np.ndarray        # the other sticker of the wing at each place
    centre_moves: np.ndarray   # (36, 24): the centre place each place's new piece comes from
    wing_moves: np.ndarray     # (36, 24): likewise for wing places
    wing_flip: np.ndarray      # (36,) the turn's parity on the wings
    corner_flip: np.ndarray    # (36,) its parity on the corners
    phase2: np.ndarray         # turn indices of phase 2, phase 3
    phase3: np.ndarray
    low: np.ndarray            # the wing places of one G3 class (the middle layer's first): slots 0-11
    high: np.ndarray           # the other place of each slot's composite edge
    home_low: np.ndarray       # (24,) whether the wing place is in Low
    edge: np.ndarray           # (24,) composite edge of each wing place (index in low)


@lru_cache(maxsize=None)
def cube() -> Cube:
    p = short.plan(N)
    names, sources = p.names, p.moves.sources
    centres = np.asarray(p.centre_orbits[0].positions)
    (orbit,) = p.wing_orbits
    wings = np.asarray(orbit.positions)
    partner = np.array([orbit.partner[int(s)] for s in wings])
    at = {int(s): k for k, s in enumerate(centres)}
    wing_at = {int(s): k for k, s in enumerate(wings)} | {int(s): k for k, s in enumerate(partner)}
    centre_moves = np.array([[at[int(src[s])] for s in centres] for src in sources])
    wing_moves = np.array([[wing_at[int(src[s])] for s in wings] for src in sources])
    corners = [stickers for stickers in p.cube.pieces.values() if len(stickers) == 3]
    corner_at = {s: k for k, stickers in enumerate(corners) for s in stickers}
    corner_flip = np.array([perm.parity([corner_at[int(src[c[0]])] for c in corners]) for src in sources])
    phase2 = np.array([k for k, name in enumerate(names) if _keeps_ud(name)])
    phase3 = np.array([k for k, name in enumerate(names) if _in_g3(name)])
    roots = perm.orbit_roots(24, wing_moves[phase3])  # the classes: wing places joined by G3's turns
    edge_of, vertical = {}, set()
    for k, s in enumerate(wings):
        cubie = p.cube.cubie_of(int(s))
        along = next(i for i, c in enumerate(cubie) if abs(c) != N - 1)
        edge_of.setdefault(tuple(c if i != along else None for i, c in enumerate(cubie)), []).append(k)
        if along == 1:
            vertical.add(k)
    # the middle layer's slots first (the symmetries keep them among themselves: edge_index)
    low = np.array(sorted((k for k in range(24) if roots[k] == roots[0]), key=lambda k: (k not in vertical, k)))
    other = {a: b for a, b in edge_of.values()} | {b: a for a, b in edge_of.values()}
    high = np.array([other[int(k)] for k in low])
    assert sorted(set(low) | set(high)) == list(range(24)) and all(roots[int(h)] != roots[0] for h in high)
    edge = np.zeros(24, dtype=np.int64)
    edge[low], edge[high] = np.arange(12), np.arange(12)
    return Cube(names, sources, centres, np.array([FACES.index(p.cube.faces[int(s)]) for s in centres]),
                wings, partner, centre_moves, wing_moves,
                np.array([perm.parity(w) for w in wing_moves]), corner_flip, phase2, phase3,
                low, high, np.isin(np.arange(24), low), edge)


# --- coordinates -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _ranks(places: int, chosen: int) -> tuple[np.ndarray, np.ndarray]:
    """(rank of each mask of `places` bits with `chosen` set, -1 for others; the masks by rank)."""
    masks = np.array([sum(1 << i for i in c) for c in itertools.combinations(range(places), chosen)])
    rank = np.full(1 << places, -1, dtype=np.int64)
    rank[masks] = np.arange(len(masks))
    return rank, masks


def _mask(bits: np.ndarray) -> np.ndarray:
    """(K, n) booleans -> (K,) integer masks, bit i for column i."""
    return bits.astype(np.int64) @ (1 << np.arange(bits.shape[1], dtype=np.int64))


@lru_cache(maxsize=None)
def places(faces: str) -> np.ndarray:
    """The centre places (indices in Cube.centres) of the faces, in order."""
    c = cube()
    return np.flatnonzero(np.isin(c.centre_faces, [FACES.index(f) for f in faces]))


def rank_of(centre_faces: np.ndarray, faces: str, wanted: str) -> np.ndarray:
    """(K,) rank of which of `faces`' places hold a centre of the `wanted` faces, for K states of
    the centres (rows of face indices); -1 when their count is not the places' share."""
    where = places(faces)
    hit = np.isin(centre_faces[:, where], [FACES.index(f) for f in wanted])
    rank, _ = _ranks(len(where), len(where) * len(wanted) // len(faces))
    return rank[_mask(hit)]


def _move_table(faces: str, wanted: str, turns: np.ndarray) -> np.ndarray:
    """(rank, turn) -> rank for the coordinate rank_of(., faces, wanted), among `turns` (which keep
    the faces' places among themselves)."""
    c = cube()
    where = places(faces)
    _, masks = _ranks(len(where), len(where) * len(wanted) // len(faces))
    # a centre state per rank: the wanted faces' colour on the chosen places, another on the rest
    states = np.full((len(masks), 24), FACES.index("U") if "U" not in wanted else FACES.index("R"))
    outside = next(f for f in faces if f not in wanted)
    states[:, where] = np.where((masks[:, None] >> np.arange(len(where))) & 1, FACES.index(wanted[0]), FACES.index(outside))
    return np.stack([rank_of(states[:, c.centre_moves[m]], faces, wanted) for m in turns], axis=1)


# phase 2: (ud, side, wing parity)
UD, SIDE = 70, 12870


@lru_cache(maxsize=None)
def phase2_moves() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move tables of phase 2's turns: ud (70, 28), side (12870, 28), wing parity flips (28,)."""
    c = cube()
    return (_move_table("UD", "U", c.phase2), _move_table("RFLB", "RL", c.phase2),
            c.wing_flip[c.phase2].astype(np.int64))


@lru_cache(maxsize=None)
def phase3_moves() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Move tables of phase 3's turns: ud, rl, fb (70, 20) and the flips of p (20,)."""
    c = cube()
    edge_flip = np.array([perm.parity([int(c.edge[c.wing_moves[m][k]]) for k in c.low]) for m in c.phase3])
    return (_move_table("UD", "U", c.phase3), _move_table("RL", "R", c.phase3), _move_table("FB", "F", c.phase3),
            (edge_flip ^ c.corner_flip[c.phase3]).astype(np.int64))


def centre_home() -> tuple[int, int, int]:
    """(ud, rl, fb) of the centres home."""
    home = cube().centre_faces[None]
    return tuple(int(rank_of(home, faces, wanted)[0]) for faces, wanted in (("UD", "U"), ("RL", "R"), ("FB", "F")))


@lru_cache(maxsize=None)
def phase3_centre_table() -> np.ndarray:
    """Exact distances among G3 of (p, ud, rl, fb), flattened in that order (2 x 70 x 70 x 70), to
    the centres home with p even; -1 where G3 never gets there."""
    def build(stop):
        ud, rl, fb, flip = phase3_moves()
        a, b, f = centre_home()
        return centres.product_distances([_parity_moves(flip), ud, rl, fb], [(0, a, b, f)])
    return np.asarray(store.load_or_build("bigcube", f"cube4-phase3-centres-v{VERSION}", {"version": VERSION}, build))


@lru_cache(maxsize=None)
def phase2_goals() -> np.ndarray:
    """The ud ranks phase 3 brings home (whatever the other centres and p): phase 2's goal."""
    table = phase3_centre_table().reshape(2, UD, UD, UD)
    return np.flatnonzero((table >= 0).all(axis=(0, 2, 3)))


@lru_cache(maxsize=None)
def phase2_table() -> np.ndarray:
    """Exact distances among phase 2's turns of (wing parity, ud, side), flattened in that order
    (2 x 70 x 12,870), to its goal: the ud ranks of phase2_goals, every other centre on its axis,
    even wings."""
    def build(stop):
        ud, side, flip = phase2_moves()
        home = int(rank_of(cube().centre_faces[None], "RFLB", "RL")[0])
        return centres.product_distances([_parity_moves(flip), ud, side], [(0, u, home) for u in phase2_goals()])
    return np.asarray(store.load_or_build("bigcube", f"cube4-phase2-v{VERSION}", {"version": VERSION}, build))


def _parity_moves(flips: np.ndarray) -> np.ndarray:
    """A parity bit's move table: (2, turns)."""
    return np.arange(2)[:, None] ^ flips[None, :]


# phase 3's wings: the relative permutation of the two classes

@lru_cache(maxsize=None)
def wing_steps() -> tuple[np.ndarray, np.ndarray]:
    """(20, 12) each: the slot phase 3's turns take the wing at each Low slot to, and the slot
    each High slot's new wing comes from."""
    c = cube()
    slot = np.full(24, -1)
    slot[c.low], slot[c.high] = np.arange(12), np.arange(12)
    to_low, from_high = [], []
    for m in c.phase3:
        goes = np.empty(24, dtype=np.int64)
        goes[c.wing_moves[m]] = np.arange(24)  # the place the piece at each place goes to
        to_low.append(slot[goes[c.low]])
        from_high.append(slot[c.wing_moves[m][c.high]])
    return np.array(to_low), np.array(from_high)


@lru_cache(maxsize=None)
def symmetries() -> np.ndarray:
    """(4, 12): the slots the half turns of the whole cube about its axes (and none) take each
    slot to. They map G3 onto itself and each class onto itself, so the distance of the wings'
    relative permutation r is that of s r s^-1; they keep the four slots of the middle layer
    (the first four) among themselves."""
    c = cube()
    p = short.plan(N).cube
    at = {int(s): k for k, s in enumerate(c.wings)}
    slot = np.full(24, -1)
    slot[c.low] = np.arange(12)
    out = []
    for signs in ((1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)):
        places = [at[p.index_of[tuple(a * b for a, b in zip(signs, p.points[int(s)]))]] for s in c.wings[c.low]]
        out.append(slot[places])
    out = np.array(out)
    assert (out >= 0).all() and (np.sort(out[:, :4], axis=1) == np.arange(4)).all()
    return out


ARRANGED = 12 * 11 * 10 * 9  # images of the four middle slots
REST = 8 * 7 * 6 * 5 * 4 * 3  # images of six more slots (the last two follow from the parity)


@dataclass(frozen=True)
class EdgeIndex:
    """The edge table's index of r (High slot -> Low slot of its partner): the class of r's images
    of the middle slots under the symmetries (`of`, with the symmetries that take them to the
    class's representative), times REST, plus the least rank of the images of slots 4-9 among
    the eight values left, over those symmetries."""
    of: np.ndarray        # (ARRANGED,) class of each arrangement of the middle slots' images
    taking: np.ndarray    # (ARRANGED,) bit mask of the symmetries taking it to the representative
    first: np.ndarray     # (classes, 4) the representative
    rest: np.ndarray      # (classes, 8) the values it leaves, ascending
    rest_rank: np.ndarray  # (classes, 12) the index of each value among those (-1: taken)
    symmetries: np.ndarray
    inverses: np.ndarray
    ones: np.ndarray      # bits set in each 12-bit number


@lru_cache(maxsize=None)
def edge_index() -> EdgeIndex:
    syms = symmetries()
    inverses = np.argsort(syms, axis=1)
    arrangements = np.array(list(itertools.permutations(range(12), 4)))
    ones = np.array([bin(k).count("1") for k in range(1 << 12)], dtype=np.int64)
    ranks = np.array([_arrangement_rank(a, 12, ones) for a in arrangements])
    order = np.argsort(ranks)
    arrangements = arrangements[order]  # by rank
    images = [syms[s][arrangements[:, inverses[s][:4]]] for s in range(4)]  # (s r s^-1) on the middle slots
    image_ranks = np.stack([[_arrangement_rank(a, 12, ones) for a in image] for image in images])
    least = image_ranks.min(axis=0)
    representatives, of = np.unique(least, return_inverse=True)
    taking = ((image_ranks == least[None]) * (1 << np.arange(4))[:, None]).sum(axis=0)
    first = arrangements[representatives]
    rest = np.array([[v for v in range(12) if v not in row] for row in first])
    rest_rank = np.full((len(first), 12), -1)
    for k, row in enumerate(rest):
        rest_rank[k, row] = np.arange(8)
    return EdgeIndex(of, taking, first, rest, rest_rank, syms, inverses, ones)


def _arrangement_rank(values, n: int, ones: np.ndarray) -> int:
    rank, used = 0, 0
    for i, v in enumerate(values):
        rank = rank * (n - i) + int(v) - int(ones[used & ((1 << int(v)) - 1)])
        used |= 1 << int(v)
    return rank


def relative(wings: np.ndarray) -> np.ndarray:
    """r of a state's wings (piece at each place) whose classes hold one wing of each edge: for
    each High slot, the Low slot holding the other wing of its edge."""
    c = cube()
    low_slot = np.empty(12, dtype=np.int64)
    low_slot[c.edge[wings[c.low]]] = np.arange(12)
    return low_slot[c.edge[wings[c.high]]]


# The edge table's breadth-first search goes forward from the goal up to FORWARD turns (the layers
# grow to 17 million states at 10 and 31 million at 11), then backward: each state not reached
# yet looks for a neighbour one turn nearer, which a state of the last layers finds after a few.
FORWARD = 11
DEEPEST = 13  # what the states left after the backward layer are (the whole search ends there)


@lru_cache(maxsize=None)
def edge_table() -> np.ndarray:
    """Exact distances among G3 of r (edge_rank) to the identity (every edge paired), two per
    byte (edge_distance)."""
    def build(stop):
        to_low, from_high = wing_steps()
        ix = edge_index()
        dist = _edge_bfs(to_low, from_high, ix.of, ix.taking, ix.first, ix.rest, ix.rest_rank, ix.symmetries,
                         ix.inverses, ix.ones, FORWARD, stop)
        return (dist[0::2] | dist[1::2] << 4).astype(np.uint8)
    return np.asarray(store.load_or_build("bigcube", f"cube4-edges-v{VERSION}", {"version": VERSION}, build))


@njit(cache=True, nogil=True, inline="always")
def edge_distance(table, index):
    return (table[index >> 1] >> ((index & 1) << 2)) & 15


@njit(cache=True, nogil=True, inline="always")
def _rank(values, start, count, n, ones, remap, row):
    """Arrangement rank of values[start:start + count] among n values (remapped by remap[row] when
    row >= 0)."""
    rank = 0
    used = 0
    for i in range(count):
        v = values[start + i] if row < 0 else remap[row, values[start + i]]
        rank = rank * (n - i) + v - ones[used & ((1 << v) - 1)]
        used |= 1 << v
    return rank


@njit(cache=True, nogil=True)
def edge_rank(r, of, taking, rest_rank, symmetries, inverses, ones, scratch):
    """The edge table's index of r (EdgeIndex); `scratch`: 12 values."""
    raw = _rank(r, 0, 4, 12, ones, rest_rank, -1)
    k = of[raw]
    if taking[raw] == 1:  # the identity alone (most of them)
        return k * REST + _rank(r, 4, 6, 8, ones, rest_rank, k)
    best = REST
    for s in range(4):
        if not (taking[raw] >> s) & 1:
            continue
        for j in range(12):
            scratch[j] = symmetries[s, r[inverses[s, j]]]
        best = min(best, _rank(scratch, 4, 6, 8, ones, rest_rank, k))
    return k * REST + best


@njit(cache=True, nogil=True)
def _edge_bfs(to_low, from_high, of, taking, first, rest, rest_rank, symmetries, inverses, ones, forward, stop):
    size = len(first) * REST
    dist = np.full(size, -1, dtype=np.int8)
    seen = np.zeros((size >> 6) + 1, dtype=np.uint64)  # dist >= 0, as bits: 8 MB, read at every turn
    r = np.arange(12)
    turned = np.empty(12, dtype=np.int64)
    scratch = np.empty(12, dtype=np.int64)
    free = np.empty(8, dtype=np.int64)
    bases = np.ones(6, dtype=np.int64)
    for i in range(4, -1, -1):
        bases[i] = bases[i + 1] * (8 - i - 1)
    goal = edge_rank(r, of, taking, rest_rank, symmetries, inverses, ones, scratch)
    dist[goal] = 0
    seen[goal >> 6] |= np.uint64(1) << np.uint64(goal & 63)
    for depth in range(DEEPEST):
        backward = depth >= forward
        for index in range(size):
            if dist[index] != (-1 if backward else depth):
                continue
            if stop[0]:
                return dist
            k, code = index // REST, index % REST
            for i in range(4):
                r[i] = first[k, i]
            for i in range(8):
                free[i] = rest[k, i]
            count = 8
            for i in range(6):  # the digits of the arrangement, most significant first
                digit = code // bases[i]
                code %= bases[i]
                r[4 + i] = free[digit]
                for j in range(digit, count - 1):
                    free[j] = free[j + 1]
                count -= 1
            r[10], r[11] = free[0], free[1]
            if _odd(r):
                r[10], r[11] = free[1], free[0]
            for m in range(to_low.shape[0]):
                for j in range(12):
                    turned[j] = to_low[m, r[from_high[m, j]]]
                child = edge_rank(turned, of, taking, rest_rank, symmetries, inverses, ones, scratch)
                if backward:  # (marked in place: the layer's scan compares with depth, not depth + 1)
                    if dist[child] == depth:
                        dist[index] = depth + 1
                        break
                elif not (seen[child >> 6] >> np.uint64(child & 63)) & np.uint64(1):
                    seen[child >> 6] |= np.uint64(1) << np.uint64(child & 63)
                    dist[child] = depth + 1
    for index in range(size):
        if dist[index] < 0:
            dist[index] = DEEPEST
    return dist


@njit(cache=True, nogil=True)
def _odd(p):
    odd = 0
    for i in range(len(p)):
        for j in range(i + 1, len(p)):
            odd ^= p[i] > p[j]
    return odd


# phase 3's goal ball: every state within BALL turns of the goal, whole (centres, p and wings)

BALL = 6
FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800], dtype=np.int64)


@njit(cache=True, nogil=True)
def joint_key(coords, r, ones):
    """A phase-3 state as one number: r's rank among the 12! permutations, then p, ud, rl, fb."""
    rank = 0
    used = 0
    for i in range(12):
        v = r[i]
        rank += (v - ones[used & ((1 << v) - 1)]) * FACTORIALS[11 - i]
        used |= 1 << v
    return ((rank * 2 + coords[0]) * UD + coords[1]) * UD * UD + coords[2] * UD + coords[3]


@lru_cache(maxsize=None)
def goal_ball() -> np.ndarray:
    """Every phase-3 state within BALL turns of the goal, as joint_key * 8 + its distance,
    ascending (1.3 million states, 10 MB; ball_distance)."""
    def build(stop):
        ud, rl, fb, flip = phase3_moves()
        to_low, from_high = wing_steps()
        ones = edge_index().ones
        coords = np.array([[0, *centre_home()]])
        relative = np.arange(12)[None]
        layers = [_keys(coords, relative, ones)]
        seen = layers[0]
        for depth in range(BALL):
            deadline.check()
            coords = np.concatenate([np.stack([coords[:, 0] ^ flip[m], ud[coords[:, 1], m], rl[coords[:, 2], m],
                                               fb[coords[:, 3], m]], axis=1) for m in range(len(flip))])
            relative = np.concatenate([to_low[m][relative[:, from_high[m]]] for m in range(len(flip))])
            keys, first = np.unique(_keys(coords, relative, ones), return_index=True)
            fresh = ~np.isin(keys, seen)
            coords, relative = coords[first[fresh]], relative[first[fresh]]
            layers.append(keys[fresh])
            seen = np.union1d(seen, keys[fresh])
        return np.sort(np.concatenate([keys * 8 + d for d, keys in enumerate(layers)]))
    return np.asarray(store.load_or_build("bigcube", f"cube4-goal-ball-{BALL}-v{VERSION}", {"version": VERSION}, build))


@njit(cache=True, nogil=True)
def ball_distance(ball, key):
    """The distance of the state of joint_key `key` to the goal, or -1 when over BALL."""
    at = np.searchsorted(ball, key * 8)
    if at < len(ball) and ball[at] >> 3 == key:
        return ball[at] & 7
    return -1


@njit(cache=True, nogil=True)
def _keys(coords, relative, ones):
    keys = np.empty(len(coords), dtype=np.int64)
    for i in range(len(coords)):
        keys[i] = joint_key(coords[i], relative[i], ones)
    return keys
