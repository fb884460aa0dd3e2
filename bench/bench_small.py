"""Wall time of `puzzle solve --optimal` on small and medium puzzles, as a user runs it from the
command line (issue 19): per puzzle, the first solve in a fresh table cache (tables built, and the
compiled kernels it is the first to need: once per install), the first solve of the same state in
another fresh table cache (a new puzzle on an installed system: kernels compiled, tables not), and
then 5 random states solved again with the tables cached, each in its own process. Printed beside the
goals (first solve of a puzzle under 10 M states < 3 s, repeated solve < 0.5 s) and twsearch's
figures where the issue quotes them. The load average is printed too: on a shared machine every
wall time grows with it, so the processor time of the repeated solves (user + system, which the
load does not stretch) is printed beside their wall time. Puzzles too big for a proven shortest
answer in a bench (the Little Chop, Rex Cube, FTO: 10^15 and more states) are solved without
--optimal under a time limit. `--against DIR` solves the same states with another checkout's code too
(e.g. a worktree of main, in its own table cache), one process after the other, and prints its
first and repeated wall times and the ratio of the repeated ones. Run: `python bench/bench_small.py [--quick] [--against DIR] [NAME ...]`."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver import api  # noqa: E402

PUZZLES = ["cube2", "skewb", "pyraminx", "pyramorphix", "dino", "skewb-diamond", "floppy", "domino", "cuboid-2x2x3", "ball-ring",
           "sliding-2x3", "sliding-3x3", "flipit-8", "loopover-3x3", "cuboid-2x2x4", "little-chop", "rex", "fto"]
NOT_OPTIMAL = {"little-chop", "rex", "fto"}  # solved without --optimal, under TIME_LIMIT
TIME_LIMIT = 30
TWSEARCH = {"cube2": 0.10, "skewb": 0.25, "pyramorphix": 0.03, "dino": 0.2}  # seconds, as quoted in issue 19
FIRST_GOAL, REPEAT_GOAL, SMALL = 3.0, 0.5, 10_000_000


def puzzle_solve(name: str, state, cache: str, root: Path = ROOT) -> tuple[float, float, dict]:
    """Wall and processor seconds of one `puzzle solve` process (the code of checkout `root`), and
    its answer."""
    env = dict(os.environ, PUZZLEHUB_CACHE=cache)
    text = json.dumps(list(state))
    how = ["--time-limit", str(TIME_LIMIT)] if name in NOT_OPTIMAL else ["--optimal"]
    before = os.times()
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "solver", "solve", name, "--state", text, *how, "--json"],
                         env=env, capture_output=True, text=True, cwd=root)
    wall = time.monotonic() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{name}: puzzle solve failed: {out.stderr.strip()}")
    result = json.loads(out.stdout)
    defn = api.load(name)
    if result["solution"] is not None and not api.verify(defn, tuple(state), result["solution"]):
        raise SystemExit(f"{name}: the answer does not replay")
    return wall, cpu, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="2 states per puzzle instead of 5")
    parser.add_argument("--against", type=Path, help="another checkout, e.g. a worktree of main")
    parser.add_argument("names", nargs="*", default=PUZZLES)
    args = parser.parse_args()
    runs = 2 if args.quick else 5
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(a loaded machine stretches every wall time)")
    against = f" {'against: first':>14} {'repeat':>6} {'ratio':>5}" if args.against else ""
    print(f"{'puzzle':14} {'states':>13} {'first s':>8} {'new s':>6} {'goal':>5} {'repeat s (median/max)':>22} {'cpu s':>6} "
          f"{'goal':>5} {'twsearch':>8}{against}  method, lengths")
    for name in args.names:
        defn = api.load(name)
        count, _ = api.info(defn)["state_count"], None
        states = [api.scramble(defn, random_state=True, seed=s)["state"] for s in range(runs)]
        with tempfile.TemporaryDirectory(prefix="bench-small-") as cache, \
                tempfile.TemporaryDirectory(prefix="bench-small-against-") as other:
            first, _cpu, result = puzzle_solve(name, states[0], cache)
            with tempfile.TemporaryDirectory(prefix="bench-small-new-") as fresh:
                new = puzzle_solve(name, states[0], fresh)[0]
            if args.against:
                their_first = puzzle_solve(name, states[0], other, args.against)[0]
            repeats, cpus, lengths, theirs = [], [], [], []
            for state in states:
                wall, cpu, result = puzzle_solve(name, state, cache)
                repeats.append(wall)
                cpus.append(cpu)
                lengths.append(result["length"])
                if args.against:
                    wall, _cpu, answer = puzzle_solve(name, state, other, args.against)
                    theirs.append(wall)
                    if answer["length"] != result["length"] and name not in NOT_OPTIMAL:
                        raise SystemExit(f"{name}: {answer['length']} moves there, {result['length']} here")
        goal = f"{FIRST_GOAL:.1f}" if count < SMALL else "-"
        tw = f"{TWSEARCH[name]:.2f}" if name in TWSEARCH else "-"
        states_text = f"{count:>13,}" if count < 10**13 else f"{count:>13.2e}"
        repeat = statistics.median(repeats)
        against = (f" {their_first:14.2f} {statistics.median(theirs):6.2f} {repeat / statistics.median(theirs):5.2f}"
                   if args.against else "")
        print(f"{name:14} {states_text} {first:8.2f} {new:6.2f} {goal:>5} {repeat:10.2f} / {max(repeats):<9.2f} "
              f"{statistics.median(cpus):6.2f} {REPEAT_GOAL:5.1f} {tw:>8}{against}  {result['method']}, {lengths}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
