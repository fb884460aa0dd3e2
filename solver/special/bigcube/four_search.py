"""The 4x4x4's three-phase reduction: IDA* per phase over four_tables' coordinates, each phase
handing many solutions to the next, so that the next can choose (the phases are not independent:
the shortest whole comes from trying several phase-1 and phase-2 solutions, as in cs0x7f's
TPR-4x4x4-Solver, after Tsai's method). docs/bigcube.md has the design and the figures.

`reductions` runs the phases on a state seen with each axis as the special one (rotations of the
state, each with the same goal), pooled:

1. every phase-1 solution of the shortest lengths (up to PHASE1_SOLUTIONS), ending with a turn
   phase 2 does not have (else a shorter one plus that turn is there already);
2. phase 2 from those whose length plus their phase-2 distance is least first, lengths in all
   growing, until PHASE2_SOLUTIONS are found; the centres' table prunes, and a path that ends
   with centres done is kept when its wings are split into phase 3's classes (four_tables),
   about one in 1,300 of random wings, so phase 2 finds many centre paths for each one it keeps;
3. phase 3 after a quick way by beam search, then the shortest by IDA* over all phase-2
   solutions as a portfolio (`third_phase`), until REDUCTIONS of the best length are found.

What comes out is catalog turns to a state whose centres are home, edges paired and with no
parity: the two-phase 3x3x3 solver finishes (reduction.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import perm
from solver.compiled import njit
from solver.search.budget import Budget
from solver.special.bigcube import four_tables as tables
from solver.special.bigcube import short
from solver.special.bigcube.four_tables import SIDE, UD

PHASE1_SOLUTIONS = 150  # phase-1 solutions handed to phase 2 at most
PHASE1_SPAN = 2  # lengths tried beyond the shortest phase-1 solution
PHASE2_SOLUTIONS = 16  # phase-2 solutions handed to phase 3 at most
PER_CANDIDATE = 1  # phase-2 solutions kept per phase-1 solution and length: 4 made phase 3 far harder
REDUCTIONS = 4  # ways handed to the 3x3x3 stage at most
FIRST_ALLOWANCE = 20_000  # nodes per phase-3 search in the first round (doubled every round)
BEAM, BEAM_DEPTH = 2000, 24  # phase 3's first way (_beam)
NONE = 36  # no turn before
FOUND, NOT_FOUND, CUT_SHORT = 1, 0, -1


@dataclass(frozen=True)
class Searches:
    """What the kernels read, loaded (or built once) per process before a solve's clock starts."""
    allowed: np.ndarray     # (37, 36): whether turn m may follow turn p (NONE: at the start)
    centre_lookups: np.ndarray  # (36, 3, 256): phase 1's mask bytes turned
    phase1: np.ndarray      # dense distances by mask (16 MB)
    phase1_end: np.ndarray  # (36,) may end phase 1: not a phase-2 turn
    phase2: np.ndarray
    phase2_end: np.ndarray  # (28,) may end phase 2: not a G3 turn
    phase3_centres: np.ndarray
    edges: np.ndarray
    ball: np.ndarray
    edge_index: tables.EdgeIndex
    phase2_moves: tuple[np.ndarray, ...]  # four_tables.phase2_moves
    phase3_moves: tuple[np.ndarray, ...]  # four_tables.phase3_moves
    wing_steps: tuple[np.ndarray, np.ndarray]


@lru_cache(maxsize=None)
def searches() -> Searches:
    c = tables.cube()
    p = short.plan(4)
    axis, key = p.moves.axis, p.moves.key
    allowed = np.ones((NONE + 1, NONE), dtype=np.bool_)
    for before in range(NONE):
        for m in range(NONE):  # turns of one axis commute: in one order only, a layer once
            allowed[before, m] = axis[before] != axis[m] or key[before] < key[m]
    orbit_moves = short._orbit_moves(4, 0, "all")
    table = short.centre_table(4, 0, "UD")
    in_phase3 = np.isin(np.arange(NONE), c.phase3)
    return Searches(allowed, orbit_moves.lookups[orbit_moves.effect_of], table.dense,
                    ~np.isin(np.arange(NONE), c.phase2), tables.phase2_table(), ~in_phase3[c.phase2],
                    tables.phase3_centre_table(), tables.edge_table(), tables.goal_ball(), tables.edge_index(),
                    tables.phase2_moves(), tables.phase3_moves(), tables.wing_steps())


