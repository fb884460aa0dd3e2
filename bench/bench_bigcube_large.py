"""Big cubes N = 8 .. 33: catalog turns, single-slice quarter turns and seconds per state as the
solver answers (N = 8 .. 11 nested: reduced to a 5x5x5 around their solved inner cube, to_five.py;
beyond, batched commutators, batched.py), for the nested sizes beside the batched commutators, and
beside the single 3-cycles from libraries over all turns (the solver before issue #17's batching,
`batched_from` past N) run on the same states in the same run where they finish (--baseline-max),
and the figures measured for them otherwise.

    python bench/bench_bigcube_large.py [--n 2] [--sizes 8 9 10 12 16 20 25 33] [--baseline-max 12]

Every solution is replayed before it counts. "first" is the first solve of a size in this
process, with its tables (batched: frames and T-centre libraries; before: all libraries) built.
"""

from __future__ import annotations

import argparse
import random

from bench_bigcube import run

from solver.special.bigcube import to_five
from solver.special.bigcube.model import BigCube

# The 3-cycle libraries over all turns, measured on main at ad14ddc on the first two states of this
# bench (seed 1), load average 3-7: turns per state, first solve's seconds.
BEFORE = {8: ("2321, 2742", 91.6), 9: ("3248, 3135", 13.9), 10: ("3849, 4227", 13.1),
          12: ("6416, 6094", 26.8), 13: ("7252, 7326", 131.6)}


def _states(n: int, count: int, seed: int) -> list[str]:
    cube, rng = BigCube(n), random.Random(seed)
    return [cube.scrambled(rng, 1000) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 9, 10, 12, 16, 20, 25, 33])
    parser.add_argument("--baseline-max", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    print(f"NxNxN bench (N >= 8): {args.n} random states per size (1000 random catalog turns each), "
          f"{args.time_limit:g} s limit; turns / single-slice quarter turns, seconds first / later")
    for n in args.sizes:
        states = _states(n, args.n, args.seed)
        now = run(n, states, args.time_limit)
        line = (f"cube{n}: {'nested' if n in to_five.NESTED else 'batched'} {now[0]:7.1f} / {now[1]:8.1f}  "
                f"{now[3]:5.1f} s / {now[2]:5.1f} s | ")
        if n in to_five.NESTED:
            batched = run(n, states, args.time_limit, short_phases=False)
            line += f"batched {batched[0]:7.1f} / {batched[1]:8.1f}  {batched[3]:5.1f} s / {batched[2]:5.1f} s | "
        if n <= args.baseline_max:
            before = run(n, states, 300.0, batched_from=n + 1, short_phases=False)
            line += (f"before {before[0]:7.1f} / {before[1]:8.1f}  {before[3]:5.1f} s / {before[2]:5.1f} s | "
                     f"ratio {now[0] / before[0]:.2f}")
        elif n in BEFORE:
            line += f"before (measured) {BEFORE[n][0]} turns, first {BEFORE[n][1]} s"
        else:
            line += "before: does not finish in 60 s (library build)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
