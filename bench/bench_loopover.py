"""Loopover bench: every square board 2x2 .. 30x30, 30 random reachable boards each.

Goals (issue 6): all 870 boards in 3 s or less in total (the seed's C program's figure); average
move count at least 40% below a plain layer-by-layer method (bench/loopover_baseline.py). Every
solution is replayed. Then the optimal tables: 2x2 and 3x3 distance distributions, and random
4x4 boards solved optimally by the pattern-database search.

    PYTHONPATH=. python bench/bench_loopover.py [--boards 30] [--max 30]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loopover_baseline import baseline_kernel  # noqa: E402

from solver.special.loopover import Board, optimal, pdb_search, solve_moves  # noqa: E402
from solver.special.loopover.lines import COL, ROW, parity, replay  # noqa: E402


def random_board(rng, rows, cols):
    """Uniform over reachable boards: with both sides odd, an odd permutation gets one swap."""
    t = rng.permutation(rows * cols).astype(np.int64)
    if rows % 2 and cols % 2 and parity(t):
        t[0], t[1] = t[1], t[0]
    return t


def baseline(tiles, rows, cols):
    """The plain method's moves, with the same orientation rule as the solver's."""
    board = Board(rows, cols)
    if cols % 2 == 1 and rows % 2 == 0:
        moves = baseline_kernel(board.transpose(tiles), cols, rows)
        moves[:, 0] = np.where(moves[:, 0] == ROW, COL, ROW)
    else:
        moves = baseline_kernel(np.array(tiles), rows, cols)
    assert (replay(np.array(tiles), rows, cols, moves) == np.arange(rows * cols)).all()
    return moves


def length(moves):
    return int(np.abs(moves[:, 2]).sum())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--max", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--optimal-4x4", type=int, default=10, help="random 4x4 boards solved optimally")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    sizes = range(2, args.max + 1)
    boards = {n: [random_board(rng, n, n) for _ in range(args.boards)] for n in sizes}
    for n in (2, 3):  # compile or load the kernels outside the timing
        solve_moves(boards[n][0], n, n)
        baseline(boards[n][0], n, n)

    ours, plain = {}, {}
    t0, cpu = time.perf_counter(), time.process_time()
    for n in sizes:
        ours[n] = [length(solve_moves(b, n, n)) for b in boards[n]]
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu
    for n in sizes:
        plain[n] = [length(baseline(b, n, n)) for b in boards[n]]

    print(" size   ours avg   plain avg   ratio")
    for n in sizes:
        a, b = np.mean(ours[n]), np.mean(plain[n])
        print(f"{n:2d}x{n:<2d} {a:10.1f} {b:11.1f}   {a / b:.3f}")
    all_ours = np.mean([x for n in sizes for x in ours[n]])
    all_plain = np.mean([x for n in sizes for x in plain[n]])
    count = sum(len(v) for v in boards.values())
    print(f"{count} boards solved and replayed in {elapsed:.2f} s wall, {cpu:.2f} s CPU (goal <= 3 s, "
          f"ratio {elapsed / 3:.2f}; seed's C program: about 3 s; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores)")
    print(f"average moves {all_ours:.1f} vs plain {all_plain:.1f}: ratio {all_ours / all_plain:.3f}, "
          f"{100 * (1 - all_ours / all_plain):.1f}% fewer (goal >= 40% fewer)")

    for n in (2, 3):
        t0 = time.perf_counter()
        dist = np.asarray(optimal.table(n, n))
        took = time.perf_counter() - t0
        reach = dist[dist != optimal.UNREACHED]
        counts = np.bincount(reach)
        print(f"{n}x{n} optimal table: {reach.size} reachable states, God's number {reach.max()}, "
              f"distribution {counts.tolist()} ({took:.2f} s to load or build)")
        sample = [len(optimal.solve(b, n, n)) for b in boards[n]]
        print(f"  {n}x{n} random boards: optimal average {np.mean(sample):.2f} "
              f"vs constructive {np.mean(ours[n]):.2f}")

    if args.optimal_4x4:
        t0 = time.perf_counter()
        pdb_search.solve(list(range(16)), 4, 4)
        print(f"4x4 pattern database ready in {time.perf_counter() - t0:.1f} s")
        lengths, times = [], []
        for b in boards[4][: args.optimal_4x4]:
            t0 = time.perf_counter()
            lengths.append(len(pdb_search.solve(b, 4, 4)))
            times.append(time.perf_counter() - t0)
        print(f"4x4 optimal (IDA*, 2x3-block PDB over 16 translations): {len(lengths)} random boards, "
              f"lengths {lengths}, average {np.mean(lengths):.2f} vs constructive "
              f"{np.mean(ours[4][: len(lengths)]):.1f}; {np.mean(times):.1f} s average, {max(times):.1f} s max")


if __name__ == "__main__":
    main()
