"""Benchmark of the NxNxN reduction solver: for each size, random states (random catalog turns), the
time per state (goal: 10 s or less each) and the average solution length in catalog SiGN turns.

    python bench/bench_bigcube.py [--n 100] [--sizes 4 5 6 7]

N may also come from BENCH_BIGCUBE_N. Every solution is replayed before it counts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from solver import perm
from solver.special.bigcube import reduction
from solver.special.bigcube.model import BigCube


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_BIGCUBE_N", 100)))
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"NxNxN reduction bench: {args.n} random states per size (each 1000 random catalog turns), one thread")
    for n in args.sizes:
        start = time.perf_counter()
        reduction.plan(n)
        planned = time.perf_counter() - start
        cube = BigCube(n)
        names = sorted(cube.named_moves)
        rng = random.Random(args.seed)
        lengths, seconds = [], []
        for _ in range(args.n):
            state = cube.solved()
            for _ in range(1000):
                state = perm.apply(cube.named_moves[rng.choice(names)], state)
            start = time.perf_counter()
            solution = reduction.solve_big_cube("".join(state), n)
            seconds.append(time.perf_counter() - start)
            for name in solution:
                state = perm.apply(cube.named_moves[name], state)
            assert "".join(state) == cube.solved()
            lengths.append(len(solution))
        worst = planned + max(seconds)
        print(f"cube{n}: avg {statistics.mean(lengths):7.1f} turns (max {max(lengths)}), "
              f"{statistics.mean(seconds):.3f} s/state, 3-cycle tables {planned:.1f} s once; "
              f"worst first solve {worst:.1f} s  goal <= 10 s ratio {worst / 10:.2f}")


if __name__ == "__main__":
    main()
