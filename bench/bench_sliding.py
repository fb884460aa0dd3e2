"""15-puzzle bench: pattern-database build time, then Korf's 100 instances solved optimally.

Goals (issue 6): tables built in 10 minutes or less; all 100 instances solved with the lengths of
the file in 60 s or less in total after the tables are built. Anchor: the 7-8 additive PDB in C
averages about 0.03 s an instance.

    PYTHONPATH=. python bench/bench_sliding.py [--rebuild] [--first N] [--data PATH]

Then the constructive solver on bigger boards (no goal in the issue; figures for reference).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from solver.special import store
from solver.special.sliding import Board, solve
from solver.special.sliding import pdb
from solver.special.sliding.search import heuristic, solve_cells

DATA = Path(os.environ.get("KORF100", "/work/shared/data/korf100.txt"))


def read_instances(path: Path):
    lines = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]
    for head, tiles in zip(lines[0::2], lines[1::2]):
        yield int(head[0]), int(head[1]), tuple(int(x) for x in tiles)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rebuild", action="store_true", help="delete and rebuild the stored tables")
    ap.add_argument("--first", type=int, default=100)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    board = Board(4, 4)
    groups = pdb.partition(board)
    print(f"groups: {' / '.join('-'.join(map(str, g)) for g in groups)} "
          f"({'-'.join(str(len(g)) for g in groups)}), reflected heuristic: yes")
    if args.rebuild:
        for g in groups:
            name = f"sliding-4x4-v{pdb.VERSION}-" + "-".join(map(str, g))
            store.table_path("sliding", name).unlink(missing_ok=True)
    t0 = time.perf_counter()
    heuristic(board)
    build = time.perf_counter() - t0
    print(f"tables ready in {build:.1f} s (built now if missing, else loaded and checksummed); "
          f"goal <= 600 s for a build; ratio {build / 600:.3f}")
    solve_cells(board, board.goal())  # compile or load the kernel outside the timing

    total_time = 0.0
    cpu = time.process_time()
    total_nodes = 0
    wrong = 0
    count = 0
    for ident, length, tiles in list(read_instances(args.data))[: args.first]:
        t0 = time.perf_counter()
        cells, nodes = solve_cells(board, tiles)
        dt = time.perf_counter() - t0
        total_time += dt
        total_nodes += nodes
        found = len(cells)
        blank, moves = tiles.index(0), []
        for c in cells:
            moves.append(board.move_name(blank, c))
            blank = c
        ok = board.apply(tiles, moves) == board.goal() and found == length
        wrong += not ok
        count += 1
        print(f"{ident:3d} length {found:2d} (file {length:2d}) {'ok' if ok else 'WRONG'} "
              f"{nodes:>11,d} nodes {dt:7.3f} s")
    cpu = time.process_time() - cpu
    print(f"solved {count - wrong}/{count} with the file's lengths, replayed")
    print(f"total {total_time:.1f} s (goal <= 60 s, ratio {total_time / 60:.2f}); "
          f"{cpu:.1f} s CPU (ratio {cpu / 60:.2f}), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; average {total_time / count:.3f} s an instance (anchor C 7-8 PDB: 0.03 s); "
          f"{total_nodes / max(total_time, 1e-9) / 1e6:.1f} M nodes/s")




def constructive_figures(count: int = 10) -> None:
    rng = random.Random(2026)
    for n in range(5, 11):
        board = Board(n, n)
        lengths, t0 = [], time.perf_counter()
        for _ in range(count):
            tiles = list(range(n * n))
            rng.shuffle(tiles)
            if not board.solvable(tiles):
                i, j = [k for k, t in enumerate(tiles) if t][:2]
                tiles[i], tiles[j] = tiles[j], tiles[i]
            lengths.append(len(solve(tiles, n, n, method="constructive")))
        print(f"constructive {n}x{n}: {count} random states, average {sum(lengths) / count:.0f} moves, "
              f"{(time.perf_counter() - t0) / count:.2f} s each (replayed)")


if __name__ == "__main__":
    main()
    constructive_figures()
