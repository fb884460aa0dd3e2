"""Benchmark of algorithm discovery (figures, not pass/fail).

    NUMBA_CACHE_DIR=/tmp/numba PYTHONPATH=. python bench/bench_discover.py [--quick]

1. The 3x3x3 within 60 s: the shortest corner 3-cycle (goal: 8 moves, the known shortest in face
   turns), corner twist pair, edge 3-cycle and edge flip pair found.
2. The same on a 3x3x3 whose stickers are numbered at random and whose moves have other names.
3. Small puzzles: every effect class found (at most 4 pieces touched) with its shortest length.
Kernels are compiled (or loaded from the cache) on a tiny puzzle first, outside the timings.
"""

from __future__ import annotations

import random
import sys
import time

from solver import catalog
from solver.definition.formats import load_data
from solver.discover import discover, effect

CUBE_GOALS = [  # (what, first part of the effect text, goal length or None when any length counts)
    ("corner 3-cycle", "corner 3-cycle", 8),
    ("corner twist pair", "2 corners twisted", None),
    ("edge 3-cycle", "edge 3-cycle", None),
    ("edge flip pair", "2 edges flipped", None),
]
SMALL = ["cube2", "pyraminx", "skewb", "floppy", "ball-ring", "loopover-4x4"]


def renumbered_cube3(seed: int = 2024):
    """cube3 with stickers shuffled and moves renamed: the same puzzle written differently."""
    data = catalog.build("cube3")
    n = data["stickers"]
    rng = random.Random(seed)
    where = list(range(n))
    rng.shuffle(where)  # old sticker i is now numbered where[i]
    goal = [None] * n
    cells = [None] * n
    for i in range(n):
        goal[where[i]] = data["goal"][i]
        cells[where[i]] = data["layout"]["cells"][i]
    names = [f"t{k}" for k in range(len(data["moves"]))]
    rng.shuffle(names)
    moves = [{"name": name, "cycles": [[where[x] for x in c] for c in m["cycles"]]}
             for name, m in zip(names, data["moves"])]
    data.update(name="cube3-renumbered", goal="".join(goal), moves=moves,
                layout={"shape": data["layout"]["shape"], "cells": cells})
    return load_data(data), dict(zip((m["name"] for m in catalog.build("cube3")["moves"]), names))


def classes(results):
    best = {}
    for r in results:
        if r["effect_key"] not in best:
            best[r["effect_key"]] = r
    return list(best.values())


def cube_report(defn, seconds: float, label: str) -> None:
    started = time.monotonic()
    results = discover(defn, time_limit=seconds)
    took = time.monotonic() - started
    print(f"\n{label}: {len(classes(results))} effect classes in {took:.1f} s (limit {seconds:.0f} s)")
    print(f"  {'effect':<20} {'found':>6} {'goal':>6} {'ratio':>6}  proven  sequence")
    for what, prefix, goal in CUBE_GOALS:
        hits = [r for r in results if r["effect"].split(" (")[0] == prefix and " + " not in r["effect"]]
        if not hits:
            print(f"  {what:<20} {'-':>6} {goal or 'found':>6} {'-':>6}  NOT FOUND")
            continue
        r = hits[0]
        assert effect(defn, r["moves"])["effect_key"] == r["effect_key"]  # replayed
        ratio = f"{r['length'] / goal:.2f}" if goal else "-"
        print(f"  {what:<20} {r['length']:>6} {goal or 'found':>6} {ratio:>6}  {'yes' if r['shortest'] else 'no ':<6}  "
              f"{' '.join(r['moves'])}")


def small_report(name: str, seconds: float) -> None:
    defn = load_data(catalog.build(name))
    started = time.monotonic()
    results = discover(defn, time_limit=seconds)
    took = time.monotonic() - started
    found = classes(results)
    print(f"\n{name}: {len(found)} effect classes in {took:.1f} s (limit {seconds:.0f} s); * = proven shortest")
    for r in found:
        mark = "*" if r["shortest"] else " "
        print(f"  {r['length']:>3}{mark} {r['effect']:<70.70} {' '.join(r['moves'])}")


def main() -> None:
    quick = "--quick" in sys.argv
    started = time.monotonic()
    discover(load_data(catalog.build("floppy")), time_limit=30)
    print(f"kernels compiled or loaded: {time.monotonic() - started:.1f} s")
    cube_seconds = 20.0 if quick else 60.0
    cube_report(load_data(catalog.build("cube3")), cube_seconds, "cube3 (goal: within 60 s)")
    defn, renamed = renumbered_cube3()
    print(f"\nrenumbered cube3: stickers shuffled, moves renamed ({', '.join(f'{a}->{b}' for a, b in list(renamed.items())[:6])}, ...)")
    check = "R U R' D R U' R' D'".split()
    same = effect(load_data(catalog.build("cube3")), check)["effect_key"] == effect(defn, [renamed[m] for m in check])["effect_key"]
    print(f"  effect key of R U R' D R U' R' D' is the same in both numberings: {same}")
    cube_report(defn, cube_seconds, "cube3 renumbered (goal: the same lengths)")
    for name in SMALL:
        small_report(name, 10.0 if quick else 20.0)


if __name__ == "__main__":
    main()
