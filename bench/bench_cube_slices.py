"""Benchmark of NxNxN cubes written with single-slice moves (one move per layer and its inverse, as
permutation-array formats write them; shuffled sticker numbering): recognition time, and answer
length in the user's slice moves (a slice quarter turn counts 1, a half turn 2) through the
specialized solvers, beside the generic fallback's on the same states (which is what such cubes got
before they were recognised; off by default, it takes minutes: BENCH_SLICES_GENERIC=1).

    python bench/bench_cube_slices.py [--n 2] [--sizes 4 5 6 7] [--generic]

Every answer is replayed by solver.api.solve before it counts. Issue #17 quotes the generic
fallback's figures measured on the Santa 2023 cubes: 437-528 slice moves for a 5x5x5, 786 for a
6x6x6; the best published answers there are about 100 slice moves for 5x5x5 states.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from solver import api, perm
from solver.definition.formats import load_data
from solver.engine import apply_moves
from solver.special import layered_cube

PUBLISHED = {5: "~100 (best Santa 2023 answers, issue #17)"}
BEFORE = {5: "437-528", 6: "786"}  # the generic fallback, as issue #17 measured it


def slice_cube(n: int, seed: int):
    """The catalog cubeN's single-layer quarter turns and their inverses, stickers shuffled."""
    frame = layered_cube.frame(n)
    size = len(frame.goal)
    order = list(range(size))
    random.Random(seed).shuffle(order)  # catalog sticker i is user sticker order[i]
    moves = []
    for axis, letter in enumerate("fdr"):
        for k in range(n):
            p = layered_cube.vector_perm(frame, axis, [int(j == k) for j in range(n)])
            user = [0] * size
            for i, j in enumerate(p.tolist()):
                user[order[i]] = order[j]
            moves.append({"name": f"{letter}{k}", "cycles": perm.cycles(user)})
            moves.append({"name": f"-{letter}{k}", "cycles": perm.cycles(perm.inverse(user))})
    goal = [""] * size
    for i, c in enumerate(frame.goal):
        goal[order[i]] = c
    return load_data({"format": "puzzlehub/1", "name": f"slices-{n}", "goal": goal, "moves": moves})


def _lengths(defn, states, method=None, time_limit=None):
    lengths, seconds = [], []
    for state in states:
        start = time.perf_counter()
        out = api.solve(defn, state, method=method, time_limit=time_limit)
        seconds.append(time.perf_counter() - start)
        assert out["verified"], out
        lengths.append(out["length"])
    return statistics.mean(lengths), statistics.mean(seconds), out["method"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_SLICES_N", 2)))
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--generic", action="store_true", default=bool(os.environ.get("BENCH_SLICES_GENERIC")))
    args = parser.parse_args()
    print(f"Slice-move cubes: {args.n} random states per size (30N random slice moves each), lengths in the "
          "user's slice moves")
    for n in args.sizes:
        defn = slice_cube(n, seed=n)
        start = time.perf_counter()
        assert layered_cube.recognize(defn) is not None
        recognised = time.perf_counter() - start
        rng = random.Random(n)
        states = [apply_moves(defn, [rng.choice(defn.move_names) for _ in range(30 * n)]) for _ in range(args.n)]
        length, seconds, method = _lengths(defn, states)
        line = (f"cube{n} slices: recognised in {recognised:.3f} s | {method} {length:7.1f} moves "
                f"{seconds:5.1f} s/state")
        if args.generic:
            generic = _lengths(defn, states, method="fallback", time_limit=600)
            line += (f" | generic fallback {generic[0]:7.1f} moves {generic[1]:5.1f} s/state, "
                     f"ratio {length / generic[0]:.2f}")
        else:
            line += f" | generic fallback (issue #17) {BEFORE.get(n, 'not measured')}"
        print(line + f" | published {PUBLISHED.get(n, 'none found')}", flush=True)
    for n in (12, 33):  # recognition alone, at the sizes the matcher must stay quick for
        defn = slice_cube(n, seed=n)
        start = time.perf_counter()
        cube = layered_cube.recognize(defn)
        print(f"cube{n} slices ({len(defn.moves)} moves, {defn.stickers} stickers): recognised in "
              f"{time.perf_counter() - start:.3f} s: {cube is not None}")


if __name__ == "__main__":
    main()
