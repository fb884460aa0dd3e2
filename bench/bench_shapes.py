"""Benchmark of puzzles from shapes: time to build each named shape into a checked definition (goal:
under 2 s each for shapes up to 1,000 stickers), time to count its states (the site's shape preview
gives the count when it takes at most 1 s, puzzlehub.web.preview.SHAPE_BUDGET; else a worker counts
it once the puzzle is published), and time to refuse a description over 10,000 stickers (goal:
under 1 s).

    python bench/bench_shapes.py [--names megaminx gigaminx ...] [--runs 3] [--big]

Each figure is the median of --runs builds (description to native definition, then loaded and
validated as any definition is). The baseline in the same run is the catalog's own Megaminx built
by its hand-written generator, so the ratio says what the general construction costs. --big adds
the 20x20x20 (2,400 stickers) and the 40x40x40 (9,600), which are over the goal's size.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from solver import catalog
from solver.definition.formats import load_data
from solver.errors import DefinitionError
from solver.analysis import group
from solver.geometry import NAMED, build

GOAL_SECONDS, GOAL_STICKERS, REFUSE_SECONDS = 2.0, 1_000, 1.0
PREVIEW_SECONDS = 1.0  # the shape preview's budget for the counts
BIG = {"20x20x20": "c " + " ".join(f"f {k / 10:g}" for k in range(10)),
       "40x40x40": "c " + " ".join(f"f {k / 20:g}" for k in range(20))}
TOO_MANY = "c " + " ".join(f"f {k / 100:g}" for k in range(60))  # 6 x 119^2 stickers


def timed(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def count(defn) -> float:
    """Seconds to the state count and group order (what the preview shows), cold: once per shape."""
    start = time.perf_counter()
    group.state_count(defn)
    group.group_order(defn)
    return time.perf_counter() - start


def refuse() -> float:
    start = time.perf_counter()
    try:
        build(TOO_MANY)
    except DefinitionError:
        return time.perf_counter() - start
    raise AssertionError("the description over 10,000 stickers was built")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", nargs="*", default=list(NAMED))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big", action="store_true")
    args = parser.parse_args()
    shapes = {name: name for name in args.names}
    if args.big:
        shapes.update(BIG)
    print(f"python {platform.python_version()}, {args.runs} runs each, median seconds")
    baseline, _ = timed(lambda: load_data(catalog.build("megaminx")), args.runs)
    print(f"baseline: catalog megaminx generator {baseline:.3f} s")
    print(f"{'shape':30} {'stickers':>8} {'moves':>5} {'seconds':>8} {'x base':>7}  {'goal':22} {'count s':>8}  preview")
    misses, counted = [], 0
    for name, text in shapes.items():
        seconds, defn = timed(lambda: load_data(build(text)), args.runs)
        goal = defn.stickers <= GOAL_STICKERS
        ok = seconds < GOAL_SECONDS
        if goal and not ok:
            misses.append(name)
        mark = ("ok" if ok else "MISSED") if goal else "(over 1,000 stickers)"
        counting = count(defn)
        counted += counting <= PREVIEW_SECONDS
        print(f"{name:30} {defn.stickers:8,} {len(defn.base_moves):5} {seconds:8.3f} {seconds / baseline:7.1f}  {mark:22} "
              f"{counting:8.3f}  {'counted' if counting <= PREVIEW_SECONDS else 'by a worker'}")
    refusal = statistics.median(refuse() for _ in range(args.runs))
    print(f"refusing {TOO_MANY[:24]}... (over 10,000 stickers): {refusal:.3f} s "
          f"({'ok' if refusal < REFUSE_SECONDS else 'MISSED'}, goal {REFUSE_SECONDS:g} s)")
    print("goal met for every shape up to 1,000 stickers" if not misses else f"goal missed: {', '.join(misses)}")
    print(f"states counted within the preview's {PREVIEW_SECONDS:g} s: {counted} of {len(shapes)} shapes")


if __name__ == "__main__":
    main()
