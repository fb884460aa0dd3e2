"""Benchmark of the group analysis: exact group orders and state counts of catalog puzzles (goal:
cube7 in 5 s or less; the proof of exactness included), recognising a renumbered puzzle, and
uniform random states.

    python bench/bench_analysis.py [--names cube3 cube7 ...]

Each figure is the median of --runs fresh computations (caches cleared), one thread.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from solver import api, perm
from solver.analysis import group, isomorphism, pieces, scramble
from solver.definition.model import Case, Definition, Move

GOALS = {"cube7": 5.0}  # seconds for order + state count
DEFAULT = ["cube2", "cube3", "cube4", "cube5", "cube6", "cube7", "megaminx", "pyraminx", "skewb",
           "floppy", "domino", "ball-ring", "loopover-6x6", "sliding-4x4", "sliding-5x5", "flipit-8"]


def clear_caches() -> None:
    for cached in (pieces.piece_model, group.move_group, group.orbit_chains, group.token_groupoid):
        cached.cache_clear()


def timed(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        clear_caches()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def renumbered(defn: Definition, rng: random.Random) -> Definition:
    new = list(range(defn.stickers))
    rng.shuffle(new)
    moves = tuple(Move(f"m{i}", tuple(Case(tuple(new[c.perm[new.index(j)]] for j in range(defn.stickers)),
                                                tuple(sorted((new[p], col) for p, col in c.guard)))
                                           for c in m.cases))
                  for i, m in enumerate(defn.moves))
    goals = []
    for g in defn.goals:
        goal = [None] * defn.stickers
        for i, c in enumerate(g):
            goal[new[i]] = c
        goals.append(tuple(goal))
    return Definition(name="renumbered", stickers=defn.stickers, moves=moves, goals=tuple(goals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", nargs="+", default=DEFAULT)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"group analysis bench, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, median of {args.runs}")
    print(f"{'puzzle':14} {'stickers':>8} {'seconds':>8} {'goal':>6} {'ratio':>6}  exact  order digits / state count")
    for name in args.names:
        defn = api.load(name)
        seconds, (order, count) = timed(lambda: (None if defn.guarded else group.group_order(defn),
                                                 group.state_count(defn)), args.runs)
        goal = GOALS.get(name)
        ratio = f"{seconds / goal:6.2f}" if goal else "     -"
        digits = "-" if order is None else f"{len(str(order[0]))} digits{'' if order[1] else ' (bound)'}"
        shown = count[0] if count[0] < 10**15 else f"{len(str(count[0]))} digits"
        print(f"{name:14} {defn.stickers:8} {seconds:8.2f} {goal or '-':>6} {ratio}  {str(count[1]):5}  {digits} / {shown}")
    print("\nrecognising a renumbered definition (isomorphism.match) and uniform random states")
    for name in ("cube3", "cube4", "cube5", "megaminx", "sliding-4x4"):
        defn = api.load(name)
        user = renumbered(defn, random.Random(1))
        seconds, found = timed(lambda: isomorphism.match(user, defn), 1)
        rng = random.Random(2)
        start = time.perf_counter()
        for _ in range(100):
            state, uniform = scramble.random_state(defn, rng)
        per_state = (time.perf_counter() - start) / 100
        print(f"{name:14} match {seconds:6.2f} s ({'found' if found else 'NOT FOUND'}), "
              f"random state {per_state * 1000:6.2f} ms ({'uniform' if uniform else 'random walk'})")


if __name__ == "__main__":
    main()
