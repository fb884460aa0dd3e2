"""Benchmark of reachability checks on big cubes: the group data computed once per revision (what a
worker does), then the check a web request makes from it (goal: under 100 ms for a cube20 state),
against the baseline of the same check by the move group's chain, already built, in the same run.

    python bench/bench_reachability.py [--sizes 10 20] [--states 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from solver import api, perm

GOAL_MS = 100.0


def median_ms(check, states) -> float:
    times = []
    for s in states:
        started = time.perf_counter()
        check(s)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[10, 20])
    parser.add_argument("--states", type=int, default=20)
    args = parser.parse_args()
    for n in args.sizes:
        defn = api.load(f"cube{n}")
        started = time.perf_counter()
        data = json.loads(json.dumps(api.group_data(defn)))  # as the site stores it
        built = time.perf_counter() - started
        rng = random.Random(n)
        states = []
        for _ in range(args.states):
            s = defn.goal
            for _ in range(100):
                s = perm.apply(rng.choice(defn.generators()), s)
            states.append(s)
        from_data = median_ms(lambda s: api.reachability(defn, s, data), states)
        by_chain = median_ms(lambda s: api.reachability(defn, s), states)  # the chain is built by now
        print(f"cube{n}: group data {built:.1f} s once ({len(json.dumps(data)) / 1000:.0f} kB); a check from it "
              f"{from_data:.1f} ms median (goal < {GOAL_MS:.0f} ms), by the built chain {by_chain:.1f} ms "
              f"(x{by_chain / from_data:.1f})")


if __name__ == "__main__":
    main()
