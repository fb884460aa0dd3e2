"""The 6x6x6 and 7x7x7 reduced to a 5x5x5, which the 5x5x5's own solver then solves.

With its middle layers grouped (grouped.five: {1}, {2}, {3 .. N-2}, {N-1}, {N}) a big cube is a
5x5x5 under the turns of at most two layers once every cell of that 5x5x5 is one colour, and each
5x5x5 catalog turn is one catalog turn of the big cube (R = R, Rw = Rw). The cells of more than one
piece are
- those of the middle layers: the 5x5x5's fixed centres (the big cube's centres between its
  third layers) and midges (the edges' middle pieces). These are the centres and edges of the
  *inner cube* (grouped.inner: every layer but the second from each face, a 4x4x4 for the 6x6x6,
  a 5x5x5 for the 7x7x7), which every big turn turns as one of its own: the inner cube reduced
  (centres home, edges paired, and the 4x4x4's PLL parity fixed) is what they need;
- the *rows* of the outer ring between the second layers: the 5x5x5's T-centres (the 6x6x6's two
  obliques side by side, the 7x7x7's T-centre and the two obliques beside it).

So three steps:
1. the inner cube reduced, its turns played on the big cube (the 4x4x4's Rw is the 6x6x6's 3Rw,
   the 5x5x5's the 7x7x7's 3Rw): the 6x6x6's by the 4x4x4's three phases (four_search.py, on the
   cube seen with each axis as the special one: centres home, edges paired, no PLL parity), the
   7x7x7's by short phases (short.py: centres, on the cube and on some of its rotations, the
   fewest turns going on; then free-slice pairing);
2. the rows matched with short's partner pairing moves: the turns of at most two layers (the
   inner cube sees them as its face turns: it stays reduced) and the conjugates W X W' (W a
   three-layer turn) that keep the inner cube's centres home, whose X are all slices of the second
   layer, which the inner cube does not see (a test checks every move); by a beam ranked by
   catalog turns (beam.by_cost);
3. the 5x5x5 solved by reduction.solve_big_cube, its turns played one for one.
(The rows before the inner cube's edges: 7x7x7 rows of 66 turns against 59 after, same states; and
the 6x6x6's PLL parity algorithm, played after the rows, unmatched 8 of them.)
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from solver import deadline
from solver.errors import UnreachableError
from solver.search.budget import Budget, one_time_work
from solver.special.bigcube import beam, four_search, freeslice, grouped, short
from solver.special.bigcube.model import Rotation, merge_turns, rotations

SIZES = (6, 7)
# Deadlines of the first two steps, in shares of the time left at the start; the 5x5x5 has the rest.
# (At load 5-10 a 10 s limit leaves 3-4 s of CPU; the 7x7x7's steps 1 and 2 take about 2, the
# 5x5x5 needs 2.5-4 and falls to its 3-cycles with less.)
CENTRES_END = 0.2  # (a cap: the 5x5x5 centres take 0.35 s of CPU, past 1 s at load 9)
SCREEN_END = 0.05  # other rotations' inner centres tried until then
# the inner cube's pairing narrows to one way from PAIRING_GREEDY on (a greedy finish: a few tenths of a second)
PAIRING_GREEDY, PAIRING_END = 0.15, 0.6
ROWS_NARROW, ROWS_END = 0.2, 0.35  # of the time, from the rows' start: their beam a quarter as wide, then stopped
# The inner cube's pairing beam (freeslice.pair): the 4x4x4's edges in 22.5 turns at 8 states (0.8 s
# of CPU), 24.3 at 4 (0.5 s), 26.3 at 1, on 6 states; the 5x5x5's in 45.8 at 2 (1.3 s), 43.8 at 4
# (2.4 s), 51 at 1 (0.8 s), on 4 (load 10).
PAIRING_WIDTHS = {6: 4, 7: 1}
CHECK_SHARE = 0.05  # kept back for playing the answer on the big cube


def solve(state: str, n: int, goal: str, budget: Budget) -> list[str]:
    """Catalog turns solving `state` of the catalog's cubeN (N in SIZES) to `goal` (a solved
    colouring): steps 1 and 2, then the 5x5x5 of the state they reach by
    reduction.solve_big_cube. beam.Timeout (or OutOfTime) when a step before the 5x5x5 runs out
    of time."""
    from solver.special.bigcube import reduction  # it sends the 6x6x6 and 7x7x7 here; this sends it their 5x5x5

    left = budget.remaining()
    rotation, turns, now = steps(state, n, goal, budget)
    five = grouped.five(n)
    if not five.whole(now):
        raise UnreachableError(f"cube{n}: not a 5x5x5 after the inner cube and the rows")
    letters = sorted(set(goal))
    text = lambda codes: "".join(letters[c] for c in codes)  # noqa: E731
    seconds = budget.remaining() - CHECK_SHARE * left
    target = "".join(goal[i] for i in five.stickers)  # (the rotated cube's goal is the goal: model.Rotation.turn)
    answer = reduction.solve_big_cube(text(five.project(now)), 5, target, budget=budget.part(seconds))
    return rotation.unrotate(merge_turns(turns + [five.turn(name) for name in answer]))


def steps(state: str, n: int, goal: str, budget: Budget) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2: the rotation of the cube they run on, its big catalog turns and the colour
    codes (sorted colours' indices) of the rotated cube they reach, a 5x5x5 when whole."""
    code = {c: i for i, c in enumerate(sorted(set(goal)))}
    codes = lambda text: np.array([code[c] for c in text], dtype=np.uint8)  # noqa: E731
    target = codes(goal)
    prepare(n, target.tobytes())
    left = budget.remaining()
    if n == 6:  # the inner cube a 4x4x4
        return _by_four(state, goal, codes, target, budget, left)
    return _by_short(state, goal, codes, target, n, time.perf_counter(), left)


