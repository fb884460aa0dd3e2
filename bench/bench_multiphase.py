"""The multi-phase solver (solver.search.multiphase) beside the fallback it replaces for big puzzles,
and beside the specialized solvers, in one run (issue #17, "Any puzzle: a multi-phase solver").

Run: `python bench/bench_multiphase.py` (`--states N`, default 3; `--megaminx-states N`, default 10;
`--puzzles megaminx,cube3` for some of them). Every puzzle goes through the
generic engine (solver.search.engine.solve with method "phases", then "fallback"); the specialized
solver's length is printed beside the big cubes. Each puzzle gets one unmeasured solve first in the
same cache folder, so that one-time work (tables, the finisher's algorithms) is not in the figures.
Every answer is replayed; lengths are in the definition's moves (a megaminx turn of a fifth or two
fifths counts 1)."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import api  # noqa: E402
from solver.analysis.scramble import random_state  # noqa: E402
from solver.engine import verify  # noqa: E402
from solver.search import engine  # noqa: E402

# puzzle, time limit, goal (moves) of the multi-phase answers; None: at most 3x the special solver;
# ANSWERED: an answer for every state (the skewbs' corner orbits, placed by an exact table)
ANSWERED = "answered"
CASES = (("cube3", 10.0, 35), ("megaminx", 30.0, 200), ("cube4", 30.0, None), ("cube5", 30.0, None),
         ("master-skewb", 10.0, ANSWERED), ("professor-skewb", 10.0, ANSWERED))
# the best published figures found for the puzzles without a special solver here
PUBLISHED = {
    "megaminx": "published: Botz's multi-phase megaminx solver (tables of every phase by BFS) needs at most "
                "116 face turns (2025; 114 since), at least 45 are needed in the worst case (Kociemba 2012)",
}


def solve(defn, state, method: str, limit: float) -> tuple[int | None, float]:
    started = time.perf_counter()
    if method == "special":
        out = api.solve(defn, state, method="special", time_limit=limit)
        moves = out["solution"]
    else:
        moves = engine.solve(defn, state, method=method, time_limit=limit).moves
    seconds = time.perf_counter() - started
    if moves is None or not verify(defn, state, moves):
        return None, seconds
    return len(moves), seconds


def figures(results) -> str:
    lengths = [n for n, _ in results if n is not None]
    seconds = [s for _, s in results]
    missing = len(results) - len(lengths)
    text = (f"{min(lengths)}-{max(lengths)} moves (mean {statistics.mean(lengths):.1f})" if lengths else "no answer")
    return text + f", {max(seconds):.1f} s at most" + (f", {missing} without an answer" if missing else "")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--states", type=int, default=3)
    parser.add_argument("--megaminx-states", type=int, default=10)
    parser.add_argument("--puzzles", default=",".join(name for name, _, _ in CASES))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {args.states} random states each "
          f"({args.megaminx_states} megaminx)", flush=True)
    for name, limit, goal in CASES:
        if name not in args.puzzles.split(","):
            continue
        defn = api.load(name)
        count = args.megaminx_states if name == "megaminx" else args.states
        states = [random_state(defn, random.Random(seed))[0] for seed in range(count)]
        warm = random_state(defn, random.Random(1000))[0]
        methods = ["phases", "fallback"] + (["special"] if goal is None else [])
        row = {}
        for method in methods:
            if method != "special":
                solve(defn, warm, method, 4 * limit)  # one-time work outside the figures
            row[method] = [solve(defn, s, method, limit) for s in states]
            print(f"{name:<9} {method:<9} limit {limit:>4.0f} s: {figures(row[method])}", flush=True)
        ours = [n for n, _ in row["phases"]]
        if goal is None:  # per state, against the special solver's answer to the same state
            pairs = [(n, m) for (n, _), (m, _) in zip(row["phases"], row["special"]) if n and m]
            if pairs:
                worst = max(n / m for n, m in pairs)
                mean = sum(n for n, _ in pairs) / sum(m for _, m in pairs)
                print(f"{name:<9} phases / special: at most {worst:.2f}x (means {mean:.2f}x) vs goal 3x: "
                      f"{'meets' if worst <= 3 else 'MISSES'}", flush=True)
        elif goal == ANSWERED:
            answered = sum(n is not None for n in ours)
            print(f"{name:<9} phases: {answered} of {len(ours)} states answered: "
                  f"{'meets' if answered == len(ours) else 'MISSES'}", flush=True)
        elif all(n is not None for n in ours):
            print(f"{name:<9} phases: longest {max(ours)} vs goal {goal}: "
                  f"{'meets' if max(ours) <= goal else 'MISSES'} (ratio {max(ours) / goal:.2f})", flush=True)
        if name in PUBLISHED:
            print(f"{name:<9} {PUBLISHED[name]}", flush=True)

if __name__ == "__main__":
    main()
