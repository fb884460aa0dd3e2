"""Benchmark of answer quality (issue "answers a user can trust"): the share of turns in big-cube
answers that simplification would still remove, for the specialized solver's raw answers and for
the answers api.solve returns (goal: 0); and megaminx solves with a 30 s limit on a fresh cache,
whose one-time search for the finisher's algorithms must not make them fail (goal: an answer).

    python bench/bench_answers.py [--n 100] [--sizes 4 5] [--megaminx-solves 3]

N may also come from BENCH_ANSWERS_N. Timings on a shared machine are noisy; the shares are not.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from solver import api
from solver.search.budget import Budget
from solver.simplify import removable_moves
from solver.special import families


def mergeable_share(n_states: int, size: int) -> None:
    defn = api.load(f"cube{size}")
    special = families.find(defn)
    raw_turns = raw_removable = turns = removable = 0
    started = time.perf_counter()
    for seed in range(n_states):
        state = api.scramble(defn, random_state=True, seed=seed)["state"]
        raw = special.solve(state, Budget()).moves
        raw_turns += len(raw)
        raw_removable += removable_moves(defn, raw)
        answer = api.solve(defn, state)["solution"]
        turns += len(answer)
        removable += removable_moves(defn, answer)
    print(f"cube{size}: {n_states} random states, raw answers {raw_turns / n_states:.0f} turns on average, "
          f"{raw_removable / raw_turns:.2%} mergeable; api answers {turns / n_states:.0f} turns, "
          f"{removable / turns:.2%} mergeable ({time.perf_counter() - started:.1f} s)")


def fresh_cache_megaminx(solves: int, time_limit: float) -> None:
    """`puzzle solve` runs in a row on an empty cache folder, each a new process as a user runs it."""
    defn = api.load("megaminx")
    with tempfile.TemporaryDirectory() as cache:
        for seed in range(solves):
            scramble = " ".join(api.scramble(defn, moves=200, seed=seed)["moves"])
            started = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "solver", "solve", "megaminx", "--scramble", scramble,
                                   "--time-limit", str(time_limit), "--json"], capture_output=True, text=True,
                                  env={**os.environ, "PUZZLEHUB_CACHE": cache})
            result = json.loads(proc.stdout) if proc.stdout.startswith("{") else {}
            answer = f"{result['length']} moves" if result.get("verified") else f"no answer ({result.get('reason')})"
            print(f"megaminx fresh cache, solve {seed + 1}, {time_limit:.0f} s limit: {answer}, "
                  f"{time.perf_counter() - started:.1f} s wall (load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_ANSWERS_N", 100)))
    parser.add_argument("--sizes", type=int, nargs="*", default=[4, 5])
    parser.add_argument("--megaminx-solves", type=int, default=3)
    args = parser.parse_args()
    for size in args.sizes:
        mergeable_share(args.n, size)
    fresh_cache_megaminx(args.megaminx_solves, 30.0)


if __name__ == "__main__":
    main()