@dataclass
class Reduction:
    """A way through the phases of one rotation of the state (its index in the rotations given)."""
    rotation: int
    turns: list[int]  # catalog turn indices (short.plan(4).names)
    lengths: tuple[int, ...]  # of each phase


class _Pieces:
    """How a state's stickers (colour codes) read as pieces, given its goal."""

    def __init__(self, goal: np.ndarray):
        c = tables.cube()
        self.face_of = np.zeros(256, dtype=np.int64)
        self.face_of[goal[c.centres]] = c.centre_faces
        self.wing_of = {(int(goal[s]), int(goal[t])): k for k, (s, t) in enumerate(zip(c.wings, c.partner))}
        cube = short.plan(4).cube
        self.corners = [stickers for stickers in cube.pieces.values() if len(stickers) == 3]
        self.corner_of = {frozenset(int(goal[s]) for s in stickers): k for k, stickers in enumerate(self.corners)}

    def wings(self, state: np.ndarray) -> np.ndarray:
        c = tables.cube()
        return np.array([self.wing_of[(int(state[s]), int(state[t]))] for s, t in zip(c.wings, c.partner)])

    def centre_faces(self, state: np.ndarray) -> np.ndarray:
        return self.face_of[state[tables.cube().centres]]

    def corner_parity(self, state: np.ndarray) -> int:
        return perm.parity([self.corner_of[frozenset(int(state[s]) for s in stickers)] for stickers in self.corners])


def _play(state: np.ndarray, turns) -> np.ndarray:
    sources = tables.cube().sources
    for m in turns:
        state = state[sources[m]]
    return state


@dataclass
class _Stops:
    """The kernels' stop flags: `early` at the phases' own deadline, `hard` at the budget's end
    (both on a cancel). A phase with nothing found yet goes on until the hard one: an answer of
    the reduction's own is worth much more than the 3-cycles' (about 390 turns)."""
    early: np.ndarray
    hard: np.ndarray

    def flag(self, found: bool) -> np.ndarray:
        return self.early if found else self.hard

    def done(self, found: bool) -> bool:
        return bool(self.hard[0] or (found and self.early[0]))


def reductions(states: list[np.ndarray], goal: np.ndarray, budget: Budget, seconds: float,
               nodes: np.ndarray | None = None) -> list[Reduction]:
    """Ways (shortest first) to a reduced state from each of `states` (the state seen with each
    axis as the special one: sticker colour codes, each with `goal`), up to REDUCTIONS: those
    found in `seconds`, or later the first one found within the budget; none when not even that.
    `nodes` (three counters) adds up the nodes each phase searched."""
    pieces = _Pieces(goal)
    nodes = np.zeros(3, dtype=np.int64) if nodes is None else nodes
    with budget.watching() as hard, budget.part(seconds).watching() as early:
        stops = _Stops(early, hard)
        first = first_phase(states, pieces, stops, nodes[0:1])
        second = second_phase(states, pieces, first, stops, nodes[1:2])
        return third_phase(states, pieces, second, stops, nodes[2:3])


def first_phase(states: list[np.ndarray], pieces: _Pieces, stops: _Stops, nodes: np.ndarray
                ) -> list[tuple[int, list[int]]]:
    """Phase-1 solutions, (rotation, catalog turns), of the shortest lengths of all rotations and
    PHASE1_SPAN more, up to PHASE1_SOLUTIONS."""
    s = searches()
    masks = [int(tables._mask((pieces.centre_faces(st) % 3 == 0)[None])[0]) for st in states]
    first: list[tuple[int, list[int]]] = []
    shortest = min(int(s.phase1[m]) for m in masks)
    for length in range(shortest, shortest + PHASE1_SPAN + 1):
        for r, mask in enumerate(masks):
            if s.phase1[mask] > length or len(first) >= PHASE1_SOLUTIONS or stops.done(bool(first)):
                continue
            if length == 0:
                first.append((r, []))
                continue
            out = np.zeros((PHASE1_SOLUTIONS - len(first), length), dtype=np.int64)
            found = _phase1(mask, length, s.centre_lookups, s.phase1, s.allowed, s.phase1_end, out,
                            stops.flag(bool(first)), nodes)
            first += [(r, list(row)) for row in out[:found]]
    return first


