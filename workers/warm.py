"""Before a worker's pool forks, load the solver's tables and compile (or load from numba's cache)
its kernels, so that every child inherits them and no job spends its time limit on them
(DESIGN.md: compile or load kernels before forking where it matters).

The first start on a machine builds what is missing (tables into PUZZLEHUB_CACHE, kernels into
NUMBA_CACHE_DIR); later starts load them in a second or two. PUZZLEHUB_WORKER_WARM_UP=0 skips it.
"""

from __future__ import annotations

import importlib
import logging
import os
import time

from celery.signals import worker_init

log = logging.getLogger(__name__)

# modules of the solver with a warm_up() hook, one per kernel family: tables that take long to
# build, kernels that take long to compile (the generic search's include the pattern-database builds);
# in this order: the big cubes' fallback pairing (bigcube.short) finds the tables families' loaded
WARM_UPS = ("solver.special.cube3.solve", "solver.special.cube3.optimal", "solver.special.families",
            "solver.special.bigcube.short", "solver.search.engine", "solver.discover.kernels")


def warm_up() -> dict[str, float]:
    """Run every warm-up hook; seconds each took. A failing hook is logged, never fatal: the jobs
    that need it build or compile on first use instead."""
    seconds = {}
    for name in WARM_UPS:
        started = time.monotonic()
        try:
            importlib.import_module(name).warm_up()
        except Exception:
            log.exception("warm-up %s failed", name)
            continue
        seconds[name] = round(time.monotonic() - started, 2)
    log.info("warm-up before forking: %s", seconds)
    return seconds


@worker_init.connect
def _warm_before_forking(**_) -> None:
    if os.environ.get("PUZZLEHUB_WORKER_WARM_UP", "1") != "0":
        warm_up()
