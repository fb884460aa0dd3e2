"""Flip-it bench: shortest solutions for every start on every board from 5 to 20 cells.

A start is a board of n cells with the empty cell anywhere and every stone black; its goal is
every stone white. Goal (issue 6): all of them in 30 s or less in total; the seed's program
handled n = 5 and 6. Every solution is replayed. The table of lengths is printed (row n, column
the empty cell). Then, for small boards, every colouring too (n * 2^(n-1) starts per board).

    PYTHONPATH=. python bench/bench_flipit.py [--max 20] [--all-colourings 10]
"""

from __future__ import annotations

import argparse
import os
import time
from itertools import product

from solver.special.flipit import apply, empty_path, goal, solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=20)
    ap.add_argument("--all-colourings", type=int, default=10, help="largest board for every colouring")
    args = ap.parse_args()
    solve("_BBBB")  # compile or load the kernels outside the timing

    wall, cpu = time.perf_counter(), time.process_time()
    table = {}
    for n in range(5, args.max + 1):
        row = []
        for e in range(n):
            start = "B" * e + "_" + "B" * (n - 1 - e)
            path = empty_path(start)
            jumps = [(b, a) for a, b in zip(path, path[1:])]
            assert apply(start, jumps) == goal(start), start
            row.append(len(jumps))
        table[n] = row
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu

    print("shortest solution length; row: cells, column: the empty cell (stones all black)")
    print("  n | " + " ".join(f"{e:2d}" for e in range(args.max)))
    for n, row in table.items():
        print(f"{n:3d} | " + " ".join(f"{x:2d}" for x in row))
    starts = sum(len(r) for r in table.values())
    print(f"{starts} starts solved optimally and replayed in {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"(goal <= 30 s, ratio {wall / 30:.2f} wall, {cpu / 30:.2f} CPU; seed's program: n = 5 and 6 only; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")

    t0 = time.perf_counter()
    for n in range(5, args.all_colourings + 1):
        lengths, unsolvable = [], 0
        for e in range(n):
            for colours in product("BW", repeat=n - 1):
                start = "".join(colours[:e]) + "_" + "".join(colours[e:])
                try:
                    lengths.append(len(solve(start)))
                except ValueError:
                    unsolvable += 1
        print(f"every colouring, n = {n:2d}: {len(lengths) + unsolvable} starts, longest {max(lengths)}, "
              f"average {sum(lengths) / len(lengths):.2f}, unsolvable {unsolvable}")
    print(f"  ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
