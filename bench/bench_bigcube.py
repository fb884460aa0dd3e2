"""Benchmark of the NxNxN solver: for each size, random states (random catalog turns), the average
solution length in catalog turns (a face or wide turn of any depth counts 1) and in single-slice
quarter turns (each slice quarter turn 1, a half turn 2), time per state, for today's answer (the
short phases: four_search.py for the 4x4x4, short.py for 5-7; then 3-cycles) beside the 3-cycles
alone (the baseline, same run), and the published figures we know of. With --baseline, the same
states solved by another checkout's solver (say /work/main) in the same run, printed beside.

    python bench/bench_bigcube.py [--n 50] [--sizes 4 5 6 7] [--time-limit 10] [--baseline /work/main]

N may also come from BENCH_BIGCUBE_N. Every solution is replayed before it counts. The first solve
of a size builds its distance tables (seconds; counted in "first"). With --baseline, the column
beside is another checkout's answers to the same states (the same run, one after the other) in
place of the 3-cycles alone; the load average is printed with each size (timings depend on it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from solver import threads
from solver.search.budget import OutOfTime
from solver.special.bigcube import reduction
from solver.special.bigcube.model import BigCube, slice_quarter_turns

# Published averages over random states, in outer block turns (a face or wide turn counts 1, as
# our catalog turns), for scale; sources in docs/bigcube.md.
PUBLISHED = {
    4: "44.4 (cs0x7f TPR-4x4x4-Solver, 2000 states); 65 (dwalton76 NxNxN solver)",
    5: "~71 (cs0x7f cube555: reduction 51-52 + 3x3x3; issue #17 measured 71 here); 119 (dwalton76)",
    6: "214 (dwalton76 NxNxN solver, early); 105 + ~20 for the 3x3x3 (its July 2018 reduction)",
    7: "304 (dwalton76 NxNxN solver, early); 172 + ~20 for the 3x3x3 (its July 2018 reduction)",
}


def run(n: int, states: list[str], time_limit: float, **options):
    """Mean turns, mean slice quarter turns (of the answers given), mean seconds after the first
    solve, the first's seconds, each answer's turns or None where the solver ran out of time with
    none (`options`: reduction.solve_big_cube's); every answer replayed."""
    cube = BigCube(n)
    turns, slices, seconds = [], [], []
    for state in states:
        start = time.perf_counter()
        try:
            solution = reduction.solve_big_cube(state, n, time_limit=time_limit, **options)
        except OutOfTime:
            solution = None
        seconds.append(time.perf_counter() - start)
        assert solution is None or cube.apply(state, solution) == cube.solved()
        turns.append(None if solution is None else len(solution))
        slices.append(None if solution is None else slice_quarter_turns(solution))
    given = [t for t in turns if t is not None] or [0]
    return (statistics.mean(given), statistics.mean([s for s in slices if s is not None] or [0]),
            statistics.mean(seconds[1:] or seconds), seconds[0], turns)


def _baseline(checkout: str, n: int, args) -> tuple:
    """`run` of today's answer with the solver of another checkout (this script run with its
    folder first on the path), on the same states."""
    out = subprocess.run([sys.executable, __file__, "--n", str(args.n), "--sizes", str(n), "--seed", str(args.seed),
                          "--time-limit", str(args.time_limit), "--json"],
                         env={**os.environ, "PYTHONPATH": checkout}, capture_output=True, text=True, check=True)
    return tuple(json.loads(out.stdout.splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_BIGCUBE_N", 50)))
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--baseline", help="another checkout (say /work/main): its answers beside, same states")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # (a baseline's own run)
    args = parser.parse_args()
    if args.json:
        n = args.sizes[0]
        print(json.dumps(run(n, _states(n, args.n, args.seed), args.time_limit)))
        return
    print(f"NxNxN bench: {args.n} random states per size (1000 random catalog turns each), "
          f"{threads.count()} thread(s) a solve (PUZZLEHUB_SOLVE_THREADS), "
          f"{args.time_limit:g} s limit; lengths in catalog turns / single-slice quarter turns")
    for n in args.sizes:
        states = _states(n, args.n, args.seed)
        load = os.getloadavg()[0]
        if args.baseline:
            base, label = _baseline(args.baseline, n, args), f"baseline {args.baseline}"
        else:
            base, label = run(n, states, args.time_limit, short_phases=False, batched_from=n + 1), "3-cycles alone"
        now = run(n, states, args.time_limit)
        load = os.getloadavg()[0]
        print(f"cube{n}: now {now[0]:6.1f} turns / {now[1]:6.1f} slice q  {now[2]:5.2f} s/state (first {now[3]:.1f} s) | "
              f"{label} {base[0]:6.1f} / {base[1]:6.1f}  {base[2]:5.2f} s | ratio {now[0] / base[0]:.2f} | "
              f"load {load:.1f}-{os.getloadavg()[0]:.1f} | published {PUBLISHED.get(n, 'none found')}")
        print(f"  per state (None: out of time with no answer): now {now[4]}\n  {label} {base[4]}")


def _states(n: int, count: int, seed: int) -> list[str]:
    cube, rng = BigCube(n), random.Random(seed)
    return [cube.scrambled(rng, 1000) for _ in range(count)]


if __name__ == "__main__":
    main()
