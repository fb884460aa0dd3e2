"""Benchmark of the 3x3x3 two-phase solver: table build time, and solution lengths of uniformly random
cubes at a 1 s and a 0.1 s budget and for the first solution found, printed beside the goals of
issue 6 and the anchors (Kociemba's Python solver, min2phase), and the time the superflip takes to
20 moves.

    python bench/bench_cube3.py [--n 1000] [--seed 1] [--skip-build]

N may also come from BENCH_CUBE3_N. Every solution is replayed before it counts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from solver.special.cube3 import moves, tables
from solver.special.cube3.solve import solve_cubies
from solver.special.cube3.cubie import CubieCube, random_cube

# Fixed by all 48 symmetries: the hardest case for a search that tries the cube's symmetric versions.
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:.3f}"


def run(cubes, budget: float) -> dict:
    lengths, seconds, cpu = [], [], []
    for cube in cubes:
        start, start_cpu = time.perf_counter(), time.process_time()
        solution = solve_cubies(cube, time_limit=budget)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert moves.apply(cube, moves.parse(" ".join(solution))).is_solved()
        lengths.append(len(solution))
    return {"max": max(lengths), "avg": statistics.mean(lengths), "time": statistics.mean(seconds),
            "cpu": statistics.mean(cpu),
            "over20": sum(n > 20 for n in lengths), "histogram": {n: lengths.count(n) for n in sorted(set(lengths))}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_CUBE3_N", 1000)))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-build", action="store_true", help="do not time a fresh table build")
    args = parser.parse_args()

    print(f"cube3 two-phase bench: {args.n} uniformly random cubes (seed {args.seed}), one thread; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (budgets are wall-clock)")
    if not args.skip_build:
        start = time.perf_counter()
        tables.build()
        built = time.perf_counter() - start
        print(f"table build            {built:7.1f} s    goal <= 60 s  ratio {ratio(built, 60)}"
              "   (anchor: Kociemba's Python package, 30 min or more)")
    start = time.perf_counter()
    tables.get_tables()
    print(f"table load (cached)    {time.perf_counter() - start:7.2f} s")

    rng = random.Random(args.seed)
    cubes = [random_cube(rng) for _ in range(args.n)]
    solve_cubies(cubes[0], time_limit=0.01)  # compile or load the kernels outside the timings

    first = run(cubes, 0.0)
    print(f"first solution         avg {first['avg']:.2f} moves, max {first['max']}, {first['time'] * 1000:.1f} ms/cube"
          f"   anchor min2phase: 21 moves or fewer in ~1 ms  ratio(max/21) {ratio(first['max'], 21)}")
    tenth = run(cubes, 0.1)
    print(f"0.1 s budget           avg {tenth['avg']:.2f} moves, max {tenth['max']}, {tenth['time']:.3f} s/cube"
          f"   goal avg <= 20.0 ratio {ratio(tenth['avg'], 20.0)};"
          f" anchor Kociemba Python 20.02 ratio {ratio(tenth['avg'], 20.02)}")
    full = run(cubes, 1.0)
    print(f"1 s budget             avg {full['avg']:.2f} moves, max {full['max']}, {full['time']:.3f} s/cube,"
          f" {full['over20']} over 20   goal all <= 20 and avg <= 19.5 ratio {ratio(full['avg'], 19.5)};"
          f" anchor Kociemba Python 19.27 ratio {ratio(full['avg'], 19.27)}")
    for name, result in (("first", first), ("0.1 s", tenth), ("1 s", full)):
        print(f"lengths at {name:6s}: {result['histogram']}  (CPU {result['cpu']:.3f} s/cube)")
    superflip = moves.apply(CubieCube.solved(), moves.parse(SUPERFLIP))
    start, start_cpu = time.perf_counter(), time.process_time()
    length = len(solve_cubies(superflip, time_limit=120, max_length=20))
    print(f"superflip to 20 moves  {length} moves in {time.perf_counter() - start:.2f} s wall, "
          f"{time.process_time() - start_cpu:.2f} s CPU   goal < 1 s; anchor min2phase 0.4 s")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