# The 6x6x6's inner cube by the 4x4x4's three phases (four_search): 25.8 turns on 10 states in 0.7 s
# where short's centres and free-slice pairing took about 44.5. They look for ways until FOUR_SHARE of
# the time, for a first one until FOUR_END; the rows are matched after each of the first ROW_WAYS
# ways while ROWS_MORE of the time is not gone, and the fewest turns in all go on.
FOUR_SHARE, FOUR_END = 0.12, 0.35
ROW_WAYS, ROWS_MORE = 4, 0.3


def _by_four(state: str, goal: str, codes, target: np.ndarray, budget: Budget,
             left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2 of the 6x6x6: the rotation of the cube they run on, the big turns (inner cube
    and rows) and the state they reach."""
    from solver.special.bigcube import reduction

    n, inner = 6, grouped.inner(6)
    start = time.perf_counter()
    turned = reduction.axes_rotations(n)
    states = [codes(rotation.turn(state, goal)) for rotation in turned]
    with deadline.phase("inner cube"):
        ways = four_search.reductions([inner.project(s) for s in states], inner.project(target),
                                      budget.part(FOUR_END * left), FOUR_SHARE * left)
    if not ways:
        raise beam.Timeout("the inner cube: not reduced in time")
    best = None
    with deadline.phase("rows"):
        for way in ways[:ROW_WAYS]:
            if best is not None and time.perf_counter() > start + ROWS_MORE * left:
                break
            names = [inner.turn(short.plan(4).names[m]) for m in way.turns]
            reached = short.apply_names(inner.big, states[way.rotation], names)
            now = time.perf_counter()
            try:
                rows, reached = _rows(reached, n, now + ROWS_NARROW * left, now + ROWS_END * left)
            except beam.Timeout:
                if best is None:
                    raise
                break
            names = merge_turns(names + rows)
            if best is None or len(names) < len(best[1]):
                best = (turned[way.rotation], names, reached)
    return best


def _by_short(state: str, goal: str, codes, target: np.ndarray, n: int, start: float,
              left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2 by short's phases (the 7x7x7): the rotation, the big turns and the state reached."""
    inner = grouped.inner(n)
    with deadline.phase("inner centres"):
        # the inner centres of the cube and, while SCREEN_END allows, of its rotations (model.rotations:
        # the phases start with the U/D centres, so each axis order is other work): the fewest turns go on
        tried = []
        for rotation in rotations(n):
            if tried and time.perf_counter() > start + SCREEN_END * left:
                break
            now = codes(rotation.turn(state, goal))
            centres, _ = short.solve_centres(inner.project(now), inner.project(target), inner.m, start + CENTRES_END * left)
            tried.append((len(centres), len(tried), centres, now, rotation))
        _, _, centres, now, rotation = min(tried)
        turns = [inner.turn(name) for name in centres]
        now = short.apply_names(inner.big, now, turns)
    with deadline.phase("inner edges"):
        pairing, now = _inner_edges(now, target, n, start + PAIRING_GREEDY * left, start + PAIRING_END * left)
    with deadline.phase("rows"):
        rows, now = _rows(now, n, time.perf_counter() + ROWS_NARROW * left, time.perf_counter() + ROWS_END * left)
    return rotation, turns + pairing + rows, now


@lru_cache(maxsize=8)
def prepare(n: int, goal: bytes) -> None:
    """What the steps look up, loaded or built before their clock starts, as one-time work (a
    first solve in a process built the inner cube's balls and the 3-cycle plans inside its 10 s
    and ran out of time): the inner cube's and the 5x5x5's tables, balls and macros, the plans
    (the PLL parity reads the 4x4x4's, the 5x5x5's solver its own), the rows' conjugates."""
    from solver.special.bigcube import reduction

    target = np.frombuffer(goal, dtype=np.uint8)
    with one_time_work():
        for cube in (grouped.inner(n), grouped.five(n)):
            short.prepare(cube.m, cube.project(target).tobytes())
            reduction.plan(cube.m)
        if n == 6:
            four_search.searches()
        short.partner_pairing(n, short.stages(n)[1])


def _inner_edges(state: np.ndarray, goal: np.ndarray, n: int, greedy: float, stop: float) -> tuple[list[str], np.ndarray]:
    """Big catalog turns pairing the inner cube's edges (its centres home) with no PLL parity left,
    and the state they reach: the shortest of its free-slice pairings with its parity turns. A
    beam that leaves edges unpaired (at width 1 the 5x5x5's sometimes ends where no macro pairs
    one more: 2 of 20 7x7x7 states, then 3-cycles took 800-880 turns) is run again twice as wide
    while `stop` allows."""
    from solver.special.bigcube import reduction

    inner = grouped.inner(n)
    m, cube = inner.m, inner.small
    small, small_goal = inner.project(state), inner.project(goal)
    letters = lambda codes: "".join(chr(65 + c) for c in codes)  # noqa: E731 (any letters: the parity reads colours alike)
    ways, width = [], PAIRING_WIDTHS[n]
    turn_names = short.plan(m).names
    while not ways and time.perf_counter() < stop:
        for way in freeslice.pair(small, short.pairing_macros(m), freeslice.Edges(cube), greedy, stop, width):
            way = [turn_names[k] for k in way]
            paired = short.apply_names(cube, small, way)
            if not freeslice.Edges(cube).unpaired(paired[None])[0]:
                ways.append(merge_turns(way + reduction.pll_parity(m, letters(paired), letters(small_goal))))
        width, greedy = 2 * width, stop  # (wider: not narrowed again before the stop)
    if not ways:
        raise beam.Timeout("the inner cube's edges: not all paired")
    names = [inner.turn(name) for name in min(ways, key=len)]
    return names, short.apply_names(inner.big, state, names)


# The rows' beam (beam.by_cost; seconds of CPU at load 5-6, 4 states each): the 6x6x6's 24 obliques
# in 31.5 turns at 200 states (0.3 s), 30.8 at 300 (0.4 s), 27.5 at 1,000 (1.2 s); the 7x7x7's 48
# in 73.8 at 50 (0.4 s), 65.3 at 100 (0.7 s), 58.0 at 200 (1.2 s). (By the depth of beam.search,
# a conjugate counted as one: 37.6 at 300 and 68 at 200, same states.)
ROWS_WIDTHS = {6: 500, 7: 100}  # (the 7x7x7 at 100: its 5x5x5 needs the CPU more)


def _rows(state: np.ndarray, n: int, narrow: float, deadline: float) -> tuple[list[str], np.ndarray]:
    """Big catalog turns that match the rows, fewest turns first (beam.by_cost over short's
    partner pairing moves), and the state they reach."""
    how = short.partner_pairing(n, short.stages(n)[1])
    costs = np.array([len(sequence) for sequence in how.sequences])
    path = beam.by_cost(state[how.watched], how.moves, costs, how.pieces, how.neighbours, ROWS_WIDTHS[n], narrow, deadline)
    names = [short.plan(n).names[k] for move in path for k in how.sequences[move]]
    return names, short.apply_names(grouped.inner(n).big, state, names)

