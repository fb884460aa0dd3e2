"""Benchmark of a long-lived worker's memory: 1,000 solves (through solver.api, as a worker's job
runs them) cycling over 200 different puzzles, resident memory printed after every round of the
200. The process caches (compiled search models, heuristics, finishers, pattern databases,
specialized-solver lookups and tables) keep the recent 64 puzzles each, and after each solve the
process hands the pages the solve freed back to the system (solver.memory.give_back, as a worker
does after each job), so memory should be flat after the first round. The baseline, in a child
process running the same solves at the same time, skips give_back (what workers did before).

    python bench/bench_worker_memory.py [--solves 1000] [--puzzles 200]

Every answer is replayed (solver.api.solve does; `verified` is checked); solves the 5 s limit
stops are counted.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys

from solver import api, memory


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


def run(solves: int, count: int, give_back: bool, say) -> list[float]:
    """Resident MB after each round of `count` puzzles."""
    defs = puzzles(count)
    rng = random.Random(1)
    api.solve(defs[0], api.scramble(defs[0], moves=3, seed=0)["state"], method="bidir")  # compile the kernels
    say(f"resident {resident_mb():.0f} MB at start")
    marks, unsolved = [], 0
    for k in range(solves):
        defn = defs[k % len(defs)]
        scramble = api.scramble(defn, moves=3, seed=rng.random())
        result = api.solve(defn, scramble["state"], method="bidir", time_limit=5)
        assert result["solution"] is None or result["verified"], result
        unsolved += result["solution"] is None
        if give_back:
            memory.give_back()
        if (k + 1) % len(defs) == 0:
            marks.append(resident_mb())
            say(f"after {k + 1:5d} solves  resident {marks[-1]:.0f} MB  ({unsolved} stopped by the 5 s limit so far)")
    return marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves", type=int, default=1000)
    parser.add_argument("--puzzles", type=int, default=200)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.baseline:
        print(json.dumps(run(args.solves, args.puzzles, False, lambda text: None)))
        return
    baseline = subprocess.Popen([sys.executable, __file__, "--baseline", "--solves", str(args.solves),
                                 "--puzzles", str(args.puzzles)], stdout=subprocess.PIPE, text=True)
    print(f"worker-memory bench: {args.solves} solves over {args.puzzles} puzzles, give_back after each solve")
    marks = run(args.solves, args.puzzles, True, print)
    before = json.loads(baseline.communicate()[0])
    print("resident MB after each round:  with give_back " + " ".join(f"{m:.0f}" for m in marks)
          + "   baseline without " + " ".join(f"{m:.0f}" for m in before))
    if len(marks) >= 2:
        print(f"growth after the first round: {marks[-1] - marks[0]:+.0f} MB (baseline {before[-1] - before[0]:+.0f} MB)"
              f"   goal flat (ratio last/first {marks[-1] / marks[0]:.3f}, baseline {before[-1] / before[0]:.3f})")


if __name__ == "__main__":
    main()
