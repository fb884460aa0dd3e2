"""How fast hostile definitions are refused (issue 16's goal: every refusal in under 1 s), figures
not pass/fail.

    .venv/bin/python bench/bench_definition_fuzz.py [--examples 300]

The hostile texts are the tests' (tests/hostile_definitions.py): generated ones (deep nesting, huge
numbers, any Unicode, YAML's tricks, spliced into real definitions of each format), bytes that are
not UTF-8, and documents at the 2 MB size limit in each shape, the slowest to refuse because they
are read to the end, and the worst case: just under the limit of items, refused only at the end
(no goal). Printed per kind: how many, how many refused, the slowest refusal and the
median; for the documents at the limit, PyYAML's own safe loader (libyaml) on the same texts as the
baseline, in the same run (the reader before issue 16 used it after a check of the events).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from hostile_definitions import hostile_text, near_the_limit, not_utf8  # noqa: E402

from solver.definition import safe_yaml  # noqa: E402
from solver.definition.formats import load_text  # noqa: E402
from solver.errors import DefinitionError  # noqa: E402

GOAL_S = 1.0


def timed(text) -> tuple[float, bool]:
    """Seconds to read or refuse the text, and whether it was refused."""
    started = time.perf_counter()
    try:
        load_text(text)
        refused = False
    except DefinitionError:
        refused = True
    return time.perf_counter() - started, refused


def sample(strategy, count: int) -> list:
    drawn = []

    @settings(max_examples=count, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck), phases=["generate"])
    @given(x=strategy)
    def collect(x):
        drawn.append(x)

    collect()
    return drawn


def baseline(text) -> float:
    started = time.perf_counter()
    try:
        yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506 - a safe loader
    except (yaml.YAMLError, ValueError):
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=300)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    kinds = {
        "generated": sample(hostile_text, args.examples),
        "not UTF-8": sample(not_utf8(), args.examples // 3),
        "at the limit": sample(near_the_limit(), 24),
    }
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores, shared); goal: every refusal < {GOAL_S:g} s")
    print(f"  {'kind':<14} {'texts':>6} {'refused':>8} {'median ms':>10} {'slowest ms':>11} {'goal ratio':>10}")
    for kind, texts in kinds.items():
        times = [timed(t) for t in texts]
        refusals = [s for s, refused in times if refused]
        slowest = max(refusals, default=0.0)
        print(f"  {kind:<14} {len(texts):>6} {len(refusals):>8} {1000 * statistics.median(refusals or [0]):>10.1f} "
              f"{1000 * slowest:>11.1f} {slowest / GOAL_S:>10.2f}")
    big = [t for t in kinds["at the limit"] if isinstance(t, str) and len(t.encode()) <= 2 * 1024 * 1024]
    move = "  - {name: A, cycles: [[0, 1]]}\n"  # 11 parser events
    worst = "format: puzzlehub/1\nname: big\nmoves:\n" + move * ((safe_yaml.MAX_ITEMS - 20) // 11)
    seconds, refused = timed(worst)
    print(f"  the worst case: {len(worst.encode()) / 1e6:.1f} MB, {safe_yaml.MAX_ITEMS - 20:,} items, read to the end "
          f"and then {'refused' if refused else 'read'}: {1000 * seconds:.0f} ms (goal ratio {seconds / GOAL_S:.2f})")
    big.append(worst)
    ours = sum(timed(t)[0] for t in big)
    theirs = sum(baseline(t) for t in big)
    print(f"\n{len(big)} documents within the limit, read or refused: {ours:.2f} s; PyYAML's CSafeLoader on the same "
          f"texts: {theirs:.2f} s (ratio {theirs / ours:.1f}x); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
