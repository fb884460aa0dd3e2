"""Benchmark of answer quality (issue "answers a user can trust"): the share of turns in big-cube
answers that simplification would still remove, for the specialized solver's raw answers and for
the answers api.solve returns (goal: 0).

    python bench/bench_answers.py [--n 100] [--sizes 4 5]

N may also come from BENCH_ANSWERS_N. Timings on a shared machine are noisy; the shares are not.
"""

from __future__ import annotations

import argparse
import os
import time

from solver import api
from solver.simplify import removable_moves
from solver.special import families


def mergeable_share(n_states: int, size: int) -> None:
    defn = api.load(f"cube{size}")
    special = families.find(defn)
    raw_turns = raw_removable = turns = removable = 0
    started = time.perf_counter()
    for seed in range(n_states):
        state = api.scramble(defn, random_state=True, seed=seed)["state"]
        raw, _ = special.solve(state, False, None, None)
        raw_turns += len(raw)
        raw_removable += removable_moves(defn, raw)
        answer = api.solve(defn, state)["solution"]
        turns += len(answer)
        removable += removable_moves(defn, answer)
    print(f"cube{size}: {n_states} random states, raw answers {raw_turns / n_states:.0f} turns on average, "
          f"{raw_removable / raw_turns:.2%} mergeable; api answers {turns / n_states:.0f} turns, "
          f"{removable / turns:.2%} mergeable ({time.perf_counter() - started:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_ANSWERS_N", 100)))
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5])
    args = parser.parse_args()
    for size in args.sizes:
        mergeable_share(args.n, size)


if __name__ == "__main__":
    main()
