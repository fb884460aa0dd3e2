"""Benchmark of the catalog's wreath and globe families through solver.api.solve (the command
line's path: reachability, search, replay), from random states with an empty cache folder per
puzzle: moves, moves per sticker and seconds per family and size; with --baseline, the same
cases solved by another checkout's solver in the same run (a subprocess), printed beside.

    python bench/bench_families.py [--limit 30] [--seeds 3] [--names wreath-33x33 globe-4x8 ...] [--baseline /work/main]

Every answer counts only when verified (replayed on the stickers).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from solver import api
from solver.analysis.scramble import random_state

NAMES = ["wreath-6x6", "wreath-12x12", "wreath-21x21", "wreath-33x33", "wreath-100x100",
         "globe-1x4", "globe-3x4", "globe-2x8", "globe-4x8", "globe-6x10",
         "globe-8x16", "globe-8x25", "globe-33x25"]


def measure(name: str, seeds: int, limit: float) -> dict:
    """Answers verified, their lengths and the seconds of each solve, from an empty cache folder."""
    defn = api.load(name)
    lengths, seconds = [], []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["PUZZLEHUB_CACHE"] = cache
        for seed in range(seeds):
            state, _ = random_state(defn, random.Random(seed))
            start = time.perf_counter()
            out = api.solve(defn, state, time_limit=limit)
            seconds.append(time.perf_counter() - start)
            if out.get("verified"):
                lengths.append((out["length"], seconds[-1]))
    return {"stickers": defn.stickers, "answers": lengths, "seconds": seconds}


def _baseline(checkout: str, name: str, seeds: int, limit: float) -> dict:
    """`measure` with the solver of another checkout (this script run with its folder first)."""
    out = subprocess.run([sys.executable, __file__, "--names", name, "--seeds", str(seeds), "--limit", str(limit), "--json"],
                         env={**os.environ, "PYTHONPATH": checkout}, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def _figures(m: dict, seeds: int, limit: float) -> tuple[str, int]:
    lengths = [n for n, _ in m["answers"]]
    if not lengths:
        return f"{0:>3}/{seeds} {'-':>11} {'-':>6} {max(m['seconds']):5.1f} s", 0
    per = statistics.mean(lengths) / m["stickers"]
    within = sum(t <= limit * 1.1 for _, t in m["answers"])
    return (f"{len(lengths):>3}/{seeds} {min(lengths):>5}-{max(lengths):<5} {per:6.1f} "
            f"{min(m['seconds']):4.1f}-{max(m['seconds']):4.1f} s"), within


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=float(os.environ.get("BENCH_FAMILIES_LIMIT", 30)))
    parser.add_argument("--seeds", type=int, default=int(os.environ.get("BENCH_FAMILIES_SEEDS", 1)))
    parser.add_argument("--names", nargs="+", default=NAMES)
    parser.add_argument("--baseline", help="another checkout (say /work/main): its figures beside, same run")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.names[0], args.seeds, args.limit)))
        return
    print(f"Wreaths and globes, {args.seeds} random state(s) each, {args.limit:g} s limit, empty cache per puzzle")
    print(f"{'puzzle':15} {'stickers':>8} {'answered':>8} {'moves':>11} {'/sticker':>6} {'seconds':>12}"
          + (f"   baseline ({args.baseline})" if args.baseline else ""))
    within = 0
    for name in args.names:
        m = measure(name, args.seeds, args.limit)
        text, ok = _figures(m, args.seeds, args.limit)
        within += ok
        if args.baseline:
            text += "   " + _figures(_baseline(args.baseline, name, args.seeds, args.limit), args.seeds, args.limit)[0]
        print(f"{name:15} {m['stickers']:8} {text}", flush=True)
    cases = len(args.names) * args.seeds
    print(f"goal: every case answered within its limit (and a tenth): {within}/{cases}")


if __name__ == "__main__":
    main()
