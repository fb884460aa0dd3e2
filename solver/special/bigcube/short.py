"""The short part of the NxNxN reduction (docs/bigcube.md), over the catalog's own turns (a face or
a wide turn of any depth counts one):

1. centres, in three phases: the U and D colours onto U and D; then the L and R colours onto L and
   R with every wing orbit made even, so that the "OLL parity" of big cubes never arises (both by
   beam search, beam.py, on sums of per-orbit distance tables, centres.py, into a ball of exact
   last turns around their goal; the 5x5x5's second phase among the turns keeping U/D centres on
   their axis); then every centre home down exact joint tables among the turns that keep centres
   on their axes (the 4x4x4 in one step, the 5x5x5 in two: one axis home, then the rest; the
   5x5x5 stops with its centres on their axes and goes on in five.py, those two steps serving it
   only when five.py runs out of time).
2. edge pairing by free-slice macros (freeslice.py), centres and even wings kept.

reduction.py then fixes the PLL parity, solves the 3x3x3 left with the two-phase solver and
finishes with 3-cycles (nothing left for the 5x5x5). The 4x4x4 has a reduction of its own,
four_search.py (its first phase reads the 4x4x4's centre table here), which also reduces the
6x6x6's inner cube. The 6x6x6 and 7x7x7 are reduced to a 5x5x5 (to_five.py): the 7x7x7's inner
cube by these phases and five.py's, the rows of their outer ring by the moves of
`partner_pairing`."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import perm
from solver.search.budget import one_time_work
from solver.special import store
from solver.special.bigcube import beam, centres, cycles, five, freeslice
from solver.special.bigcube.model import NORMALS, BigCube, parse_turn

AXIS = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}
# Beam widths per phase by cube size: wide enough for short answers, narrow enough for 10 s here
# (a 5x5x5's centres, stalled at 200 with a ball of radius 2 and end at 1,200 with 4, in 0.2-0.5 s).
VERSION = 1  # of the stored tables and macros
BALL_RADIUS = {4: 3, 5: 4}
WIDTHS = {4: 300, 5: 1200}


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


@lru_cache(maxsize=8)
def prepare(n: int, goal: bytes) -> None:
    """Load, or build (a first solve's one-time work), what the phases of a size look up, before
    their clock starts: the pairing macros (and for the 5x5x5 five.py's tables), and the centre
    tables, joint tables and balls of every stage, by running the centre phases on the goal itself
    (else a first 7x7x7 solve on an empty cache ran out of time in its first stage, and the second
    in the stages the first never built). Loading them is one-time work for the process, left out
    of the solve's time (a first 5x5x5 solve under load spent 12 s here, and its phases then ran
    out of time)."""
    with one_time_work():
        if n == five.N:
            five.prepare()
        pairing_macros(n)
        target = np.frombuffer(goal, dtype=np.uint8)
        solve_centres(target, target, n, math.inf)


def solve_centres(state: np.ndarray, goal: np.ndarray, n: int, deadline: float,
                  on_axes: bool = False) -> tuple[list[str], np.ndarray]:
    """Catalog turns that bring every centre home (`on_axes`: only onto their axes, the 5x5x5's
    first two phases, where five.py goes on) and leave every wing orbit an even permutation (so
    no inner quarter turn is needed later), and the state they reach; beam.Timeout when the
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
    done: list[str] = []
    for stage in stages(n):
        path, state, parity = _solve_stage(state, goal, n, stage, colour, parity, deadline, on_axes)
        done += path
    return done, state


@dataclass(frozen=True)
class Stage:
    """Centre orbits (indices in plan(n).centre_orbits) the short phases bring home together, among
    the turns of at most `depth` layers, which keep home the orbits of the stages before (those
    deeper in)."""
    orbits: tuple[int, ...]
    depth: int
    # orbits that move in step with the last of `orbits` under the stage's turns: the 6x6x6's and
    # 7x7x7's rows (to_five.py), each piece given its neighbour's colour by `partner_pairing`'s moves
    partners: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """What to_five's rows search with: the stage's turns, and conjugates W X W' (W a turn one
    layer deeper than the stage's; X one of its turns, or two of one face, the deeper first, as
    `2Uw U'`; of another axis than W) that keep the deeper rings home (checked on the goal: X must
    not turn a face W brought their pieces onto, so X is mostly a slice alone) but move a piece
    apart from its neighbour, as the free-slice macros move wings between edges; and the
    neighbours to match. The 6x6x6 has 108 conjugates, the 7x7x7 216."""
    sequences: list[list[int]]  # catalog turn indices of each move
    watched: np.ndarray  # the stickers of the stage's last orbit and its partners (the search sees those alone)
    moves: beam.MoveSet  # on the watched stickers
    pieces: np.ndarray  # (indices in watched)
    neighbours: np.ndarray


@lru_cache(maxsize=None)
def partner_pairing(n: int, stage: Stage) -> Pairing:
    """The Pairing of a stage with partners, found once per size (a fraction of a second)."""
    p = plan(n)
    cube = p.cube
    watched = np.concatenate([p.centre_orbits[k].positions for k in stage.orbits[-1:] + stage.partners])
    local = {int(s): k for k, s in enumerate(watched)}

    def row(sticker):  # (face, axis and value of its farthest coordinate across the face)
        point, normal = cube.points[sticker], NORMALS[cube.faces[sticker]]
        far = max((i for i in range(3) if normal[i] == 0), key=lambda i: abs(point[i]))
        return cube.faces[sticker], far, point[far]
    leader = {row(int(s)): local[int(s)] for s in p.centre_orbits[stage.orbits[-1]].positions}  # one per row
    pieces, neighbours = [], []
    for k in stage.partners:
        for s in p.centre_orbits[k].positions:
            pieces.append(local[int(s)])
            neighbours.append(leader[row(int(s))])
    turns = [int(x) for x in restricted(n, "all", stage.depth).keep]
    sequences = [[x] for x in turns]
    sources = [p.moves.sources[x] for x in turns]
    axes = [int(p.moves.axis[x]) for x in turns]
    goal = np.array(["URFDLB".index(face) for face in cube.faces])
    deeper = np.concatenate([p.centre_orbits[k].positions for k in _deeper_orbits(n, stage)])
    parsed = [parse_turn(name) for name in p.names]  # (face, depth, quarter turns)
    middles = [[x] for x in turns] + [[x, y] for x in turns for y in turns
                                      if parsed[x][0] == parsed[y][0] and parsed[x][1] > parsed[y][1]]
    seen = {source[watched].astype(np.int64).tobytes() for source in sources}
    # W: a turn deeper than the stage, or one slice deeper than it (an 8x8x8's row has two middle
    # obliques, which only a slice's conjugate moves apart)
    deep = [k for k, (_, d, _) in enumerate(parsed) if stage.depth < d <= n // 2]
    setups = [[w] for w in deep] + [[x, int(p.inverse[y])] for x in deep for y in deep
                                    if parsed[x][0] == parsed[y][0] and parsed[x][2] == parsed[y][2]
                                    and parsed[x][1] > parsed[y][1]]
    for w in setups:
        for middle in (m for m in middles if p.moves.axis[m[0]] != p.moves.axis[w[0]]):  # (else W X W' = X)
            way = [*w, *middle, *[int(p.inverse[k]) for k in reversed(w)]]
            source = np.arange(cube.size)
            for m in way:
                source = source[p.moves.sources[m]]
            key = source[watched].astype(np.int64).tobytes()
            if key not in seen and (goal[source][deeper] == goal[deeper]).all():
                seen.add(key)
                sequences.append(way)
                sources.append(source)
                axes.append(3 + len(axes))  # a conjugate commutes with no other move: none is skipped
    index = np.full(cube.size, -1)
    index[watched] = np.arange(len(watched))
    sources = np.array(sources)
    zeros = np.zeros(len(axes), dtype=np.int64)
    return Pairing(sequences, watched, beam.MoveSet(index[sources[:, watched]], np.array(axes), zeros, zeros),
                   np.array(pieces), np.array(neighbours))


def _play(n: int, turns, state, parity: int):
    """Catalog turns (indices in plan(n).names) played on the whole state: (their names, the state
    they reach, its wing parity bits)."""
    p = plan(n)
    names = []
    for m in turns:
        state = state[p.moves.sources[m]]
        parity ^= int(p.moves.parity[m])
        names.append(p.names[m])
    return names, state, parity


def _solve_stage(state, goal, n: int, stage: Stage, colour, parity: int, deadline: float, on_axes: bool = False):
    """One stage's phases: (catalog turns, the state they reach, its wing parity bits)."""

    def distance(states, pars, faces, among="all"):
        masks = _masks(states, [colour[f] for f in faces])
        if _with_parity(faces, among):
            masks |= pars[:, None] << 24
        return sum(centre_table(n, k, faces, among, stage.depth).lookup(masks[:, k]) for k in stage.orbits)

    # (turns among, beam score, goal): a beam search into centre_ball(goal), or with no score down the
    # exact joint_table of the goal's faces
    if len(stage.orbits) == 1:  # the 6x6x6's inner x-centres (a 4x4x4's): all turns for the first two phases, an exact last one
        phases = [
            ("all", lambda s, q: distance(s, q, "UD"), "UD"),
            ("all", lambda s, q: 2 * distance(s, q, "UD") + distance(s, q, "LR") + (q != 0), "UD LR"),
            ("axes", None, "URF"),
        ]
    else:  # two orbits (5x5x5, a ring of the 6x6x6 or 7x7x7): each phase among the turns keeping what those before did
        phases = [
            ("all", lambda s, q: distance(s, q, "UD"), "UD"),
            ("UD", lambda s, q: distance(s, q, "LR", "UD"), "UD LR"),
            (None, None, "URF"),  # _last_centres (U/D home within the L/R phase: 3 turns fewer, 4 times slower)
        ]
    done: list[str] = []
    watched = centre_stickers(n)
    for among, score, kind in phases[:2] if on_axes else phases:
        # the searches see the centre stickers alone (a third of the 5x5x5's), then the turns are replayed
        moves = restricted(n, among, stage.depth) if among else restricted(n, "all")  # (_last_centres: all turns)
        if among is None:
            path = _last_centres(state[watched], n, stage, colour, deadline)
        elif score is None:
            path = _descend(state[watched], [colour[f] for f in kind], n, stage, kind, among, deadline)
        else:  # the wing parity matters from the second phase on
            path = _widening(state[watched], moves.centre_moves, score, WIDTHS.get(n, 200), deadline,
                             None if kind == "UD" else parity,
                             centre_ball(n, goal.tobytes(), kind, stage, among))
        names, state, parity = _play(n, [int(moves.keep[k]) for k in path], state, parity)
        done += names
    return done, state, parity


@dataclass(frozen=True)
class Turns:
    """A subset of the catalog's turns, as a move set of its own for beam.py."""
    keep: np.ndarray     # indices of the turns in plan(n).names
    moves: beam.MoveSet
    inverse: np.ndarray  # index (in the subset) of each turn's inverse
    centre_moves: beam.MoveSet  # the same turns on the centre_stickers alone


# Which turns (face, depth, quarter turns) each restricted set keeps; outer turns move no centre off its face.
KEEPS = {
    "all": lambda face, depth, quarters: True,
    "UD": lambda face, depth, quarters: depth == 1 or quarters == 2 or face in "UD",
    "axes": lambda face, depth, quarters: depth == 1 or quarters == 2,
} | {  # "axes UD", ...: also keeping U/D centres home (outer turns, wide half turns about U/D)
    f"axes {pair}": lambda face, depth, quarters, pair=pair: depth == 1 or (quarters == 2 and face in pair)
    for pair in ("UD", "RL", "FB")
}


@lru_cache(maxsize=None)
def restricted(n: int, among: str, depth: int | None = None) -> Turns:
    """The turns of KEEPS[among]: "all"; "UD": those keeping U/D centres on U/D; "axes": those
    keeping every centre on its axis; "axes UD" (RL, FB): those also keeping U/D centres home; of
    at most `depth` layers (a Stage's)."""
    p = plan(n)
    depth = depth or n // 2
    keep = np.array([k for k, name in enumerate(p.names)
                     if KEEPS[among](*parse_turn(name)) and parse_turn(name)[1] <= depth])
    where = {int(m): k for k, m in enumerate(keep)}
    m = p.moves
    watched = centre_stickers(n)
    local = np.full(p.cube.size, -1)
    local[watched] = np.arange(len(watched))
    return Turns(keep, beam.MoveSet(m.sources[keep], m.axis[keep], m.key[keep], m.parity[keep]),
                 np.array([where[int(p.inverse[k])] for k in keep]),
                 beam.MoveSet(local[m.sources[keep][:, watched]], m.axis[keep], m.key[keep], m.parity[keep]))


@lru_cache(maxsize=None)
def stages(n: int) -> tuple[Stage, ...]:
    """The centre orbits the short phases bring home, stage by stage: all of them at once for
    N = 4, 5. Bigger cubes go ring by ring: a ring is the centres whose farthest coordinate across
    their face is the same, and lies in one layer from the faces, moved by the turns that deep and
    deeper; each ring's stage has the turns that reach it and no deeper ring (`depth`). Under those
    turns a ring is a 5x5x5's centres: its x-centres (on a face's diagonals) one orbit, and each of
    its other orbits (T-centres on a face's middle lines, obliques) moved by the ring's slices
    alone, like a 5x5x5's T-centres, and all of those in step. So a stage takes the ring's
    x-centres and one other orbit (a T-centre orbit, else an oblique one), and the ring's other
    orbits are its `partners`. The 6x6x6's and 7x7x7's outer ring is where to_five.py matches the
    rows (`partner_pairing`): the 6x6x6's obliques side by side, the 7x7x7's to the T-centre
    between them."""
    p = plan(n)
    if n <= 5:
        return (Stage(tuple(range(len(p.centre_orbits))), n // 2),)
    rings: dict[int, list[tuple[int, int]]] = {}  # ring -> (rank: x-centres 0, T-centres 1, obliques 2, orbit)
    for k, orbit in enumerate(p.centre_orbits):
        sticker = int(orbit.positions[0])
        near, far = sorted(abs(c) for c, d in zip(p.cube.points[sticker], NORMALS[p.cube.faces[sticker]]) if d == 0)
        rings.setdefault(far, []).append((0 if near == far else 1 if near == 0 else 2, k))
    result = []
    for r in sorted(rings):
        # doubled coordinates: ring r lies in layer (n - 1 - r) / 2 from the faces, moved by turns deeper than that
        depth = (n - 1 - r) // 2 + 1
        ranked = [k for _, k in sorted(rings[r])]  # x-centres first, then the orbit its partners follow
        result.append(Stage(tuple(ranked[:2]), depth, tuple(ranked[2:]) if depth < n // 2 else ()))
    return tuple(result)


def _deeper_orbits(n: int, stage: Stage) -> list[int]:
    """The orbits of the stages before `stage` (deeper rings)."""
    before = stages(n)[:stages(n).index(stage)]
    return [k for earlier in before for k in earlier.orbits + earlier.partners]


@lru_cache(maxsize=None)
def centre_stickers(n: int) -> np.ndarray:
    """The stickers of the centre orbits, one orbit after the other (24 each): every turn maps
    them onto themselves."""
    return np.concatenate([o.positions for o in plan(n).centre_orbits])


def _masks(centre_states: np.ndarray, colours: list[int]) -> np.ndarray:
    """(K, orbits) masks of the places holding one of `colours` in each orbit, from states of the
    centre_stickers alone."""
    member = np.zeros(256, dtype=np.int64)
    member[colours] = 1
    hit = member[centre_states]
    return hit.reshape(len(hit), -1, 24) @ (1 << np.arange(24, dtype=np.int64))


def _last_centres(state: np.ndarray, n: int, stage: Stage, colour: dict[str, int], deadline: float) -> list[int]:
    """From centres each on its axis (`state`: of the centre_stickers alone) to centres home, for
    stages of two orbits: one axis' two faces home among the axis-keeping turns, then the
    rest among the turns keeping them, both down exact joint tables; of the three axes
    the shortest way in all (catalog turn indices)."""
    ways = []
    for face, pair in (("U", "UD"), ("R", "RL"), ("F", "FB")):
        way, reached = [], state
        for wanted, among in ((face, "axes"), ("URF", f"axes {pair}")):
            turns = restricted(n, among, stage.depth)
            for k in _descend(reached, [colour[f] for f in wanted], n, stage, wanted, among, deadline):
                reached = reached[turns.centre_moves.sources[k]]
                way.append(int(turns.keep[k]))
        ways.append(way)
    return min(ways, key=len)


def _descend(state: np.ndarray, colours: list[int], n: int, stage: Stage, wanted: str, among: str,
             deadline: float) -> list[int]:
    """A shortest way (indices among the `restricted` turns) to the places of the `wanted` faces
    holding their colours, in every centre orbit: down the exact joint_table (`state`: of the
    centre_stickers alone)."""
    sources = restricted(n, among, stage.depth).centre_moves.sources
    table = joint_table(n, wanted, among, stage)

    def distances(states):
        return table.lookup(list(_masks(states, colours)[:, list(stage.orbits)].T))

    path: list[int] = []
    left = int(distances(state[None])[0])
    while left:
        if time.perf_counter() > deadline:
            raise beam.Timeout("the last centre phase: out of time")
        children = state[sources]
        i = int(np.argmin(np.where(distances(children) < 0, 127, distances(children))))
        path.append(i)
        state, left = children[i], left - 1
    return path


@lru_cache(maxsize=None)
def joint_table(n: int, wanted: str, among: str, stage: Stage) -> centres.JointTable:
    """Exact distances, among the `restricted` turns, of all centre orbits together to the places
    of the `wanted` faces holding their colours: for the 4x4x4 "URF" among "axes" (70^3 = 343,000
    masks, at most 11 turns); for the 5x5x5 "U" among "axes" (4,900 states, at most 8 turns), then
    "URF" among "axes UD", "axes RL" or "axes FB" (24 million, at most 16); the same for the
    6x6x6's outer ring and each ring of the 7x7x7 (stages)."""
    kept = stage.orbits
    orbits = [centre_table(n, k, wanted, among, stage.depth) for k in kept]

    def build(stop):
        moves = [_orbit_moves(n, k, among, stage.depth) for k in kept]
        return centres.build_joint(moves, orbits, [_goal_mask(n, k, wanted) for k in kept])
    ring = "" if len(stages(n)) == 1 else f"-orbits{'.'.join(map(str, kept))}-depth{stage.depth}"
    name = f"cube{n}-joint-{wanted}-{among.replace(' ', '-')}{ring}-v{VERSION}"
    return centres.JointTable(orbits, np.asarray(store.load_or_build("bigcube", name, {"table": name}, build)))


def pair_edges(state: np.ndarray, n: int, deadline: float, stop: float) -> list[list[str]]:
    """Ways (catalog turns) to pair the composite edges of a state with solved centres and even
    wing orbits, keeping both, shortest first: all edges, or as many as the free-slice macros can
    (freeslice.py; a greedy finish after `deadline`, the best so far at `stop`)."""
    p = plan(n)
    paths = freeslice.pair(state, pairing_macros(n), freeslice.Edges(p.cube), deadline, stop)
    return [[p.names[m] for m in path] for path in paths]


def warm_up() -> None:
    """Compile (or load from numba's cache) the free-slice pairing's kernels: only a 5x5x5 whose
    phases run out of time pairs its edges here (a loaded machine's solves), which a worker's
    warm-up scramble never does, so a fresh worker's first such solve spent 1 s compiling them.
    The pairing must take at least one step for that: it stops at once when given no time."""
    import random

    cube = plan(five.N).cube
    goal = np.array([ord(c) for c in cube.solved()], dtype=np.uint8)
    scrambled = np.array([ord(c) for c in cube.scrambled(random.Random(1), 40)], dtype=np.uint8)
    _, centred = solve_centres(scrambled, goal, five.N, math.inf)
    now = time.perf_counter()
    pair_edges(centred, five.N, now, now + 0.5)


def paired_ways(state: np.ndarray, ways: list[list[str]], n: int) -> list[list[str]]:
    """Those of `ways` (catalog turns from `state`) after which every composite edge is paired:
    pair_edges gives the pairings it has at its stop, some of them partial."""
    cube = plan(n).cube
    edges = freeslice.Edges(cube)
    return [way for way in ways if not edges.unpaired(apply_names(cube, state, way)[None])[0]]


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
def centre_ball(n: int, goal: bytes, kind: str, stage: Stage, among: str = "all") -> beam.Ball:
    """The end of a centre phase and every centre state a few turns away (`among` those turns).
    kind "UD": the U and D colours on U and D; "UD LR": also L and R on L and R, even wings."""
    p = plan(n)
    turns = restricted(n, among, stage.depth)
    target = np.frombuffer(goal, dtype=np.uint8)
    classes = np.full(256, 3, dtype=np.int64)
    for k, group in enumerate(kind.split() if " " in kind or kind == "UD" else list(kind)):
        for face in group:
            classes[target[p.cube.faces.index(face)]] = k
    watched = np.concatenate([24 * k + np.arange(24) for k in stage.orbits])  # among the centre_stickers
    return beam.Ball(target[centre_stickers(n)], watched, classes, kind != "UD", turns.centre_moves,
                     turns.inverse, BALL_RADIUS.get(n, 2) + (among != "all"))


@lru_cache(maxsize=None)
def centre_table(n: int, orbit: int, wanted: str, among: str = "all", depth: int | None = None) -> centres.Table:
    """Distance table of one centre orbit, among the `restricted` turns, to the places of the
    `wanted` faces ("UD", "LR", "U", "URF") holding their colours, with the wing parity among the
    "UD" turns (where it must come out even); each built on its first use."""
    parity = len(plan(n).wing_orbits) if _with_parity(wanted, among) else 0
    moves = _orbit_moves(n, orbit, among, depth)
    goal = _goal_mask(n, orbit, wanted)
    return _stored_table(f"centres-{moves.digest(parity > 0)}-{goal:x}-p{parity}",
                         lambda: centres.build(moves, goal, parity))


@lru_cache(maxsize=None)
def _orbit_moves(n: int, orbit: int, among: str, depth: int | None = None) -> centres.OrbitMoves:
    turns = restricted(n, among, depth).moves
    return centres.OrbitMoves(plan(n).centre_orbits[orbit].positions.tolist(), turns.sources, turns.parity)


def _with_parity(wanted: str, among: str) -> bool:
    """Whether a table carries the wing parity: the L/R phase must end with even wings."""
    return among == "UD" and wanted == "LR"


def _goal_mask(n: int, orbit: int, wanted: str) -> int:
    p = plan(n)
    return sum(1 << k for k, s in enumerate(p.centre_orbits[orbit].positions) if p.cube.faces[s] in wanted)


_tables: dict[str, centres.Table] = {}  # by content: orbits alike share one table and its dense copy


def _stored_table(name: str, build) -> centres.Table:
    """A distance table from the table cache (keys and distances one after the other), else built."""
    if name not in _tables:
        def packed(stop):
            table = build()
            return np.concatenate([table.keys, table.dist.astype(np.int64)])
        data = store.load_or_build("bigcube", f"{name}-v{VERSION}", {"table": name, "version": VERSION}, packed)
        half = len(data) // 2
        _tables[name] = centres.Table(np.asarray(data[:half]), np.asarray(data[half:]))
    return _tables[name]


def apply_names(cube: BigCube, state: np.ndarray, names: list[str]) -> np.ndarray:
    for name in names:
        state = state[np.asarray(perm.sources(cube.named_moves[name]))]
    return state
