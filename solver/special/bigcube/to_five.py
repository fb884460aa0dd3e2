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
   7x7x7's by the 5x5x5's (short.py's centres onto their axes, then five.py's phases: several
   ways);
2. the rows matched with short's partner pairing moves: the turns of at most two layers (the
   inner cube sees them as its face turns: it stays reduced) and the conjugates W X W' (W a
   three-layer turn) that keep the inner cube's centres home, whose X are all slices of the second
   layer, which the inner cube does not see (a test checks every move); by a beam ranked by
   catalog turns (beam.by_cost), after each of the inner cube's first ways while the time allows,
   the fewest turns in all going on;
3. the 5x5x5 solved by reduction.solve_big_cube, its turns played one for one.
(The rows before the inner cube's edges: 7x7x7 rows of 66 turns against 59 after, same states; and
the 6x6x6's PLL parity algorithm, played after the rows, unmatched 8 of them.)

The 8x8x8 to the 11x11x11 go the same way when they have the time (`NESTED`, `seconds`), their
inner cube (N - 2) reduced by this solver (to a 3x3x3: its own 5x5x5's 3x3x3 stage is left out), so
nested again from 10: a few hundred turns where the batched commutators take over a thousand.
Their rows (N - 4 pieces each) also need W X W' with W a single slice deeper than the second layer
(short.partner_pairing): an 8x8x8's two middle obliques of a row move apart under no other move.
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from solver import deadline, threads
from solver.search.budget import Budget, one_time_work
from solver.special.bigcube import beam, four_search, grouped, short
from solver.special.bigcube.model import Rotation, merge_turns, rotations

SIZES = (6, 7)
# Reduced to a 5x5x5 too, their inner cubes reduced by this solver (nested: the 10x10x10's an 8x8x8, itself
# nested); the 12x12x12's rows (eight pieces each) were not matched in 17 s
NESTED = range(8, 12)
# Deadlines of the first two steps, in shares of the time left at the start; the 5x5x5 has the rest
# (it needs 2.5-4 s of CPU and falls to its 3-cycles with less).
FOUR_SHARE, FOUR_END = 0.12, 0.35  # the 6x6x6's inner cube: ways looked for until, a first one until
FIVE_CENTRES_END, FIVE_GREEDY, FIVE_END = 0.1, 0.35, 0.4  # the 7x7x7's: centres, pairing (greedy from, stop)
ROW_WAYS, ROWS_MORE = 4, 0.3  # the rows matched after the first ROW_WAYS inner ways while ROWS_MORE is not gone
# of the time, from the rows' start: their beam's aim (beam._Pace narrows it to end by then), and
# its end (from the 5x5x5's time: a 9x9x9's rows, misjudged, ran out at their aim on one state in 12)
ROWS_END, ROWS_LATE = 0.35, 0.45
CHECK_SHARE = 0.05  # kept back for playing the answer on the big cube
# N > 7, nested: the inner cube reduced as a cube of its own (N - 2: nested again from 10), the rows,
# then the 5x5x5, each with the seconds it takes at its size (`seconds`), or a share of them
FIVE_SECONDS = 10.0  # the 5x5x5's, the 6x6x6's and the 7x7x7's (families.BIGCUBE_TIME_LIMIT)
# a nested size's rows, more pieces and moves as N grows: at width 250 an 8x8x8's took 3.5-4.8 s,
# a 9x9x9's 5.7-9.1 s; the 10x10x10's and 11x11x11's
# at their widths (ROWS_WIDTHS) 9-12 s and 13-18 s
ROWS_SECONDS = {8: 4.0, 9: 6.0, 10: 12.0, 11: 16.0}


def seconds(n: int) -> float:
    """The seconds a solve of N takes here when it has them: the 6x6x6's and 7x7x7's, and each
    nesting adds the rows' and a 5x5x5's (8x8x8 24 s, 9x9x9 26 s, 10x10x10 46 s, 11x11x11 52 s)."""
    return FIVE_SECONDS if n <= 7 else seconds(n - 2) + ROWS_SECONDS[n] + FIVE_SECONDS


def solve(state: str, n: int, goal: str, budget: Budget, reduced: bool = False) -> list[str]:
    """Catalog turns solving `state` of the catalog's cubeN (N in SIZES or NESTED) to `goal` (a solved
    colouring): steps 1 and 2, then the 5x5x5 of the state they reach by
    reduction.solve_big_cube (`reduced`: only to a 3x3x3, as a nesting's inner cube needs).
    beam.Timeout (or OutOfTime) when a step before the 5x5x5 runs out of time."""
    from solver.special.bigcube import reduction  # it sends the 6x6x6 and 7x7x7 here; this sends it their 5x5x5

    left = budget.remaining()
    rotation, turns, now = steps(state, n, goal, budget)
    five = grouped.five(n)
    if not five.whole(now):  # (the steps' failure, not the state's: the caller's 3-cycles answer)
        raise beam.Timeout(f"cube{n}: not a 5x5x5 after the inner cube and the rows")
    seconds = budget.remaining() - CHECK_SHARE * left
    target = "".join(goal[i] for i in five.stickers)  # (the rotated cube's goal is the goal: model.Rotation.turn)
    answer = reduction.solve_big_cube(_text(goal, five.project(now)), 5, target, budget=budget.part(seconds),
                                      reduced=reduced)
    return rotation.unrotate(merge_turns(turns + [five.turn(name) for name in answer]))


def _text(goal: str, codes: np.ndarray) -> str:
    """Colour codes (indices of the goal's sorted colours, as `steps` gives them) as colours."""
    letters = sorted(set(goal))
    return "".join(letters[c] for c in codes)


def rows_pairing(n: int) -> short.Pairing:
    """The rows' moves and pieces: short's partner pairing of the outer ring (its last stage)."""
    return short.partner_pairing(n, short.stages(n)[-1])


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
    if n == 7:
        return _by_five(state, goal, codes, target, left)
    return _by_inner_solve(state, n, goal, codes, target, budget, left)


def _by_four(state: str, goal: str, codes, target: np.ndarray, budget: Budget,
             left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2 of the 6x6x6, its inner cube by the 4x4x4's three phases (four_search: 25.8
    turns on 10 states in 0.7 s, where short's centres and free-slice pairing took 44.5) on the cube
    seen with each axis as the special one."""
    from solver.special.bigcube import reduction

    inner = grouped.inner(6)
    start = time.perf_counter()
    turned = reduction.axes_rotations(6)
    states = [codes(rotation.turn(state, goal)) for rotation in turned]
    with deadline.phase("inner cube"):
        ways = four_search.reductions([inner.project(s) for s in states], inner.project(target),
                                      budget.part(FOUR_END * left), FOUR_SHARE * left)
    inner_ways = [(turned[way.rotation], [inner.turn(short.plan(4).names[m]) for m in way.turns], states[way.rotation])
                  for way in ways]
    return _with_rows(inner_ways, 6, start, left)


def _by_five(state: str, goal: str, codes, target: np.ndarray, left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2 of the 7x7x7, its inner cube by the 5x5x5's phases (short.py's centres onto
    their axes, then five.py's: about 57 turns where short's centres and free-slice pairing took 86),
    on the cube and, with the solve's threads (solver.threads), at once on it seen with another
    axis as U/D: their ways pooled (a state whose phases run out of time on one rotation may not
    on the other)."""
    from solver.special.bigcube import reduction

    inner = grouped.inner(7)
    start = time.perf_counter()
    small_goal = inner.project(target)

    def reduced(rotation: Rotation) -> list[tuple[Rotation, list[str], np.ndarray]]:
        big = codes(rotation.turn(state, goal))
        with deadline.phase("inner centres"):
            centres, centred = short.solve_centres(inner.project(big), small_goal, 5, start + FIVE_CENTRES_END * left,
                                                   on_axes=True)
        with deadline.phase("inner edges"):
            ways, _ = reduction.five_ways(centred, small_goal, len(centres), start + FIVE_GREEDY * left,
                                           start + FIVE_END * left)
        ways = short.paired_ways(centred, ways, 5)  # the rows need the inner cube whole
        distinct = {tuple(merge_turns(centres + way)) for way in ways}
        return [(rotation, [inner.turn(name) for name in way], big) for way in distinct]

    with threads.pool() as pool:
        tasks = [pool.submit(reduced, rotation) for rotation in reduction.axes_rotations(7)[:pool.threads]]
    inner_ways = []
    for task in tasks:
        try:
            inner_ways += task.result()
        except beam.Timeout:
            pass  # (none at all: _with_rows says so)
    return _with_rows(sorted(inner_ways, key=lambda way: len(way[1])), 7, start, left)


def _by_inner_solve(state: str, n: int, goal: str, codes, target: np.ndarray, budget: Budget,
                    left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Steps 1 and 2 of N > 7: the inner cube, an (N-2)x(N-2)x(N-2), reduced by this solver (its
    own steps to a 5x5x5, which is reduced to a 3x3x3: the 5x5x5 here solves that 3x3x3 anyway)."""
    from solver.special.bigcube import reduction

    inner = grouped.inner(n)
    rotation = reduction.axes_rotations(n)[0]
    big = codes(rotation.turn(state, goal))
    with deadline.phase("inner cube"):
        answer = reduction.solve_big_cube(_text(goal, inner.project(big)), n - 2, _text(goal, inner.project(target)),
                                          budget=budget.part(left * seconds(n - 2) / seconds(n)), reserve=0.0,
                                          reduced=True)
    # the rows until the 5x5x5's share is all that is left (their deadlines are shares of `left`)
    rows = max(budget.remaining() - left * FIVE_SECONDS / seconds(n), 0.0)
    return _with_rows([(rotation, [inner.turn(name) for name in answer], big)], n, time.perf_counter(), rows / ROWS_END)


def _with_rows(inner_ways: list[tuple[Rotation, list[str], np.ndarray]], n: int, start: float,
               left: float) -> tuple[Rotation, list[str], np.ndarray]:
    """Of the inner cube's ways (the rotated cube, its big turns, the rotated state they start
    from; shortest first), the first ROW_WAYS each with its rows matched (as many at a time as the
    solve has threads) while ROWS_MORE of the time `left` at `start` is not gone: the rotation, the
    big turns and the state reached of the fewest turns in all (the rows' lengths vary by ten turns
    between ways of one length)."""
    if not inner_ways:
        raise beam.Timeout("the inner cube: not reduced in time")

    def matched(rotation: Rotation, names: list[str], state: np.ndarray) -> tuple[Rotation, list[str], np.ndarray]:
        now = time.perf_counter()
        names = _depths_for_rows(state, names, n, now + DEPTHS_END * left)
        reached = short.apply_names(grouped.inner(n).big, state, names)
        now = time.perf_counter()
        rows, reached = _rows(reached, n, now + ROWS_END * left, now + ROWS_LATE * left)
        return rotation, merge_turns(names + rows), reached

    best = None
    with deadline.phase("rows"), threads.pool() as pool:
        ways = inner_ways[:ROW_WAYS]
        for at in range(0, len(ways), pool.threads):
            if best is not None and time.perf_counter() > start + ROWS_MORE * left:
                break
            for task in [pool.submit(matched, *way) for way in ways[at:at + pool.threads]]:
                try:
                    rotation, names, reached = task.result()
                except beam.Timeout:
                    continue
                if best is None or len(names) < len(best[1]):
                    best = (rotation, names, reached)
            if best is None:
                raise beam.Timeout("the rows: not matched in time")
    return best


# Depth choices tried (random, the first the given depths) and the best of them improved one turn
# at a time: on 5 7x7x7 states, unmatched pieces 37-44 at the given depths, 30 at best of 2,000
# random choices, 23-27 after improving the best 20 (0.06-0.13 s), the rows 57.4 -> 47.2 turns.
DEPTH_SAMPLES, DEPTH_CLIMBS = 2000, 20
# Climbs end at this share of the rows' time: their work grows as the turns' count squared (an
# inner cube answered by the batched commutators, 1,000 turns, took 25 s and left the rows none).
DEPTHS_END = 0.05


def _depths_for_rows(state: np.ndarray, names: list[str], n: int, until: float = np.inf) -> list[str]:
    """The inner cube's big turns `names` (played from `state`) with each turn's depth chosen
    among those the inner cube sees alike (grouped.Grouping.alternatives: the 7x7x7's R or Rw)
    so that the fewest row pieces are unmatched after them: the same turns, the same inner cube,
    fewer rows to match. The rows change under the three-layer turns only, so which of their
    pieces meet there depends on how far the layer-two slices were turned in between. The best
    found by `until` (time.perf_counter) is kept."""
    p, how, inner = short.plan(n), rows_pairing(n), grouped.inner(n)
    options = [inner.alternatives(name) for name in names]
    free = [i for i, choices in enumerate(options) if len(choices) > 1]
    if not free:
        return names
    local = np.full(p.cube.size, -1)
    local[how.watched] = np.arange(len(how.watched))
    index = {name: k for k, name in enumerate(p.names)}
    sources = [[local[p.moves.sources[index[name]][how.watched]] for name in choices] for choices in options]
    start = state[how.watched]

    def unmatched(picks: np.ndarray) -> np.ndarray:  # rows of depth choices -> pieces unmatched after
        states = np.repeat(start[None], len(picks), axis=0)
        for i, turn in enumerate(sources):
            for c, source in enumerate(turn):
                rows = np.flatnonzero(picks[:, i] == c)
                states[rows] = states[rows][:, source]
        return (states[:, how.pieces] != states[:, how.neighbours]).sum(axis=1)

    rng = np.random.default_rng(0)
    picks = np.zeros((DEPTH_SAMPLES, len(names)), dtype=np.int64)
    for i in free:
        picks[1:, i] = rng.integers(0, len(options[i]), size=DEPTH_SAMPLES - 1)
    counts = unmatched(picks)
    best, fewest = picks[0], counts[0]
    for at in np.argsort(counts, kind="stable")[:DEPTH_CLIMBS]:
        deadline.check()
        pick, count = picks[at], counts[at]
        while time.perf_counter() < until:  # every change of one turn's depth; the best while it helps
            steps = [(i, c) for i in free for c in range(len(options[i])) if c != pick[i]]
            changes = np.repeat(pick[None], len(steps), axis=0)
            changes[np.arange(len(steps)), [i for i, _ in steps]] = [c for _, c in steps]
            after = unmatched(changes)
            if after.min() >= count:
                break
            pick, count = changes[int(np.argmin(after))], after.min()
        if count < fewest:
            best, fewest = pick, count
    return [choices[c] for choices, c in zip(options, best)]


@lru_cache(maxsize=8)
def prepare(n: int, goal: bytes) -> None:
    """What the steps look up, loaded or built before their clock starts, as one-time work (a
    first solve in a process built the inner cube's balls and the 3-cycle plans inside its 10 s
    and ran out of time): the 5x5x5's tables, balls and macros (also the 7x7x7's inner cube's, of
    the same goal) and 3-cycle plan, the 4x4x4's three phases' tables (the 6x6x6's inner cube),
    the rows' conjugates."""
    from solver.special.bigcube import reduction

    target = np.frombuffer(goal, dtype=np.uint8)
    with one_time_work():
        short.prepare(5, grouped.five(n).project(target).tobytes())
        reduction.plan(5)
        if n == 6:
            four_search.searches()
        rows_pairing(n)


# The rows' beam (beam.by_cost; seconds of CPU at load 5-6, 4 states each): the 6x6x6's 24 obliques
# in 31.5 turns at 200 states (0.3 s), 30.8 at 300 (0.4 s), 27.5 at 1,000 (1.2 s); the 7x7x7's 48
# in 73.8 at 50 (0.4 s), 65.3 at 100 (0.7 s), 58.0 at 200 (1.2 s). (By the depth of beam.search,
# a conjugate counted as one: 37.6 at 300 and 68 at 200, same states.) After the 5x5x5's phases for
# its inner cube (quiet machine, 8 states, whole answers): 7x7x7 194.0 at 100, 190.1 at 250 (0.7 s
# a way), 196.9 at 500 (1.5 s a way: its 5x5x5 ran out of time on two).
# The 10x10x10's and 11x11x11's rows (on one state each, quiet machine): width 250, 139 / 170
# turns in 25 / 39 s; 120, 148 / 163 in 12 / 18 s; 60, 147 / 169 in 6 / 9 s, but on another
# 11x11x11 state no match at 60 (100: 163 turns in 14 s)
ROWS_WIDTHS = {6: 500, 7: 250, 10: 120, 11: 100}


def _rows(state: np.ndarray, n: int, aim: float, deadline: float) -> tuple[list[str], np.ndarray]:
    """Big catalog turns that match the rows, fewest turns first (beam.by_cost over short's
    partner pairing moves), and the state they reach."""
    how = rows_pairing(n)
    costs = np.array([len(sequence) for sequence in how.sequences])
    path = beam.by_cost(state[how.watched], how.moves, costs, how.pieces, how.neighbours, ROWS_WIDTHS.get(n, 250), aim, deadline)
    names = [short.plan(n).names[k] for move in path for k in how.sequences[move]]
    return names, short.apply_names(grouped.inner(n).big, state, names)

