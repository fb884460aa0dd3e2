"""Benchmark of the catalog's wreath and globe families through solver.api.solve (the command
line's path: reachability, search, replay), from random states with an empty cache folder per
puzzle: moves, moves per sticker and seconds per family and size, beside the figures the same
puzzles got before (issue #21, measured by `puzzle solve D --state "$(puzzle scramble D
--random-state --seed 3)" --time-limit 30` on an empty cache).

    python bench/bench_families.py [--limit 30] [--seeds 3] [--names wreath-33x33 globe-4x8 ...]

Every answer counts only when verified (replayed on the stickers).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

from solver import api
from solver.analysis.scramble import random_state

NAMES = ["wreath-6x6", "wreath-12x12", "wreath-21x21", "wreath-33x33", "wreath-100x100",
         "globe-1x4", "globe-3x4", "globe-2x8", "globe-4x8", "globe-6x10",
         "globe-8x16", "globe-8x25", "globe-33x25"]
BEFORE = {  # main before the bigfam2 branch (README figures, 30 s limit, empty cache, load 3-6)
    "wreath-33x33": "926 moves, 5.7 s",
    "wreath-100x100": "9,764 moves, 22.6 s",
    "globe-4x8": "232 moves, 5.7 s",
    "globe-8x16": "1,562 moves, 23.5 s",
    "globe-8x25": "none (16 s: no algorithm of 3 slots)",
    "globe-33x25": "none (18 s: no algorithm of 3 slots)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=float(os.environ.get("BENCH_FAMILIES_LIMIT", 30)))
    parser.add_argument("--seeds", type=int, default=int(os.environ.get("BENCH_FAMILIES_SEEDS", 1)))
    parser.add_argument("--names", nargs="+", default=NAMES)
    args = parser.parse_args()
    print(f"Wreaths and globes, {args.seeds} random state(s) each, {args.limit:g} s limit, empty cache per puzzle")
    print(f"{'puzzle':16} {'stickers':>8} {'answered':>8} {'moves':>13} {'moves/sticker':>13} {'seconds':>13}  before")
    within = 0
    for name in args.names:
        defn = api.load(name)
        lengths, seconds, answered = [], [], 0
        with tempfile.TemporaryDirectory() as cache:
            os.environ["PUZZLEHUB_CACHE"] = cache
            for seed in range(args.seeds):
                state, _ = random_state(defn, random.Random(seed))
                start = time.perf_counter()
                out = api.solve(defn, state, time_limit=args.limit)
                seconds.append(time.perf_counter() - start)
                if out.get("verified"):
                    answered += 1
                    within += seconds[-1] <= args.limit * 1.1
                    lengths.append(out["length"])
        moves = f"{min(lengths)}-{max(lengths)}" if lengths else "-"
        per = f"{statistics.mean(lengths) / defn.stickers:.1f}" if lengths else "-"
        print(f"{name:16} {defn.stickers:8} {answered:>4}/{args.seeds:<3} {moves:>13} {per:>13} "
              f"{min(seconds):5.1f}-{max(seconds):5.1f} s  {BEFORE.get(name, '')}", flush=True)
    cases = len(args.names) * args.seeds
    print(f"goal: every case answered within its limit (and a tenth): {within}/{cases}")


if __name__ == "__main__":
    main()
