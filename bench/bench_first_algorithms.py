"""Benchmark of a fresh install's first algorithms (figures, not pass/fail).

    NUMBA_CACHE_DIR=/tmp/numba PYTHONPATH=. python bench/bench_first_algorithms.py [--quick]

What the worker does after `make run` for the catalog puzzles that matter most: per puzzle, the
discovery run publish_catalog queues (CATALOG_DISCOVERY_SECONDS, 8 sequences per effect class)
and its set build (the layer sets and their cases' algorithms, CATALOG_SETS_SECONDS). Prints the
algorithms each gives (goal: at least 20 per puzzle), the sets (every case with an algorithm, the
distribution of the shortest lengths), the seconds each job took, and when the last one would
finish with the two worker processes `make run` starts taking the jobs in publish_catalog's order
(goal: within 10 minutes). Timings depend on the machine's load; say it with the figures.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter

from solver import api

PUZZLES = ["floppy", "pyraminx", "skewb", "cube2", "cube3", "megaminx"]  # publish_catalog's order (smallest first)
DISCOVERY_SECONDS = float(os.environ.get("PUZZLEHUB_CATALOG_DISCOVERY_SECONDS", 30))
SETS_SECONDS = float(os.environ.get("PUZZLEHUB_CATALOG_SETS_SECONDS", 240))
WORKERS = 2


def main(quick: bool) -> None:
    api.discover(api.load("floppy"), time_limit=1)  # compile the kernels outside the timings
    jobs = []  # seconds of each job, in queue order
    print(f"{'puzzle':10} {'discovered':>10} {'classes':>7} {'s':>6}   sets (cases with an algorithm / cases; "
          f"shortest lengths length x cases)  s  total algorithms")
    for name in PUZZLES[:3] if quick else PUZZLES:
        defn = api.load(name)
        started = time.monotonic()
        found = api.discover(defn, time_limit=DISCOVERY_SECONDS, keep=8)
        discover_s = time.monotonic() - started
        started = time.monotonic()
        sets = api.algorithm_sets(defn, time_limit=SETS_SECONDS)
        sets_s = time.monotonic() - started
        jobs += [discover_s, sets_s]
        algorithms = {" ".join(f["moves"]) for f in found}
        texts = []
        for entry in sets:
            shortest = [min(map(len, c["algorithms"])) for c in entry["cases"] if c["algorithms"]]
            algorithms |= {" ".join(m) for c in entry["cases"] for m in c["algorithms"]}
            spread = " ".join(f"{k}x{v}" for k, v in sorted(Counter(shortest).items()))
            texts.append(f"{entry['move']} {entry['kind']} {len(shortest)}/{len(entry['cases'])} [{spread}]")
        print(f"{name:10} {len(found):>10} {len({f['effect_key'] for f in found}):>7} {discover_s:>6.1f}   "
              f"{'; '.join(texts) or 'no layer sets'}  {sets_s:.1f} s  {len(algorithms)}", flush=True)
    free = [0.0] * WORKERS  # two workers take the jobs in order
    for seconds in jobs:
        k = free.index(min(free))
        free[k] += seconds
    print(f"last of these jobs done after {max(free) / 60:.1f} min with {WORKERS} workers (goal <= 10 min); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main("--quick" in sys.argv)
