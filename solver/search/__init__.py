"""Search engines: ranking, pattern databases, compiled kernels (see docs/search.md).

Numba caches a compiled kernel beside the file that defines it and does not notice when a function
it calls from another module changes: a stale kernel would run with the old callee (and can crash).
When NUMBA_CACHE_DIR is set, the kernels of this package are therefore cached in a folder named by
a hash of the sources of its modules that define kernels, so that any change to them compiles
afresh (and a change to the engine, the planner or the finisher, which define none, compiles
nothing: a minute of compiling on this machine). The kernels are
decorated with this package's `njit`, which picks that folder. Kernels load on first use
(solver.compiled): importing the package loads neither numba nor any kernel.
"""

import functools
import hashlib
import os
from pathlib import Path

from solver import compiled


@functools.cache
def _kernel_cache_dir() -> str | None:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        return None
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        source = path.read_bytes()
        if b"njit" in source:  # only modules defining kernels: a change elsewhere compiles nothing
            digest.update(source)
    return os.path.join(base, "search-" + digest.hexdigest()[:12])


def njit(**options):
    """solver.compiled.njit(cache=True, **options), cached in this package's folder."""
    return compiled.njit(cache_dir=_kernel_cache_dir, cache=True, **options)
