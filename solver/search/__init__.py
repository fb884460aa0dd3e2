"""Search engines: ranking, pattern databases, compiled kernels (see docs/search.md).

Numba caches a compiled kernel beside the file that defines it and does not notice when a function
it calls from another module changes: a stale kernel would run with the old callee (and can crash).
When NUMBA_CACHE_DIR is set, the kernels of this package are therefore cached in a folder named by
a hash of the package's sources, so that any change to them compiles afresh.
"""

import hashlib
import os
from pathlib import Path


def _kernel_cache_dir() -> str | None:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        return None
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return os.path.join(base, "search-" + digest.hexdigest()[:12])


def _compile_here() -> None:
    folder = _kernel_cache_dir()
    if folder is None:
        return
    from numba.core import config

    previous, config.CACHE_DIR = config.CACHE_DIR, folder
    try:  # the kernels take their cache folder when they are decorated, at import
        from solver.search import bidir, ida, kernels, pdb, ranking, table  # noqa: F401
    finally:
        config.CACHE_DIR = previous


_compile_here()