def second_phase(states: list[np.ndarray], pieces: _Pieces, first: list[tuple[int, list[int]]], stops: _Stops,
                 nodes: np.ndarray) -> list[tuple[int, list[int], tuple[int, int]]]:
    """Phase-2 solutions after phase-1 ones, (rotation, catalog turns of both, their lengths),
    shortest in all first, up to PHASE2_SOLUTIONS."""
    s = searches()
    c = tables.cube()
    ud2, side2, flip2 = s.phase2_moves
    candidates = []  # (l1 + h2, rotation, turns, (parity, ud, side), wings)
    for r, turns in first:
        st = _play(states[r], turns)
        faces = pieces.centre_faces(st)[None]
        wings = pieces.wings(st)
        parity = perm.parity(wings)
        ud = int(tables.rank_of(faces, "UD", "U")[0])
        side = int(tables.rank_of(faces, "RFLB", "RL")[0])
        h = int(s.phase2[(parity * UD + ud) * SIDE + side])
        candidates.append((len(turns) + h, r, turns, (parity, ud, side), wings))
    candidates.sort(key=lambda entry: entry[0])
    second: list[tuple[int, list[int], tuple[int, int]]] = []
    total = candidates[0][0] if candidates else 0
    while candidates and len(second) < PHASE2_SOLUTIONS and not stops.done(bool(second)):
        for bound, r, turns, (parity, ud, side), wings in candidates:
            if bound > total or len(second) >= PHASE2_SOLUTIONS or stops.done(bool(second)):
                break
            depth = total - len(turns)
            out = np.zeros((min(PER_CANDIDATE, PHASE2_SOLUTIONS - len(second)), max(depth, 1)), dtype=np.int64)
            found = _phase2(parity, ud, side, wings, depth, turns[-1] if turns else NONE, ud2, side2, flip2,
                            c.phase2, s.phase2, s.allowed, s.phase2_end, c.wing_moves, c.home_low, c.edge,
                            c.low, out, stops.flag(bool(second)), nodes)
            second += [(r, turns + [int(c.phase2[k]) for k in row[:depth]], (len(turns), depth))
                       for row in out[:found]]
        total += 1
    return second


def third_phase(states: list[np.ndarray], pieces: _Pieces, second: list[tuple[int, list[int], tuple[int, int]]],
                stops: _Stops, nodes: np.ndarray) -> list[Reduction]:
    """Phase-3 solutions after phase-2 ones, the whole shortest first, up to REDUCTIONS: one at
    once by a beam search (_beam) after the most promising phase-2 solution, then shorter ones
    (or as short) by IDA*. The phase-2 solutions are searched in rounds, each one at its next depth (from its distance up) in
    the order of the totals, with an allowance of nodes that doubles every round: what the search
    of one depth costs varies from a few thousand nodes to 16 million between phase-2 solutions
    of the same lengths and distances, so the cheap ones end first. A total found bounds the
    others: they go on only while they may be as short (shorter, once REDUCTIONS are found)."""
    s = searches()
    c = tables.cube()
    ud3, rl3, fb3, flip3 = s.phase3_moves
    to_low, from_high = s.wing_steps
    ix = s.edge_index
    pending = []  # [total tried next, rotation, turns, lengths, coords, relative]
    for r, turns, lengths in second:
        st = _play(states[r], turns)
        faces = pieces.centre_faces(st)[None]
        wings = pieces.wings(st)
        p = perm.parity([int(c.edge[w]) for w in wings[c.low]]) ^ pieces.corner_parity(st)
        coords = np.array([p, tables.rank_of(faces, "UD", "U")[0], tables.rank_of(faces, "RL", "R")[0],
                           tables.rank_of(faces, "FB", "F")[0]])
        relative = tables.relative(wings)
        h = _phase3_distance(coords, relative, s.phase3_centres, s.edges, ix.of, ix.taking, ix.rest_rank,
                             ix.symmetries, ix.inverses, ix.ones)
        pending.append([sum(lengths) + h, r, turns, lengths, coords, relative])
    done: list[Reduction] = []
    if pending:  # a way at once, not the shortest (the searches below look for shorter ones)
        _, r, turns, lengths, coords, relative = min(pending, key=lambda e: e[0])
        way = _beam(coords, relative, stops.hard)
        if way is not None:
            done.append(Reduction(r, turns + [int(c.phase3[k]) for k in way], (*lengths, len(way))))
    allowance = FIRST_ALLOWANCE
    while pending and not stops.done(bool(done)):
        for entry in sorted(pending, key=lambda e: e[0]):
            total, r, turns, lengths, coords, relative = entry
            best = min((len(w.turns) for w in done), default=None)
            if best is not None and (total > best or (total == best and len(done) >= REDUCTIONS)):
                pending.remove(entry)
                continue
            if stops.done(bool(done)):
                break
            depth = total - sum(lengths)
            out = np.zeros(max(depth, 1), dtype=np.int64)
            found = _phase3(coords, relative, depth, turns[-1] if turns else NONE, ud3, rl3, fb3, flip3, c.phase3,
                            s.phase3_centres, to_low, from_high, s.edges, s.ball, tables.BALL, ix.of, ix.taking,
                            ix.rest_rank, ix.symmetries, ix.inverses, ix.ones, s.allowed, out,
                            stops.flag(bool(done)), nodes, allowance)
            if found == FOUND:
                done.append(Reduction(r, turns + [int(c.phase3[k]) for k in out[:depth]], (*lengths, depth)))
                pending.remove(entry)
            elif found == NOT_FOUND:
                entry[0] += 1
        allowance *= 2
    return sorted(done, key=lambda w: len(w.turns))


