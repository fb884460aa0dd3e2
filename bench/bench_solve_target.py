"""Benchmark of the solve contract: the 3x3x3 default solve through solver.api (target length 20,
time limit 30 s as the site gives) on uniformly random cubes, its median and worst time beside the
goal (< 50 ms after tables), and against the whole-limit behaviour it replaced (a 1 s two-phase run
without a target, the ratio of medians in the same run).

    python bench/bench_solve_target.py [--n 200] [--seed 1]

Every answer is replayed (solver.api.solve does, and `verified` is checked). Timings are
wall-clock and noisy on a shared machine: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from solver import api
from solver.special.cube3 import facelet, optimal, random_cube
from solver.special.cube3.solve import solve_cubies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_SOLVE_N", 200)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    optimal.warm_up()  # tables and kernels, as a worker does before forking
    cube3 = api.load("cube3")
    rng = random.Random(args.seed)
    cubes = [random_cube(rng) for _ in range(args.n)]
    print(f"solve-target bench: {args.n} random cubes (seed {args.seed}); load average {os.getloadavg()[0]:.1f}"
          f" on {os.cpu_count()} cores")
    seconds, lengths = [], []
    for cube in cubes:
        state = tuple(facelet.to_stickers(cube))
        start = time.perf_counter()
        result = api.solve(cube3, state, time_limit=30)
        seconds.append(time.perf_counter() - start)
        assert result["verified"] and result["length"] <= 20, result
        lengths.append(result["length"])
    median = statistics.median(seconds)
    print(f"default solve (target 20)  median {median * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms,"
          f" avg {statistics.mean(lengths):.2f} moves, max {max(lengths)}   goal median < 50 ms"
          f"  ratio {median / 0.05:.3f}")
    sample = cubes[:10]
    whole = []
    for cube in sample:
        start = time.perf_counter()
        solve_cubies(cube, time_limit=1.0)
        whole.append(time.perf_counter() - start)
    print(f"before: no target, 1 s limit  median {statistics.median(whole) * 1000:.1f} ms over {len(sample)} cubes"
          f"   ratio target/whole {median / statistics.median(whole):.4f}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
