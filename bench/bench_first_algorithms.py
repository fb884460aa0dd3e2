"""Benchmark of a fresh install's first algorithms (figures, not pass/fail).

    PYTHONPATH=. python bench/bench_first_algorithms.py [--quick] [--warm]

What the worker does after `make run` for the featured catalog puzzles (solver.catalog.FEATURED,
which publish_catalog queues before every other puzzle): the worker's warm-up before it forks
(tables and kernels, workers/warm.py), then per puzzle the discovery run publish_catalog queues
(CATALOG_DISCOVERY_SECONDS, 8 sequences per effect class) and, after every discovery, the set
builds (the layer sets and their cases' algorithms, CATALOG_SETS_SECONDS). Prints the algorithms
each gives (goal: at least 20 per puzzle), the sets (every case with an algorithm, the distribution
of the shortest lengths), the seconds each job took, and when the last of them would finish with
the two worker processes `make run` starts taking the jobs in publish_catalog's order (goal:
within 10 minutes). By default the solver's tables and numba's kernels start from empty folders,
as on a fresh clone (--warm keeps the machine's caches). The jobs run one after another here; two
worker processes on a 2-core machine run two at a time, so the schedule is a model. Timings depend
on the machine's load; say it with the figures.
"""

from __future__ import annotations

import os
import sys
import tempfile

if "--warm" not in sys.argv:  # before numba and the solver read them
    fresh = tempfile.mkdtemp(prefix="first-algorithms-")
    os.environ["PUZZLEHUB_CACHE"] = os.path.join(fresh, "tables")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(fresh, "numba")

import time  # noqa: E402
from collections import Counter  # noqa: E402

from solver import api  # noqa: E402
from solver.catalog import FEATURED  # noqa: E402

DISCOVERY_SECONDS = float(os.environ.get("PUZZLEHUB_CATALOG_DISCOVERY_SECONDS", 30))
SETS_SECONDS = float(os.environ.get("PUZZLEHUB_CATALOG_SETS_SECONDS", 240))
WORKERS = 2
GOAL_ALGORITHMS = 20


def main(quick: bool) -> None:
    from workers.warm import warm_up

    started = time.monotonic()
    warm_up()
    warm_s = time.monotonic() - started
    print(f"worker warm-up (tables, kernels{'' if '--warm' in sys.argv else ', from empty caches'}): {warm_s:.1f} s")
    puzzles = FEATURED[:3] if quick else FEATURED
    discovered, discovery_s = {}, {}
    for name in puzzles:  # publish_catalog's order: the featured puzzles' discoveries first
        started = time.monotonic()
        discovered[name] = api.discover(api.load(name), time_limit=DISCOVERY_SECONDS, keep=8)
        discovery_s[name] = time.monotonic() - started
    print(f"{'puzzle':10} {'discovered':>10} {'classes':>7} {'s':>6}   sets (cases with an algorithm / cases; "
          f"shortest lengths length x cases)  s  total algorithms")
    sets_s, totals, complete = {}, {}, {}
    for name in puzzles:  # then their set builds
        found = discovered[name]
        started = time.monotonic()
        sets = api.algorithm_sets(api.load(name), time_limit=SETS_SECONDS)
        sets_s[name] = time.monotonic() - started
        algorithms = {" ".join(f["moves"]) for f in found}
        texts = []
        complete[name] = all(c["algorithms"] for entry in sets for c in entry["cases"])
        for entry in sets:
            shortest = [min(map(len, c["algorithms"])) for c in entry["cases"] if c["algorithms"]]
            algorithms |= {" ".join(m) for c in entry["cases"] for m in c["algorithms"]}
            spread = " ".join(f"{k}x{v}" for k, v in sorted(Counter(shortest).items()))
            texts.append(f"{entry['move']} {entry['kind']} {len(shortest)}/{len(entry['cases'])} [{spread}]")
        totals[name] = len(algorithms)
        print(f"{name:10} {len(found):>10} {len({f['effect_key'] for f in found}):>7} {discovery_s[name]:>6.1f}   "
              f"{'; '.join(texts) or 'no layer sets'}  {sets_s[name]:.1f} s  {len(algorithms)}", flush=True)
    # the schedule: after the warm-up, two workers take the jobs in publish_catalog's order
    free = [warm_s] * WORKERS
    done = {}
    for job, seconds in [(("discovery", n), discovery_s[n]) for n in puzzles] + [(("sets", n), sets_s[n]) for n in puzzles]:
        k = free.index(min(free))
        free[k] += seconds
        done[job] = free[k]
    for name in puzzles:
        enough = discovered[name] and len(discovered[name]) >= GOAL_ALGORITHMS
        ready = done[("discovery", name)] if enough else done[("sets", name)]
        print(f"{name:10} {'>=' if totals[name] >= GOAL_ALGORITHMS else '< '}{GOAL_ALGORITHMS} algorithms after "
              f"{ready / 60:4.1f} min; sets {'complete' if complete[name] else 'INCOMPLETE'} after "
              f"{done[('sets', name)] / 60:4.1f} min")
    print(f"last of these jobs done after {max(free) / 60:.1f} min with {WORKERS} workers (goal <= 10 min); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main("--quick" in sys.argv)