def _beam(coords: np.ndarray, relative: np.ndarray, stop: np.ndarray) -> list[int] | None:
    """A phase-3 way (indices among G3's turns), not always the shortest, by a beam search of BEAM
    states a depth, ranked by the sum of the centres' and the wings' distances, into the goal
    ball; None when stopped or past BEAM_DEPTH. 13-19 turns in 0.1-0.3 s where the shortest were
    13-15: an answer before the searches for the shortest (a phase-3 search that runs out of
    time would leave the 3-cycles' 390 turns)."""
    s = searches()
    ud, rl, fb, flips = s.phase3_moves
    to_low, from_high = s.wing_steps
    ix = s.edge_index
    level_coords, level_relative = coords[None], relative[None]
    steps = []  # per depth: (the parent of each state kept, the turn to it)
    for _ in range(BEAM_DEPTH):
        if stop[0]:
            return None
        kids, kid_relative, keys, scores, near = _children(
            level_coords, level_relative, ud, rl, fb, flips, to_low, from_high, s.phase3_centres, s.edges, s.ball,
            ix.of, ix.taking, ix.rest_rank, ix.symmetries, ix.inverses, ix.ones)
        arrived = np.flatnonzero(near >= 0)
        if len(arrived):
            k = int(arrived[np.argmin(near[arrived])])
            way = np.zeros(int(near[k]), dtype=np.int64)
            _descend(kids[k], kid_relative[k], int(near[k]), ud, rl, fb, flips, to_low, from_high, s.ball, ix.ones, way, 0)
            path = [k % len(flips)]
            at = k // len(flips)
            for parents, turns in reversed(steps):
                path.append(int(turns[at]))
                at = int(parents[at])
            return path[::-1] + [int(x) for x in way]
        _, first = np.unique(keys, return_index=True)
        kept = first[np.argsort(scores[first], kind="stable")[:BEAM]]
        steps.append((kept // len(flips), kept % len(flips)))
        level_coords, level_relative = kids[kept], kid_relative[kept]
    return None


@njit(cache=True, nogil=True)
def _children(coords, relative, ud_moves, rl_moves, fb_moves, flips, to_low, from_high, centres, edges, ball, of,
              taking, rest_rank, symmetries, inverses, ones):
    """Every state one G3 turn from each of `coords`/`relative` (state i, turn k at i * turns + k):
    their coordinates, joint keys, scores (centres' plus wings' distance) and distances to the
    goal when in the ball (else -1)."""
    moves = len(flips)
    count = len(coords) * moves
    kids = np.empty((count, 4), dtype=np.int64)
    kid_relative = np.empty((count, 12), dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    scores = np.empty(count, dtype=np.int64)
    near = np.empty(count, dtype=np.int64)
    scratch = np.empty(12, dtype=np.int64)
    for i in range(len(coords)):
        for k in range(moves):
            j = i * moves + k
            kids[j, 0], kids[j, 1] = coords[i, 0] ^ flips[k], ud_moves[coords[i, 1], k]
            kids[j, 2], kids[j, 3] = rl_moves[coords[i, 2], k], fb_moves[coords[i, 3], k]
            for e in range(12):
                kid_relative[j, e] = to_low[k, relative[i, from_high[k, e]]]
            keys[j] = tables.joint_key(kids[j], kid_relative[j], ones)
            h = centres[((kids[j, 0] * UD + kids[j, 1]) * UD + kids[j, 2]) * UD + kids[j, 3]]
            index = tables.edge_rank(kid_relative[j], of, taking, rest_rank, symmetries, inverses, ones, scratch)
            scores[j] = (99 if h < 0 else h) + tables.edge_distance(edges, index)
            near[j] = tables.ball_distance(ball, keys[j])
    return kids, kid_relative, keys, scores, near


@njit(cache=True, nogil=True)
def _phase3_distance(coords, relative, centres, edges, of, taking, rest_rank, symmetries, inverses, ones):
    """The larger of the centres' (and p's) distance and the wings' (99: never)."""
    h = centres[((coords[0] * UD + coords[1]) * UD + coords[2]) * UD + coords[3]]
    if h < 0:
        return 99
    scratch = np.empty(12, dtype=np.int64)
    index = tables.edge_rank(relative, of, taking, rest_rank, symmetries, inverses, ones, scratch)
    return max(h, tables.edge_distance(edges, index))


@njit(cache=True, nogil=True)
def _phase1(mask0, depth, lookups, table, allowed, may_end, out, stop, nodes):
    """Every phase-1 path of exactly `depth` turns from the mask (turns of one axis in one order,
    the last one not a phase-2 turn), up to len(out), written to out; how many."""
    masks = np.empty(depth + 1, dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    path = np.empty(depth, dtype=np.int64)
    masks[0] = mask0
    found = 0
    d = 0
    while d >= 0:
        if nxt[d] == 36:
            d -= 1
            continue
        m = nxt[d]
        nxt[d] += 1
        if not allowed[NONE if d == 0 else path[d - 1], m]:
            continue
        nodes[0] += 1
        if nodes[0] & 4095 == 0 and stop[0]:
            return found
        x = masks[d]
        t = lookups[m]
        child = t[0, x & 255] | t[1, (x >> 8) & 255] | t[2, (x >> 16) & 255]
        togo = depth - d - 1
        if table[child] > togo:
            continue
        path[d] = m
        if togo == 0:
            if may_end[m]:
                out[found, :] = path
                found += 1
                if found == len(out):
                    return found
            continue
        d += 1
        masks[d] = child
        nxt[d] = 0
    return found


@njit(cache=True, nogil=True)
def _phase2(parity0, ud0, side0, wings0, depth, before, ud_moves, side_moves, flips, turns, table, allowed,
            may_end, wing_moves, home_low, edge, low, out, stop, nodes):
    """Phase-2 paths of exactly `depth` turns (indices among phase 2's turns) from the state, the
    first of them allowed after catalog turn `before`, up to len(out): those reaching the table's
    goal with the wings in phase 3's classes (each edge one wing in Low, an even number of them
    out of their home class)."""
    if depth == 0:
        return 1 if table[(parity0 * UD + ud0) * SIDE + side0] == 0 and _wings_split(wings0, home_low, edge, low) else 0
    moves = len(turns)
    pars = np.empty(depth + 1, dtype=np.int64)
    uds = np.empty(depth + 1, dtype=np.int64)
    sides = np.empty(depth + 1, dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    path = np.empty(depth, dtype=np.int64)
    wings = np.empty(24, dtype=np.int64)
    turned = np.empty(24, dtype=np.int64)
    pars[0], uds[0], sides[0] = parity0, ud0, side0
    found = 0
    d = 0
    while d >= 0:
        if nxt[d] == moves:
            d -= 1
            continue
        k = nxt[d]
        nxt[d] += 1
        togo = depth - d - 1
        if (togo == 0 and not may_end[k]) or not allowed[before if d == 0 else turns[path[d - 1]], turns[k]]:
            continue
        nodes[0] += 1
        if nodes[0] & 4095 == 0 and stop[0]:
            return found
        parity, ud, side = pars[d] ^ flips[k], ud_moves[uds[d], k], side_moves[sides[d], k]
        if table[(parity * UD + ud) * SIDE + side] > togo:
            continue
        path[d] = k
        if togo == 0:
            wings[:] = wings0
            for i in range(depth):
                src = wing_moves[turns[path[i]]]
                for j in range(24):
                    turned[j] = wings[src[j]]
                wings[:] = turned
            if _wings_split(wings, home_low, edge, low):
                out[found, :depth] = path
                found += 1
                if found == len(out):
                    return found
            continue
        d += 1
        pars[d], uds[d], sides[d], nxt[d] = parity, ud, side, 0
    return found


@njit(cache=True, nogil=True)
def _wings_split(wings, home_low, edge, low):
    """Whether the Low places hold one wing of each edge, an even number of them from High."""
    seen = 0
    out_of_home = 0
    for k in low:
        piece = wings[k]
        seen |= 1 << edge[piece]
        out_of_home ^= 1 - home_low[piece]
    return seen == 4095 and out_of_home == 0


@njit(cache=True, nogil=True)
def _phase3(coords0, relative0, depth, before, ud_moves, rl_moves, fb_moves, flips, turns, centres, to_low,
            from_high, edges, ball, radius, of, taking, rest_rank, symmetries, inverses, ones, allowed, out, stop, nodes,
            allowance):
    """A phase-3 path of exactly `depth` turns (indices among G3's) to every centre home and every
    edge paired with p even, written to out: FOUND, NOT_FOUND (none of that length), or
    CUT_SHORT (stopped, or past `allowance` nodes). The search stops `radius` turns short of the
    goal, where the ball (four_tables.goal_ball) knows the way."""
    if depth <= radius:
        if tables.ball_distance(ball, tables.joint_key(coords0, relative0, ones)) == depth:
            _descend(coords0, relative0, depth, ud_moves, rl_moves, fb_moves, flips, to_low, from_high, ball, ones,
                     out, 0)
            return FOUND
        return NOT_FOUND
    start = nodes[0]
    moves = len(turns)
    coords = np.empty((depth + 1, 4), dtype=np.int64)
    relative = np.empty((depth + 1, 12), dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    path = np.empty(depth, dtype=np.int64)
    scratch = np.empty(12, dtype=np.int64)
    coords[0] = coords0
    relative[0] = relative0
    d = 0
    while d >= 0:
        if nxt[d] == moves:
            d -= 1
            continue
        k = nxt[d]
        nxt[d] += 1
        if not allowed[before if d == 0 else turns[path[d - 1]], turns[k]]:
            continue
        nodes[0] += 1
        if nodes[0] & 4095 == 0 and (stop[0] or nodes[0] - start > allowance):
            return CUT_SHORT
        p, ud = coords[d, 0] ^ flips[k], ud_moves[coords[d, 1], k]
        rl, fb = rl_moves[coords[d, 2], k], fb_moves[coords[d, 3], k]
        togo = depth - d - 1
        h = centres[((p * UD + ud) * UD + rl) * UD + fb]
        if h < 0 or h > togo:
            continue
        for j in range(12):
            relative[d + 1, j] = to_low[k, relative[d, from_high[k, j]]]
        index = tables.edge_rank(relative[d + 1], of, taking, rest_rank, symmetries, inverses, ones, scratch)
        if tables.edge_distance(edges, index) > togo:
            continue
        path[d] = k
        coords[d + 1, 0], coords[d + 1, 1], coords[d + 1, 2], coords[d + 1, 3] = p, ud, rl, fb
        if togo == 0:
            out[:depth] = path
            return FOUND
        if togo == radius:
            if tables.ball_distance(ball, tables.joint_key(coords[d + 1], relative[d + 1], ones)) == togo:
                out[:d + 1] = path[:d + 1]
                _descend(coords[d + 1], relative[d + 1], togo, ud_moves, rl_moves, fb_moves, flips, to_low, from_high,
                         ball, ones, out, d + 1)
                return FOUND
            continue
        d += 1
        nxt[d] = 0
    return NOT_FOUND


@njit(cache=True, nogil=True)
def _descend(coords, relative, distance, ud_moves, rl_moves, fb_moves, flips, to_low, from_high, ball, ones, out,
             at):
    """From a state `distance` turns from the goal (in the ball), the way down it: out[at:] (any turn
    order: what cancels is merged later, model.merge_turns). A state in the ball always has a
    neighbour one turn nearer."""
    here = coords.copy()
    there = np.empty(4, dtype=np.int64)
    wings = relative.copy()
    turned = np.empty(12, dtype=np.int64)
    while distance:
        for k in range(len(flips)):
            there[0], there[1] = here[0] ^ flips[k], ud_moves[here[1], k]
            there[2], there[3] = rl_moves[here[2], k], fb_moves[here[3], k]
            for j in range(12):
                turned[j] = to_low[k, wings[from_high[k, j]]]
            if tables.ball_distance(ball, tables.joint_key(there, turned, ones)) == distance - 1:
                out[at] = k
                at += 1
                distance -= 1
                here[:] = there
                wings[:] = turned
                break
