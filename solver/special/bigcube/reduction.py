"""A solver for the catalog's NxNxN cubes (N = 2 .. 33 tested) by reduction to the 3x3x3:

1. The pieces a 3x3x3 also has (corners; for odd N the middle edges, the fixed centres) are solved
   by the two-phase solver with outer face turns. For even N, corners only: the 3x3x3 given to it has
   solved edges, with two swapped when the corners' permutation is odd.
2. Each wing orbit whose permutation is odd gets one inner-layer quarter turn (the edge parity of
   big cubes), since 3-cycles only make even permutations.
3. Every wing and centre orbit is solved with 3-cycles (commutators and set-ups from cycles.py),
   each time the one with the fewest turns per piece brought home that moves no home piece away.
   Orbits that have no pure 3-cycle of that form (the T-centres of odd cubes) go first, with
   3-cycles that may disturb only orbits solved later. From N = 6 (batched.FROM; tested to 33)
   batched commutators do this (batched.py), the libraries serving only the T-centres they leave.

For the 4x4x4 the three-phase reduction of four_search.py comes first (centres home, edges paired,
no parity: `_reduced_ways`), on the cube seen with each axis as its special one, and steps 1-3
find nothing left but the 3x3x3. For N = 5 a short reduction comes first: centres
onto their axes by the phases of short.py, then five.py's phases bring them home and pair the
edges, then steps 1-3 find nothing left but the 3x3x3; while the time allows, the short phases
also run on rotations of the cube (another axis first: other ways, several turns apart) and the
shortest answer of all is kept (`_short_ways`). The 6x6x6 and 7x7x7 (to_five.SIZES) are reduced
to a 5x5x5 whose answer this solver gives (to_five.py), and so are N = 8 .. 11 (to_five.NESTED)
given the seconds that takes, their inner cube reduced by this solver. Should the phases run
out of time, steps 1-3 solve the state from the start (from N = 8 by batched commutators).

The answer is replayed on the stickers before it is returned.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solver import deadline, perm, threads
from solver.errors import PuzzleError, StateError, UnreachableError
from solver.search.budget import Budget, Cancelled, OutOfTime
from solver.special import cube3
from solver.special.bigcube import batched, cycles, five, four_search, short, to_five
from solver.special.bigcube.model import BigCube, Layer, Rotation, merge_turns, rotations
from solver.special.cube3 import geometry as cube3_geometry
from solver.special.cube3 import solve as cube3_solve
from solver.special.cube3.cubie import CubieCube


# For even N: which stickers of the 3x3x3 belong to its edges (read from wings only when paired).
_EVEN_EDGE_STICKERS = tuple(
    [((p - q) // 2) for p, q in zip(cube3_geometry.POINTS[i], cube3_geometry.NORMALS[cube3_geometry.face_of(i)])].count(0) == 1
    for i in range(cube3_geometry.STICKERS))


def _even_cubies(colours: str) -> CubieCube:
    """The 3x3x3 of an even cube; when its edges are an odd permutation against the corners (the
    big cube's "PLL parity"), two edges are swapped so the 3x3x3 solves and 3-cycles finish them."""
    cubies = cube3.to_cubies(colours)
    if perm.parity(cubies.cp) != perm.parity(cubies.ep):
        ep = list(cubies.ep)
        ep[4], ep[5] = ep[5], ep[4]
        cubies = CubieCube(cubies.cp, cubies.co, tuple(ep), cubies.eo)
    cubies.check()
    return cubies


def pll_parity_turns(n: int) -> list[str]:
    """Uw2 Rw2 U2 r2 U2 Rw2 Uw2 (wide = half the cube, r = its inner layers): swaps the UF and UB
    composite edges of an even cube and nothing else (tests replay it), 8 catalog turns."""
    wide = ("" if n == 4 else str(n // 2))
    uw2, rw2 = f"{wide}Uw2", f"{wide}Rw2"
    return [uw2, rw2, "U2", rw2, "R2", "U2", rw2, uw2]


@dataclass
class Plan:
    cube: BigCube
    orbits: list[cycles.PieceOrbit]  # in solving order
    libraries: list[cycles.Library | None]  # None: solved by batched commutators
    parity_turns: list[Layer | None]  # per orbit: an inner quarter turn that is odd on it (wings)


@lru_cache(maxsize=None)
def plan(n: int, batched_from: int = batched.FROM) -> Plan:
    """Orbits, their solving order and 3-cycle libraries for the NxNxN (computed once per size);
    from N = batched_from, the T-centres' libraries only."""
    cube = BigCube(n)
    orbits = cycles.piece_orbits(cube)
    if n >= batched_from:
        return _batched_plan(cube, orbits)
    pure = {i: cycles.find_commutators(cube, o, set()) for i, o in enumerate(orbits)}
    order = [i for i in pure if not pure[i]] + [i for i in pure if pure[i]]
    setup_list = cycles.setups(cube)
    libraries = []
    for rank, i in enumerate(order):
        later = set()
        for j in order[rank + 1:]:
            later |= set(orbits[j].positions) | set(orbits[j].partner.values())
        commutators = pure[i] or cycles.find_commutators(cube, orbits[i], later)
        if not commutators:
            raise AssertionError(f"cube{n}: no 3-cycle found for a {orbits[i].kind} orbit")
        libraries.append(cycles.build_library(cube, orbits[i], commutators, setup_list))
    parity_turns = [_odd_turn(cube, orbits[i]) if orbits[i].kind == "wing" else None for i in order]
    return Plan(cube, [orbits[i] for i in order], libraries, parity_turns)


def _batched_plan(cube: BigCube, orbits: list[cycles.PieceOrbit]) -> Plan:
    """For N >= batched.FROM: libraries for the T-centres alone (on a face's middle lines, which no
    slice of the catalog turns; batched.py does the other pieces), solved first, each library built
    from the turns that move its orbit (the full build for all turns took 32 s for N = 13)."""
    middle = [o for o in orbits if o.kind == "centre" and any(0 in cube.points[s] for s in o.positions)]
    order = middle + [o for o in orbits if o not in middle]
    libraries: list[cycles.Library | None] = []
    for rank, orbit in enumerate(order):
        if orbit not in middle:
            libraries.append(None)
            continue
        later = set()
        for other in order[rank + 1:]:
            later |= set(other.positions) | set(other.partner.values())
        layers = cycles.moving_layers(cube, orbit)
        commutators = cycles.find_commutators(cube, orbit, later, layers=layers)
        if not commutators:
            raise AssertionError(f"cube{cube.n}: no 3-cycle found for a T-centre orbit")
        libraries.append(cycles.build_library(cube, orbit, commutators, cycles.setups(cube, layers=layers)))
    parity_turns = [_odd_turn(cube, o) if o.kind == "wing" else None for o in order]
    return Plan(cube, order, libraries, parity_turns)


def _odd_turn(cube: BigCube, orbit: cycles.PieceOrbit) -> Layer:
    index = {s: k for k, s in enumerate(orbit.positions)}
    for layer in cube.layers():
        if layer.depth > 1 and layer.turns == 1:
            p = cube.layer_perm(layer)
            if perm.parity([index[p[s]] for s in orbit.positions]):
                return layer
    raise AssertionError("no inner quarter turn is odd on a wing orbit")


class _Reduction:
    def __init__(self, n: int, state: str, goal: str, batched_from: int = batched.FROM):
        self.plan = plan(n, batched_from)
        self.cube = self.plan.cube
        self.state = list(state)
        self.goal = goal
        self.face_colour = {face: goal[self.cube.faces.index(face)] for face in "URFDLB"}
        self.layers: list[Layer] = []

    def apply(self, seq) -> None:
        for layer in seq:
            self.state = list(perm.apply(self.cube.layer_perm(layer), self.state))
            self.layers.append(layer)

    def value(self, orbit, x, state=None) -> tuple:
        state = state or self.state
        return (state[x], state[orbit.partner[x]]) if orbit.partner else (state[x],)

    def three_by_three(self) -> list[str]:
        """The colours of the 3x3x3 the big cube is read as: a 3x3x3 cubie at c in {-1, 0, 1}^3
        sits at c * (N - 1) in the big cube's doubled coordinates."""
        n = self.cube.n
        colours = []
        for i in range(cube3_geometry.STICKERS):
            normal = cube3_geometry.NORMALS[cube3_geometry.face_of(i)]
            cubie = [(p - q) // 2 for p, q in zip(cube3_geometry.POINTS[i], normal)]
            if all(cubie) or n % 2:
                big = tuple(c * (n - 1) + q for c, q in zip(cubie, normal))
                colours.append(self.state[self.cube.index_of[big]])
            elif cubie.count(0) == 2:  # even N has no fixed centres: take them solved
                colours.append(self.face_colour[cube3_geometry.face_of(i)])
            else:  # nor middle edges: the piece next to a corner, right when edges are paired
                big = tuple((c * (n - 1) if c else n - 3) + q for c, q in zip(cubie, normal))
                colours.append(self.state[self.cube.index_of[big]])
        return colours

    def pll_parity(self) -> list[str]:
        """For even N with paired edges whose permutation is odd against the corners' (the "PLL
        parity"): the catalog turns of PLL_PARITY, applied; else nothing."""
        if self.cube.n % 2:
            return []
        try:
            cubies = cube3.to_cubies("".join(self.three_by_three()))
        except PuzzleError:  # edges not paired: the 3-cycles will do it
            return []
        if perm.parity(cubies.cp) == perm.parity(cubies.ep):
            return []
        names = pll_parity_turns(self.cube.n)
        for name in names:
            self.state = list(perm.apply(self.cube.named_moves[name], self.state))
        return names

    def copy(self) -> _Reduction:
        """The reduction as it is now, to go on from apart from this one."""
        other = copy.copy(self)
        other.state, other.layers = list(self.state), list(self.layers)
        return other

    def outer_pieces(self, seconds: float = 0.1) -> None:
        """Step 1: read the pieces the 3x3x3 has off the big cube and solve them with face turns
        (the two-phase search given `seconds`: 19.4 turns in 0.03 s, 19.1 in 0.1, 18.6 in 1)."""
        n = self.cube.n
        colours = self.three_by_three()
        cubies = None
        if n % 2 == 0:
            try:
                cubies = _even_cubies("".join(colours))
            except PuzzleError:  # edges not paired: solve the corners, the edges taken as solved
                colours = [self.face_colour[cube3_geometry.face_of(i)] if edge else c
                           for i, (c, edge) in enumerate(zip(colours, _EVEN_EDGE_STICKERS))]
        try:
            cubies = cubies or (_even_cubies if n % 2 == 0 else cube3.to_cubies)("".join(colours))
            cubies.check()
        except PuzzleError as error:
            raise type(error)(f"cube{n}: its corners{' and middle edges' if n % 2 else ''} seen as a 3x3x3: {error}")
        turns = {"": 1, "2": 2, "'": 3}
        solution = cube3_solve.solve_cubies(cubies, budget=deadline.current().part(seconds))
        self.apply([Layer(name[0], 1, turns[name[1:]]) for name in solution])

    def fix_parity(self) -> None:
        for orbit, turn in zip(self.plan.orbits, self.plan.parity_turns):
            if turn is None:
                continue
            home = {self.value(orbit, x, self.goal): k for k, x in enumerate(orbit.positions)}
            pieces = [home.get(self.value(orbit, x)) for x in orbit.positions]
            if sorted(pieces, key=lambda k: -1 if k is None else k) != list(range(len(pieces))):
                raise UnreachableError(f"cube{self.cube.n}: the wings at stickers {orbit.positions[:3]}... "
                                       "do not have the colours of one wing each")
            if perm.parity(pieces):
                self.apply([turn])

    def check_colours(self, orbit) -> None:
        have = sorted(self.value(orbit, x) for x in orbit.positions)
        if have != sorted(self.value(orbit, x, self.goal) for x in orbit.positions):
            raise UnreachableError(f"cube{self.cube.n}: the {orbit.kind} pieces at stickers {orbit.positions[:4]}... "
                                   "do not have the colours their places need (stickers moved between kinds)")

    def solve_orbit(self, orbit, library) -> None:
        """3-cycles until every piece of the orbit is home. Each cycle is the one with the fewest
        turns per piece brought home among those that move no home piece away; when there is none,
        one that brings home the first misplaced piece in the orbit's order, moving only pieces after it."""
        self.check_colours(orbit)
        size = len(orbit.positions)
        half_way = False  # the last cycle took a piece half way to the first misplaced place
        for _ in range(2 * size * (size + 1)):  # the first misplaced place only moves on; in between, home only grows
            goal = {x: self.value(orbit, x, self.goal) for x in orbit.positions}
            now = {x: self.value(orbit, x) for x in orbit.positions}
            wrong = [x for x in orbit.positions if now[x] != goal[x]]
            if not wrong:
                return
            first = orbit.positions.index(wrong[0])
            before = set(orbit.positions[:first])
            seq = None if half_way else self._best_cycle(library, now, goal, set(orbit.positions) - set(wrong), wrong)
            seq = seq or self._best_cycle(library, now, goal, before, wrong[:1])
            half_way = seq is None
            seq = seq or self._two_steps(library, now, goal, before, wrong[0])
            deadline.check()
            if seq is None:
                raise UnreachableError(f"cube{self.cube.n}: no 3-cycle places the {orbit.kind} piece at "
                                       f"sticker {wrong[0]}")
            self.apply(seq)
        raise UnreachableError(f"cube{self.cube.n}: the {orbit.kind} pieces at stickers {orbit.positions[:4]}... "
                               "could not be placed")

    def batched(self, solve) -> None:
        """Pieces home by batched commutators: batched.solve_middles or batched.solve."""
        colours = {c: i for i, c in enumerate(sorted(set(self.goal)))}
        codes = lambda text: np.array([colours[c] for c in text], dtype=np.int8)  # noqa: E731
        layers, reached = solve(self.cube.n, codes(self.state), codes(self.goal))
        self.state = [sorted(colours)[c] for c in reached]
        self.layers += layers

    @staticmethod
    def _best_cycle(library, now, goal, kept, targets) -> list[Layer] | None:
        """The 3-cycle bringing a piece home to one of `targets` with the fewest turns per piece it
        brings home, moving no piece of `kept` away (a kept place may receive a piece that belongs
        there too)."""
        best = None
        for t in targets:
            for p, thirds in ((p, library.cycles.get((p, t), {})) for p in now if now[p] == goal[t] and p not in kept):
                for q, entry in thirds.items():
                    if q in (p, t) or (q in kept and now[t] != goal[q]):
                        continue
                    # Pieces home among the three places after the cycle, less those home before it.
                    gained = (1 + (now[t] == goal[q]) + (now[q] == goal[p])
                              - (now[p] == goal[p]) - (now[q] == goal[q]))
                    score = entry[0] / max(gained, 0.5)
                    if best is None or score < best[0]:
                        best = (score, entry)
        return library.sequence(best[1]) if best else None

    @staticmethod
    def _two_steps(library, now, goal, kept, t) -> list[Layer] | None:
        """A 3-cycle taking a piece that belongs at t to a place from where one can bring it to t, or
        two 3-cycles that together bring it to t, moving no piece of `kept`."""
        sources = [p for p in now if now[p] == goal[t] and p not in kept]
        movable = [x for x in now if x not in kept and x != t]
        for p in sources:
            for r in movable:
                if r == p or not any(q not in kept and q not in (r, t) for q in library.cycles.get((r, t), {})):
                    continue
                for q, entry in library.cycles.get((p, r), {}).items():
                    if q not in kept and q not in (p, r):
                        return library.sequence(entry)
        for p in sources:
            for q in movable:
                if q != p:
                    pair = _two_cycles(library, p, t, q)
                    if pair:
                        return pair
        return None


def _two_cycles(library: cycles.Library, frm: int, to: int, third: int) -> list[Layer] | None:
    """The 3-cycle frm -> to -> third -> frm as two 3-cycles of the library, when it has no set-up of
    its own: the first one any, the second the rest."""
    want = {frm: to, to: third, third: frm}
    for (u, v), thirds in library.cycles.items():
        for w, first in thirds.items():
            back = {v: u, w: v, u: w}  # where the piece now at a place was before the first cycle
            rest = {}
            for y in set(back) | set(want):
                x = back.get(y, y)
                if want.get(x, x) != y:
                    rest[y] = want.get(x, x)
            if len(rest) != 3:
                continue
            a = next(iter(rest))
            second = library.cycles.get((a, rest[a]), {}).get(rest[rest[a]])
            if second:
                return library.sequence(first) + library.sequence(second)
    return None


NESTED_RESERVE = 5.0  # seconds kept for the batched commutators when a nested solve fails (1 s at most for N <= 11)


def solve_big_cube(state: str, n: int, goal: str | None = None, time_limit: float = 10.0, *,
                   budget: Budget | None = None, short_phases: bool = True,
                   batched_from: int = batched.FROM, reserve: float = NESTED_RESERVE,
                   reduced: bool = False) -> list[str]:
    """A solution (catalog SiGN turns: R, Rw, 3Rw, with ' and 2) of a state of the catalog's cubeN,
    a string of 6 * N * N colours in the catalog's numbering, to `goal` (by default the catalog's
    goal; any solved colouring: each face one colour, six colours). For N = 4 (four_search), N = 5
    (short.py, five.py) and N in to_five.SIZES the cube is first reduced by short phases (unless
    `short_phases` is False), within most of the time. `budget` (default: `time_limit` seconds) is checked between beam depths and
    3-cycles: a cancel or the end of the time raises Cancelled or OutOfTime; progress names the phase.
    From N = `batched_from` the centres and wings go by batched commutators (batched.py; a larger
    value gives the single 3-cycles of before, for benches). `reserve`: the seconds kept for them
    when N is nested (to_five.NESTED) and that fails (none for an inner cube: its nesting's caller
    keeps them). `reduced`: the turns may stop once the cube is a 3x3x3 (centres home, edges paired,
    no PLL parity): what a nesting's inner cube needs (to_five.py), its 5x5x5's 3x3x3 stage left
    out (about 20 turns, and its search's time); a way the short phases do not give is solved whole."""
    budget = (budget or Budget()).with_limit(time_limit)
    with deadline.within(budget):
        return _solve(state, n, goal, budget, short_phases, batched_from, reserve, reduced)


def _solve(state: str, n: int, goal: str | None, budget: Budget, short_phases: bool, batched_from: int,
           reserve: float, reduced: bool) -> list[str]:
    cube = BigCube(n)
    goal = goal or cube.solved()
    size = 6 * n * n
    for name, text in (("state", state), ("goal", goal)):
        if len(text) != size:
            raise StateError(f"{name}: cube{n} has {size} stickers, got {len(text)}")
    face_colours = {f: {goal[i] for i in range(size) if cube.faces[i] == f} for f in "URFDLB"}
    if any(len(c) != 1 for c in face_colours.values()) or len(set.union(*face_colours.values())) != 6:
        raise StateError(f"goal: cube{n} needs a solved colouring, one colour per face and six colours")
    if sorted(state) != sorted(goal):
        raise StateError(f"state: cube{n} needs {n * n} stickers of each of {''.join(sorted(set(goal)))}")
    if n == 3:
        return cube3_solve.solve_facelets(state)
    check = _Reduction(n, state, goal, batched_from)
    for orbit in check.plan.orbits:  # an impossible state is refused before any phase runs
        check.check_colours(orbit)
    left = budget.remaining()
    tried: list[tuple[int, _Way, _Reduction]] = []  # (length, way, its reduction after a 3x3x3 stage)
    # N = 8 .. 11 nested (to_five.py) when (nearly) its seconds are left besides the batched
    # commutators' (the answer should it fail), and within them
    nested = n in to_five.NESTED and (left is None or left - reserve >= 0.8 * to_five.seconds(n))
    nested_answer = None
    if short_phases and (n in to_five.SIZES or nested):
        try:
            if not nested:
                return to_five.solve(state, n, goal, budget, reduced)
            part = budget.part(to_five.seconds(n) if left is None else min(to_five.seconds(n), left - reserve))
            with deadline.limit(part):  # (its phases stop at its end)
                nested_answer = to_five.solve(state, n, goal, part, reduced)
        except (short.beam.Timeout, OutOfTime):
            pass  # the 3-cycles below (the batched commutators from N = 8), with the time left
    elif n == 4 and short_phases:
        try:
            ways = _reduced_ways(state, goal, budget, batched_from)
            if reduced and ways:
                return _shortest_way(ways)
            tried = _three_by_three(ways, SCREEN, budget, left, must=True)
        except OutOfTime:
            pass  # the 3-cycles alone still give an answer
        tried = _refined(tried, budget, left)
    elif n == five.N and short_phases:
        found: list[_Way] = []
        try:
            for ways in _short_ways(state, n, goal, budget, batched_from):
                if reduced:
                    found += ways
                else:
                    tried += _three_by_three(ways, SCREEN, budget, left, must=not tried)
        except (short.beam.Timeout, OutOfTime):
            pass  # the 3-cycles alone still give an answer (they stop too if no time is left)
        if reduced and found:
            return _shortest_way(found)
        tried = _refined(tried, budget, left)
    if nested_answer is None:
        return _by_three_cycles(n, goal, tried, check, budget, left, batched_from)
    # the batched commutators too (under a second for N <= 11): a nested solve whose inner cube fell
    # back to them (out of time) may give more turns than they do
    try:
        answer = _by_three_cycles(n, goal, tried, check, budget, left, batched_from)
    except OutOfTime:
        return nested_answer
    return min(nested_answer, answer, key=len)


def _shortest_way(ways: list[_Way]) -> list[str]:
    """The turns of the shortest of `ways` (each ends on a 3x3x3), on the cube as given."""
    way = min(ways, key=lambda way: len(merge_turns(way.turns)))
    return way.rotation.unrotate(merge_turns(way.turns))


def _by_three_cycles(n: int, goal: str, tried: list, check: _Reduction, budget: Budget, left: float,
                     batched_from: int) -> list[str]:
    """The answer of the shortest way `tried` (without any: from the scramble, `check`) finished by
    a 3x3x3 stage and the 3-cycles (from N = `batched_from` the batched commutators)."""
    if not tried:  # without the short phases: 3-cycles from the scramble
        tried = _three_by_three([_Way(rotations(n)[0], [], check)], 0.1, budget, left, must=True)
    _, way, job = min(tried, key=lambda entry: entry[0])
    with deadline.phase("3-cycles"):
        budget.report(phase="3-cycles", best=len(way.turns))
        job.fix_parity()
        if n >= batched_from and n % 2:
            job.batched(batched.solve_middles)
        for orbit, library in zip(job.plan.orbits, job.plan.libraries):
            if library is not None:
                job.solve_orbit(orbit, library)
        if n >= batched_from:
            job.batched(batched.solve)
    if "".join(job.state) != goal:
        raise UnreachableError(f"cube{n}: the state is not reachable from the goal (pieces left unsolved)")
    return way.rotation.unrotate(merge_turns(way.turns + [name for layer in job.layers for name in layer.sign()]))


@dataclass
class _Way:
    """A way through the short phases of a rotated cube (`rotation`): its centre, pairing and PLL
    parity turns, and the reduction that goes on from the state they reach (on the rotated cube)."""
    rotation: Rotation
    turns: list[str]
    job: _Reduction


CANDIDATES = 4  # the shortest ways of each rotation taken through a quick 3x3x3 stage
SCREEN = 0.03  # seconds of that stage's search (19.4 turns on random 3x3x3s, 19.1 in 0.1 s)
REFINED = 2  # the shortest answers in all whose 3x3x3 stage searches again, longer (18.8 turns in 0.3 s)
# at most, each (three refined for up to 1 s each gave the same lengths on 10 4x4x4s; two for up
# to 1 s, 0.25 turns fewer than one for 0.5 s on 16 5x5x5s; a longer screen, 0.08 s, none)
REFINE_SECONDS = 1.0
# Of the time left at the start, what a round's shortest way needs left to be screened (the others
# 0.2): a rotation whose phases ended near ROUNDS_END was dropped unscreened, its ways lost (a 6x6x6
# state 171 turns, its first rotation's greedy fallback, 137 with a later rotation's ways).
SCREEN_FIRST = 0.1


def _three_by_three(ways: list[_Way], seconds: float, budget: Budget, left: float,
                    must: bool = False) -> list[tuple[int, _Way, _Reduction]]:
    """The first CANDIDATES `ways` (shortest first) each through a 3x3x3 stage searching `seconds`
    (on a copy of its reduction), with the length of the whole (merged), while at least 0.2 of the
    time `left` at the start remains (the first one while SCREEN_FIRST of it does, and anyway when
    `must`: no answer without it)."""
    done = []
    with deadline.phase("3x3x3"):
        for way in sorted(ways, key=lambda way: len(merge_turns(way.turns)))[:CANDIDATES]:
            if (done or not must) and budget.remaining() < (0.2 if done else SCREEN_FIRST) * left:
                break
            job = way.job.copy()
            job.outer_pieces(seconds)
            done.append((len(merge_turns(way.turns + [name for layer in job.layers for name in layer.sign()])), way, job))
    return done


def _refined(tried: list[tuple[int, _Way, _Reduction]], budget: Budget, left: float) -> list[tuple[int, _Way, _Reduction]]:
    """`tried` and the REFINED shortest of it again, each 3x3x3 stage searching longer: the time
    left but 0.2 of `left` (the 3-cycles and the replay need some), shared, at most REFINE_SECONDS each."""
    best = sorted(tried, key=lambda entry: entry[0])[:REFINED]
    seconds = min(REFINE_SECONDS, (budget.remaining() - 0.2 * left) / max(len(best), 1))
    if seconds <= SCREEN:
        return tried
    return tried + [entry for _, way, _ in best for entry in _three_by_three([way], seconds, budget, left)]


# A rotation more is tried only when the slowest round so far (times VARIANT_MARGIN) is left before
# ROUNDS_END of the time: a round cut short costs only its time. At 1.5 and 0.7 the 5x5x5 tried one
# rotation in most states and left 4 s of 10 unused; at 1.0 and 0.8, 0.9 turns fewer on 16 states
# (76.4 to 75.5), at 0.8 and 0.85 no fewer.
VARIANT_MARGIN = 1.0
ROUNDS_END = 0.8
SCREEN_END = 0.35  # of the time left at the start, until when other rotations' centres are solved
# Below this many seconds a solve's rounds run on one thread: there is no time for other rounds,
# and another thread's screening (Python and numpy beams) slows the first round's Python parts,
# its greedy pairing when its phases run out of time, which then end past a 0.5 s limit.
THREADS_FROM = 2.0
ROUNDS = 8  # rotations paired at most per thread (5-9 fitted in 10 s for a 4x4x4 with these phases): a longer limit ends sooner


def five_ways(state: np.ndarray, goal: np.ndarray, done: int, greedy: float,
              stop: float) -> tuple[list[list[str]], bool]:
    """The 5x5x5's ways from its centres on their axes (after `done` turns) to a 3x3x3, and whether
    five.py's phases gave them: those phases until `stop` (which leaves the pairing's greedy time,
    stop - greedy, unused); should they run out of time (several states in ten when the machine's
    two cores are shared by five to ten processes; on a quiet one, a state in 25 whose phase 3
    needs more than 3 s), the centres home down short.py's exact tables and the edges paired by
    free-slice macros, greedily, in that time after `stop` (30-40 turns more than the phases)."""
    ways = five.reduce(state, goal, done, stop)
    if ways:
        return ways, True
    until = stop + (stop - greedy)
    last, centred = short.solve_centres(state, goal, five.N, until)
    return [last + pairing for pairing in short.pair_edges(centred, five.N, time.perf_counter(), until)], False


def _short_ways(state: str, n: int, goal: str, budget: Budget, batched_from: int) -> Iterator[list[_Way]]:
    """The 5x5x5's short phases (centres onto their axes by short.py, then five.py's phases, or the
    pairing should they run out of time: `five_ways`) on the cube and, while the time allows,
    on its rotations (model.rotations: each other axis order makes the phases, which start with
    the U/D centres, do different work): the ways of each rotation with their PLL parity turns, for
    the 3x3x3 stage to choose from (between two rotations). The lengths of the ways of different
    rotations vary by several turns (the best of six rotations of a 4x4x4 was 3.4 turns shorter on
    average than the first one's). The first rotation's phases end by 0.55 (centres), 0.7 and 0.8
    (pairing: greedy, then stop) of the time left, as when it was the only one. The other rotations'
    centres are solved (screened) until SCREEN_END, and the shortest of them go on, each round
    started while VARIANT_MARGIN times the longest round so far is left before ROUNDS_END, where it
    stops; only ways with every edge paired count from them. Rounds and screens run on the solve's
    threads (solver.threads): with two, the others are screened while the first round runs, and
    two rounds run at a time."""
    colours = {c: i for i, c in enumerate(sorted(set(goal)))}
    target = np.array([colours[c] for c in goal], dtype=np.uint8)
    short.prepare(n, target.tobytes())  # tables and macros loaded (or built once) before the phases' clock
    cube = short.plan(n).cube
    start, left = time.perf_counter(), budget.remaining()
    end = start + ROUNDS_END * left
    first = rotations(n)[0]

    def centred(rotation: Rotation, stop: float) -> tuple[list[str], np.ndarray, Rotation]:
        """The centre turns of the rotated cube and the state they reach."""
        codes = np.array([colours[c] for c in rotation.turn(state, goal)], dtype=np.uint8)
        with deadline.phase("centres"):
            return (*short.solve_centres(codes, target, n, stop, on_axes=True), rotation)

    def ways(rotation: Rotation, centres: list[str], reached: np.ndarray, greedy: float,
             stop: float) -> tuple[list[_Way], bool]:
        """The pairings of the rotated cube with its centres solved, with their PLL parity turns,
        and whether five.py's phases gave them."""
        with deadline.phase("edge pairing"):
            pairings, by_phases = five_ways(reached, target, len(centres), greedy, stop)
        if rotation is not first:
            pairings = short.paired_ways(reached, pairings, n)
        found = []
        for pairing in pairings:
            paired = short.apply_names(cube, reached, pairing)
            job = _Reduction(n, "".join(sorted(colours)[c] for c in paired), goal, batched_from)
            found.append(_Way(rotation, centres + pairing + job.pll_parity(), job))
        return found, by_phases

    def first_round(centres: list[str], reached: np.ndarray) -> tuple[list[_Way], float | None]:
        """Its ways and its time, None when its phases ran out of time (which says nothing of
        another rotation's, whose phases may need far less)."""
        began = time.perf_counter()
        found, by_phases = ways(first, centres, reached, start + 0.7 * left, start + 0.8 * left)
        return found, (time.perf_counter() - began if by_phases else None)

    def later_round(centres: list[str], reached: np.ndarray, rotation: Rotation) -> tuple[list[_Way], float]:
        began = time.perf_counter()
        return ways(rotation, centres, reached, end, end)[0], time.perf_counter() - began

    unscreened = list(rotations(n)[1:])
    screened = []  # (centre turns, reached, rotation): the shortest centres first
    first_time = pairing_round = None  # the first round's time, the longest later round's
    later = 0  # rounds started after the first
    stopped = False  # a later round ran out of time: nothing more is started

    def next_task() -> tuple[str, Callable, tuple] | None:
        """For a free thread: another rotation's centres while SCREEN_END (or nothing screened
        yet), else a round of the shortest centres screened, while one fits before ROUNDS_END."""
        nonlocal later
        now = time.perf_counter()
        if stopped or first_time is not None and now + VARIANT_MARGIN * (pairing_round or first_time) > end:
            return None
        if unscreened and (now <= start + SCREEN_END * left or not screened):
            return "screen", centred, (unscreened.pop(0), end)
        if screened and later < ROUNDS * pool.threads - 1:
            later += 1
            return "round", later_round, screened.pop(0)
        return None

    # The first rotation's centres before the threads start: their beam is mostly Python and numpy,
    # slowed by a second thread's (its phases are compiled kernels that free the GIL).
    first_centres = centred(first, start + 0.55 * left)[:2]
    with threads.pool(None if left >= THREADS_FROM else 1) as pool:
        running = {pool.submit(first_round, *first_centres): "first"}
        while True:
            while len(running) < pool.threads:
                task = next_task()
                if task is None:
                    break
                kind, work, args = task
                running[pool.submit(work, *args)] = kind
            if not running:
                return
            done, _ = futures.wait(running, return_when=futures.FIRST_COMPLETED)
            for future in done:
                kind = running.pop(future)
                if kind == "screen":
                    try:
                        screened.append(future.result())
                    except (short.beam.Timeout, OutOfTime):
                        unscreened.clear()
                    screened.sort(key=lambda entry: len(entry[0]))
                    continue
                if kind == "first":
                    found, seconds = future.result()  # (its Timeout goes to the caller: no ways at all)
                    first_time = seconds or 0.0
                    yield found
                    continue
                try:
                    found, seconds = future.result()
                except (short.beam.Timeout, OutOfTime):
                    stopped = True  # its deadline, ROUNDS_END, has come (the others end by it too)
                    continue
                pairing_round = max(pairing_round or 0.0, seconds)
                yield found


# Of the time left: what the 4x4x4's three phases take, and how long they go on when they have
# not found one way yet (the 3x3x3 stages need the rest: 0.03 s each, 0.5 s refined).
PHASES_SHARE, PHASES_END = 0.5, 0.8


def _reduced_ways(state: str, goal: str, budget: Budget, batched_from: int) -> list[_Way]:
    """The 4x4x4's three-phase reduction (four_search), on the cube turned so that each of its
    axes is the special one in turn: the ways found, shortest first, each at a state the 3x3x3
    stage finishes (centres home, edges paired, no parity)."""
    colours = {c: i for i, c in enumerate(sorted(set(goal)))}
    codes = lambda text: np.array([colours[c] for c in text], dtype=np.uint8)  # noqa: E731
    turned = axes_rotations(4)
    cube = short.plan(4).cube
    four_search.searches()  # tables loaded (or built once) before the phases' clock
    with deadline.phase("three phases"):
        found = four_search.reductions([codes(r.turn(state, goal)) for r in turned], codes(goal),
                                       budget.part(PHASES_END * budget.remaining()),
                                       PHASES_SHARE * budget.remaining())
    if budget.cancelled():
        raise Cancelled()
    ways = []
    for way in found:
        names = [short.plan(4).names[m] for m in way.turns]
        reached = cube.apply(turned[way.rotation].turn(state, goal), names)
        ways.append(_Way(turned[way.rotation], names, _Reduction(4, reached, goal, batched_from)))
    return ways


@lru_cache(maxsize=None)
def axes_rotations(n: int) -> tuple[Rotation, ...]:
    """Three rotations of the cube, each putting another of its axes on U/D."""
    axis = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}
    chosen = {}
    for rotation in rotations(n):
        chosen.setdefault(axis[rotation.back["U"]], rotation)
    return tuple(chosen[a] for a in sorted(chosen))
