"""The short part of the NxNxN reduction (docs/bigcube.md), over the catalog's own turns (a face or
a wide turn of any depth counts one):

1. centres, in three phases: the U and D colours onto U and D; then the L and R colours onto L and
   R with every wing orbit made even, so that the "OLL parity" of big cubes never arises; then
   every centre home: for the 4x4x4 down an exact table among the turns that keep centres on their
   axes (axis_centres), else by beam search (beam.py) on sums of per-orbit distance tables
   (centres.py). The beam phases end in a ball of exact last turns around their goal.
2. edge pairing by free-slice macros (freeslice.py), centres and even wings kept.

reduction.py then fixes the PLL parity, solves the 3x3x3 left with the two-phase solver and
finishes with 3-cycles (nothing left for the 4x4x4)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import perm
from solver.special import store
from solver.special.bigcube import beam, centres, cycles, freeslice
from solver.special.bigcube.model import BigCube, parse_turn

AXIS = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}
# Beam widths per phase by cube size: wide enough for short answers, narrow enough for 10 s here.
VERSION = 1  # of the stored tables and macros
SIZES = (4,)  # where the phases are measured to beat 3-cycles within 10 s (5x5 centres plateau: docs)
BALL_RADIUS = {4: 3, 5: 3}
WIDTHS = {4: 300, 5: 300, 6: 200, 7: 150}


@dataclass
class ShortPlan:
    cube: BigCube
    names: list[str]
    moves: beam.MoveSet
    wing_orbits: list[cycles.PieceOrbit]
    centre_orbits: list[centres.OrbitMoves]
    inverse: np.ndarray  # index of each move's inverse


@lru_cache(maxsize=None)
def plan(n: int) -> ShortPlan:
    cube = BigCube(n)
    names = sorted(cube.named_moves)
    wing_orbits = [o for o in cycles.piece_orbits(cube) if o.kind == "wing"]
    axis, key, parity, sources = [], [], [], []
    for name in names:
        p = cube.named_moves[name]
        face, depth, _ = parse_turn(name)
        axis.append(AXIS[face])
        key.append(depth if face in "URF" else n + depth)
        bits = 0
        for i, orbit in enumerate(wing_orbits):
            index = {s: k for k, s in enumerate(orbit.positions)}
            bits |= perm.parity([index[p[s]] for s in orbit.positions]) << i
        parity.append(bits)
        sources.append(perm.sources(p))
    moves = beam.MoveSet(np.array(sources, dtype=np.int32), np.array(axis), np.array(key), np.array(parity, dtype=np.int64))
    centre_orbits = [centres.OrbitMoves(o.positions, moves.sources, moves.parity)
                     for o in cycles.piece_orbits(cube) if o.kind == "centre"]
    undo = {"'": "", "2": "2"}
    inverse = np.array([names.index(m[:-1] + undo[m[-1]] if m[-1] in undo else m + "'") for m in names])
    return ShortPlan(cube, names, moves, wing_orbits, centre_orbits, inverse)


def solve_centres(state: np.ndarray, goal: np.ndarray, n: int, deadline: float) -> tuple[list[str], np.ndarray]:
    """Catalog turns that bring every centre home and leave every wing orbit an even permutation
    (so no inner quarter turn is needed later), and the state they reach; beam.Timeout when the
    deadline comes first."""
    p = plan(n)
    cube = p.cube
    parity = 0
    for i, orbit in enumerate(p.wing_orbits):
        home = {(goal[x], goal[orbit.partner[x]]): k for k, x in enumerate(orbit.positions)}
        pieces = [home.get((state[x], state[orbit.partner[x]]), -1) for x in orbit.positions]
        if sorted(pieces) != list(range(len(pieces))):
            raise beam.Timeout("wings are not those of the goal")
        parity |= perm.parity(pieces) << i
    colour = {face: int(goal[cube.faces.index(face)]) for face in "URFDLB"}

    def distance(states, pars, faces, orbits):
        colours = [colour[f] for f in faces]
        return sum(centre_table(n, k, faces).lookup(o.mask(states, colours) | (pars << 24 if len(faces) == 1 else 0))
                   for k, o in enumerate(orbits))

    tables = p.centre_orbits
    phases = [
        (lambda s, q: distance(s, q, "UD", tables), None),
        (lambda s, q: 2 * distance(s, q, "UD", tables) + distance(s, q, "LR", tables) + (q != 0), parity),
        (lambda s, q: sum(distance(s, q, f, tables) for f in "URFDLB"), parity),
    ]
    done: list[str] = []
    for (score, wanted), kind in zip(phases, ("UD", "UD LR", "URFDLB")):
        # wanted: the wing parity the phase starts from, None: any
        if kind == "URFDLB" and len(p.centre_orbits) == 1:
            path = _axis_phase(state, [colour[f] for f in "URF"], n, deadline)
        else:
            ball = centre_ball(n, goal.tobytes(), kind)
            path = _widening(state, p.moves, score, WIDTHS.get(n, 200), deadline,
                             None if wanted is None else parity, ball)
        for m in path:
            state = state[p.moves.sources[m]]
            parity ^= int(p.moves.parity[m])
            done.append(p.names[m])
    return done, state


def _axis_phase(state: np.ndarray, colours: list[int], n: int, deadline: float) -> list[int]:
    """A shortest way, among the turns that keep every centre on its axis, from centres each on its
    own axis (U/D, L/R, F/B) to centres home: down the exact table of axis_centres."""
    p = plan(n)
    keep, table = axis_centres(n)
    orbit = p.centre_orbits[0]
    path: list[int] = []
    left = int(table.lookup(orbit.mask(state[None], colours))[0])
    while left:
        if time.perf_counter() > deadline:
            raise beam.Timeout("the last centre phase: out of time")
        children = state[p.moves.sources[keep]]
        i = int(np.argmin(table.lookup(orbit.mask(children, colours))))
        path.append(int(keep[i]))
        state, left = children[i], left - 1
    return path


@lru_cache(maxsize=None)
def axis_centres(n: int) -> tuple[np.ndarray, centres.Table]:
    """For a cube with one centre orbit (the 4x4x4): the turns that keep every centre on its axis
    (outer turns, wide half turns; all even on the wings) and the exact distances, under them, of
    every mask of the places holding the U, R and F colours (70^3 = 343,000 masks) to home."""
    p = plan(n)
    keep = np.array([k for k, name in enumerate(p.names) if parse_turn(name)[1] == 1 or parse_turn(name)[2] == 2])
    orbit = p.centre_orbits[0]
    moves = centres.OrbitMoves(orbit.positions.tolist(), p.moves.sources[keep], p.moves.parity[keep])
    goal = sum(1 << k for k, s in enumerate(orbit.positions) if p.cube.faces[s] in "URF")
    return keep, _stored_table(f"cube{n}-axis-centres", lambda: centres.build(moves, goal))


def pair_edges(state: np.ndarray, n: int, deadline: float, stop: float) -> list[list[str]]:
    """Ways (catalog turns) to pair the composite edges of a state with solved centres and even
    wing orbits, keeping both, shortest first: all edges, or as many as the free-slice macros can
    (freeslice.py; a greedy finish after `deadline`, the best so far at `stop`)."""
    p = plan(n)
    paths = freeslice.pair(state, pairing_macros(n), freeslice.Edges(p.cube), deadline, stop)
    return [[p.names[m] for m in path] for path in paths]


@lru_cache(maxsize=None)
def pairing_macros(n: int) -> freeslice.Macros:
    """The free-slice macros of the size, found once and kept in the table cache (2-6 s to find)."""
    p = plan(n)
    params = {"n": n, "depth": freeslice.MACRO_DEPTH, "version": VERSION}
    rows = store.load_or_build("bigcube", f"cube{n}-pairing-macros-v{VERSION}", params,
                               lambda stop: freeslice.find(p.cube, p.names, p.moves.sources, p.inverse).ravel())
    rows = np.asarray(rows).reshape(-1, 2 * freeslice.MACRO_DEPTH + 2)
    return freeslice.macros(p.cube, p.names, p.moves.sources, rows)


def _widening(state, moves, score, width, deadline, wanted, ball) -> list[int]:
    """Beam search, four times wider each time it gets stuck on a plateau."""
    while True:
        try:
            return beam.search(state, moves, score, width, deadline, wanted, ball=ball)
        except beam.Stuck:
            width *= 4


@lru_cache(maxsize=24)
def centre_ball(n: int, goal: bytes, kind: str) -> beam.Ball:
    """The end of a centre phase and every centre state a few turns away. kind "UD": the U and D
    colours on U and D; "UD LR": also L and R on L and R, even wings; "URFDLB": solved centres,
    even wings."""
    p = plan(n)
    target = np.frombuffer(goal, dtype=np.uint8)
    watched = np.concatenate([o.positions for o in p.centre_orbits])
    classes = np.full(256, 2, dtype=np.int64)
    for k, group in enumerate(kind.split() if " " in kind or kind == "UD" else list(kind)):
        for face in group:
            classes[target[p.cube.faces.index(face)]] = k
    return beam.Ball(target, watched, classes, kind != "UD", p.moves, p.inverse, BALL_RADIUS.get(n, 2))


@lru_cache(maxsize=None)
def centre_table(n: int, orbit: int, wanted: str) -> centres.Table:
    """Distance table of one centre orbit: the U/D or L/R colour pair ("UD", "LR"), or one face's
    colour with the wing parity ("U", ...); each built on its first use."""
    p = plan(n)
    moves = p.centre_orbits[orbit]
    goal = sum(1 << k for k, s in enumerate(moves.positions) if p.cube.faces[s] in wanted)
    return _stored_table(f"cube{n}-centres-{orbit}-{wanted}", lambda: centres.build(
        moves, goal, len(p.wing_orbits) if len(wanted) == 1 else 0))


def _stored_table(name: str, build) -> centres.Table:
    """A distance table from the table cache (keys and distances one after the other), else built."""
    def packed(stop):
        table = build()
        return np.concatenate([table.keys, table.dist.astype(np.int64)])
    data = store.load_or_build("bigcube", f"{name}-v{VERSION}", {"table": name, "version": VERSION}, packed)
    half = len(data) // 2
    return centres.Table(np.asarray(data[:half]), np.asarray(data[half:]))


def apply_names(cube: BigCube, state: np.ndarray, names: list[str]) -> np.ndarray:
    for name in names:
        state = state[np.asarray(perm.sources(cube.named_moves[name]))]
    return state
