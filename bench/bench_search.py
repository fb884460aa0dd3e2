"""Figures of the search engines beside their goals (issue 3). Run: `python bench/bench_search.py`
(`--quick` for fewer runs). Tables are built in a fresh cache folder so build times are real; each
figure is a median of several runs, printed with its goal and the ratio figure/goal (<= 1 meets
the goal for times, >= 1 for rates). Nothing here is cube-specific: every puzzle goes through
solver.search.engine with the pieces the analysis derives."""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import api  # noqa: E402
from solver.engine import apply_moves, verify  # noqa: E402
from solver.search import engine, pdb  # noqa: E402
from solver.search.model import search_model  # noqa: E402
from solver.search.ranking import full_projection  # noqa: E402

ROWS: list[tuple] = []


def machine() -> str:
    cpu = "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, load average {load:.1f}, Python {platform.python_version()}"


def report(name: str, value: float, goal: float, unit: str, higher_is_better: bool = False, runs: int = 1):
    ratio = goal / value if higher_is_better and value else value / goal
    ok = "meets" if ratio <= 1 else "MISSES"
    ROWS.append((name, value, goal, unit, ratio, ok, runs))
    print(f"{name:<46} {value:>12.4g} {unit:<8} goal {'>=' if higher_is_better else '<='} {goal:<8g} "
          f"ratio {ratio:6.2f}  {ok}  (median of {runs})", flush=True)


def timed(fn, *args, **kw):
    started = time.perf_counter()
    out = fn(*args, **kw)
    return time.perf_counter() - started, out


def fresh_table(defn, runs: int) -> float:
    """Median seconds to build the full distance table from nothing (no cache)."""
    model = search_model(defn)
    times = []
    for _ in range(runs):
        t, db = timed(pdb.build, model, full_projection(model), full=True)
        times.append(t)
    return statistics.median(times), db


def random_states(defn, count: int, seed: int):
    return [tuple(api.scramble(defn, random_state=True, seed=seed + i)["state"]) for i in range(count)]


def solve_times(defn, states, **kw) -> tuple[list[float], int, list[int]]:
    times, nodes, lengths = [], 0, []
    for state in states:
        t, result = timed(engine.solve, defn, state, optimal=True, **kw)
        assert result.moves is not None and verify(defn, state, result.moves), "unverified solution"
        times.append(t)
        nodes += result.nodes
        lengths.append(len(result.moves))
    return times, nodes, lengths


def face_scramble(defn, length: int, rng: random.Random) -> list[str]:
    """Random moves with no two in a row on the same face (letters before the suffix)."""
    moves: list[str] = []
    while len(moves) < length:
        m = rng.choice(defn.move_names)
        if moves and m.rstrip("2'") == moves[-1].rstrip("2'"):
            continue
        moves.append(m)
    return moves


def cube2_urf(defn):
    keep = tuple(m for m in defn.moves if m.name.rstrip("2'") in ("U", "R", "F"))
    return dataclasses.replace(defn, name="cube2-urf", moves=keep, goals=(defn.goal,), given_goals=1, symmetries=(),
                               base_moves=tuple(m.name for m in keep), extenders=())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    cache = tempfile.mkdtemp(prefix="puzzlehub-bench-")
    os.environ["PUZZLEHUB_CACHE"] = cache
    print(f"machine: {machine()}\ncache: {cache}\n")

    # warm the compiled kernels on a small table so compile time is not counted
    engine.gods(api.load("floppy"))

    cube2 = api.load("cube2")
    t, _ = fresh_table(cube2_urf(cube2), runs)
    report("2x2x2 <U,R,F> table (3,674,160 states)", t, 1.0, "s", runs=runs)
    t, db = fresh_table(cube2, runs)
    report("2x2x2 six faces table (88,179,840 states)", t, 10.0, "s", runs=runs)
    pdb.save(db, pdb.cache_dir() / pdb.file_name(db.header["definition_hash"], db.header["model_key"], db.projection))
    states = random_states(cube2, 20, 1)
    engine.solve(cube2, states[0], optimal=True)  # opens the table once
    times, _, lengths = solve_times(cube2, states)
    report("2x2x2 optimal solve, random state", statistics.median(times) * 1000, 1.0, "ms", runs=len(times))

    for name in ("sliding-3x3", "flipit-8", "flipit-16"):
        defn = api.load(name)
        t, _ = fresh_table(defn, runs)
        report(f"{name} complete table", t, 5.0, "s", runs=runs)

    for name in ("pyraminx", "skewb", "floppy", "domino", "ball-ring"):
        defn = api.load(name)
        t, _ = timed(engine.pdb_build, defn) if name != "ball-ring" else (0.0, None)
        if t:
            print(f"  ({name}: tables built in {t:.1f} s)")
        states = random_states(defn, 5 if name in ("domino", "ball-ring") else 10, 7)
        times, _, lengths = solve_times(defn, states, time_limit=120)
        report(f"{name} optimal solve, random state", statistics.median(times), 1.0, "s", runs=len(times))

    cube3 = api.load("cube3")
    t, headers = timed(engine.pdb_build, cube3)
    print(f"  (3x3x3 tables: {', '.join(h['description'] for h in headers)}; built in {t:.1f} s)")
    rng = random.Random(13)
    total_nodes, total_time = 0, 0.0
    for length, goal, count in ((13, 2.0, 3 if args.quick else 7), (14, 10.0, 2 if args.quick else 5)):
        states = [apply_moves(cube3, face_scramble(cube3, length, rng)) for _ in range(count)]
        engine.solve(cube3, states[0], optimal=True, method="ida")  # opens tables, loads kernels
        times, nodes, lengths = solve_times(cube3, states, method="ida")
        total_nodes += nodes
        total_time += sum(times)
        report(f"3x3x3 optimal solve, {length}-move scramble", statistics.median(times), goal, "s", runs=count)
        print(f"  (optimal lengths {lengths})")
    report("3x3x3 IDA* node rate", total_nodes / total_time / 1e6, 5.0, "M/s", higher_is_better=True)

    # the fallback (phases, then the finisher) on spaces too big for optimal search; its answers are
    # long, so the figure is the time against the limit given, and the lengths are printed
    for name in ("megaminx", "cube5"):
        defn = api.load(name)
        states = random_states(defn, 3, 21)
        timed(engine.solve, defn, states[0], method="fallback", time_limit=10)  # finds its algorithms once
        times, lengths = [], []
        for state in states:
            t, result = timed(engine.solve, defn, state, method="fallback", time_limit=10)
            assert result.moves is not None and verify(defn, state, result.moves), "no verified answer"
            times.append(t)
            lengths.append(len(result.moves))
        report(f"{name} generic fallback, random state, 10 s limit", statistics.median(times), 10.0, "s", runs=len(times))
        print(f"  (lengths {lengths})")

    misses = [r for r in ROWS if r[5] != "meets"]
    print(f"\n{len(ROWS) - len(misses)} of {len(ROWS)} figures meet their goals on this machine ({machine()}).")
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
