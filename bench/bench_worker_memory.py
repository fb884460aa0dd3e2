"""Benchmark of a long-lived worker's memory: 1,000 solves (through solver.api, as a worker's job
runs them) cycling over 200 different puzzles, resident memory printed every 200 solves. The
process caches (compiled search models, heuristics, finishers, specialized-solver lookups) keep
the recent 64 puzzles each, so memory should be flat after the first round.

    python bench/bench_worker_memory.py [--solves 1000] [--puzzles 200]

Every answer is replayed (solver.api.solve does; `verified` is checked); solves the 5 s limit
stops are counted.
"""

from __future__ import annotations

import argparse
import random
import resource

from solver import api


def resident_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def puzzles(count: int) -> list:
    """`count` different small puzzles: two rings of a and b stickers sharing two (each ring's
    move turns it by one), every sticker its own colour, solved by the generic engine."""
    defs = []
    for a in range(4, 40):
        for b in range(4, a + 1):
            if len(defs) == count:
                return defs
            n = a + b - 2
            left, right = list(range(a)), [0, 1] + list(range(a, n))
            defs.append(api.load_data({
                "format": "puzzlehub/1", "name": f"rings-{a}-{b}", "goal": [f"c{i}" for i in range(n)],
                "moves": [{"name": "L", "cycles": [left]}, {"name": "R", "cycles": [right]}],
            }))
    return defs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves", type=int, default=1000)
    parser.add_argument("--puzzles", type=int, default=200)
    args = parser.parse_args()
    defs = puzzles(args.puzzles)
    rng = random.Random(1)
    api.solve(defs[0], api.scramble(defs[0], moves=3, seed=0)["state"], method="bidir")  # compile the kernels
    start = resident_mb()
    print(f"worker-memory bench: {args.solves} solves over {len(defs)} puzzles; resident {start:.0f} MB at start")
    marks, unsolved = [], 0
    for k in range(args.solves):
        defn = defs[k % len(defs)]
        scramble = api.scramble(defn, moves=3, seed=rng.random())
        result = api.solve(defn, scramble["state"], method="bidir", time_limit=5)
        assert result["solution"] is None or result["verified"], result
        unsolved += result["solution"] is None
        if (k + 1) % len(defs) == 0:
            marks.append(resident_mb())
            print(f"after {k + 1:5d} solves  resident {marks[-1]:.0f} MB  ({unsolved} stopped by the 5 s limit so far)")
    if len(marks) >= 2:
        print(f"growth after the first round: {marks[-1] - marks[0]:+.0f} MB   goal flat (ratio last/first"
              f" {marks[-1] / marks[0]:.3f})")


if __name__ == "__main__":
    main()
