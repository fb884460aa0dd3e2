"""How soon each solver family stops after a cancel: a solve (or table build) runs in a thread
through solver.api, cancel() starts answering True after a delay, and the time from then to the
solve's return is the stop latency. Goal: every family under 0.2 s (issue #12; a worker adds up
to one heartbeat to bring the cancel in).

    python bench/bench_cancel.py [--delay 0.5]

A fresh PUZZLEHUB_CACHE shows the table builds being stopped (sliding 4x4, Loopover 4x4); with
the tables present the searches are. Figures are wall-clock on a shared machine: the load average
is printed with them.
"""

from __future__ import annotations

import argparse
import os
import time

from solver import api

CASES = [
    # (label, puzzle, solve options): each runs longer than the delay on this machine
    ("big cube (cube4 reduction)", "cube4", {}),
    ("Loopover 4x4 optimal", "loopover-4x4", {"optimal": True}),
    ("sliding 4x4 optimal", "sliding-4x4", {"optimal": True}),
    ("Flip-it 20", "flipit-20", {}),
    ("3x3x3 optimal", "cube3", {"optimal": True}),
    ("generic IDA* (megaminx optimal)", "megaminx", {"optimal": True, "method": "ida"}),
]


def _stop_latency(run, delay: float) -> tuple[float | None, str]:
    """Seconds from the moment cancel() turns True to `run`'s return (None: it ended first or
    never asked after that moment)."""
    at = time.monotonic() + delay
    asked = []

    def cancel() -> bool:
        if time.monotonic() >= at:
            asked.append(True)
            return True
        return False

    outcome = run(cancel)
    ended = time.monotonic()
    if not asked:
        return None, f"ended first ({outcome})"
    return ended - at, outcome


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.5, help="seconds before the cancel")
    args = parser.parse_args()
    print(f"cancel latency, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"cancel after {args.delay:g} s; goal < 0.2 s")
    for label, name, options in CASES:
        defn = api.load(name)
        state = api.scramble(defn, random_state=True, seed=7)["state"]
        api.solve(defn, state, time_limit=0.5, **options)  # compile the kernels first

        def run(cancel, defn=defn, state=state, options=options):
            result = api.solve(defn, state, time_limit=300, cancel=cancel, **options)
            return f"stopped: {result['stopped']}, phase {result['phase']}"

        latency, outcome = _stop_latency(run, args.delay)
        shown = "   --  " if latency is None else f"{latency * 1000:6.0f} ms"
        print(f"{label:34s} {shown}   {outcome}")

    defn = api.load("megaminx")

    def build(cancel):
        try:
            api.pdb_build(defn, cancel=cancel)
        except api.Cancelled:
            return "cancelled"
        return "built"

    latency, outcome = _stop_latency(build, args.delay)
    shown = "   --  " if latency is None else f"{latency * 1000:6.0f} ms"
    print(f"{'pattern-database build (megaminx)':34s} {shown}   {outcome}")

    cube3 = api.load("cube3")
    api.discover(cube3, time_limit=1)  # compile its kernels first, as a worker does before it forks

    def discovery(cancel):
        found = api.discover(cube3, time_limit=300, cancel=cancel)
        return f"{len(found)} algorithms kept"

    latency, outcome = _stop_latency(discovery, args.delay)
    shown = "   --  " if latency is None else f"{latency * 1000:6.0f} ms"
    print(f"{'discovery (cube3)':34s} {shown}   {outcome}")


if __name__ == "__main__":
    main()
