"""Compiled kernels, loaded on first use: importing numba and loading the first kernel from its
cache costs about half a second in every process, more than a small puzzle's whole solve, so no
module imports numba when it is imported.

A kernel is decorated with this module's `njit` (numba.njit's options) and becomes a `Kernel`:
numba is imported and the kernel compiled, or loaded from numba's cache, on its first compiled
call. Work of a few thousand steps (a walk down a cached distance table, the goal views of a
state) runs the same functions as plain Python inside `interpreted()` while no kernel has been
loaded in the process, so such a solve never imports numba at all (a worker, whose kernels are
loaded, runs them compiled). Kernels calling kernels see numba's dispatchers (`_numba_type_`), and
`inline="always"` is honoured (numba reads `py_func` and `targetoptions`).
"""

from __future__ import annotations

import functools
import threading
from contextlib import contextmanager
from typing import Callable


class _Mode(threading.local):
    interpreted = False  # kernels called now run as Python, unless numba is loaded already


_mode = _Mode()
_loaded = False  # a kernel was made in this process: numba's start-up is paid


class Kernel:
    """numba.njit(**options)(function), made on the first compiled call; `cache_dir()` names the
    folder of its cached machine code (None: numba's own choice)."""

    def __init__(self, function, options: dict, cache_dir: Callable[[], str | None] | None = None):
        self.py_func = function
        self.targetoptions = options
        self.cache_dir = cache_dir
        functools.update_wrapper(self, function)

    @functools.cached_property
    def compiled(self):
        import numba
        from numba.core import config

        from solver.search.budget import compiling

        global _loaded
        _loaded = True
        compiling.install()  # a solve's clock leaves out loading kernels, the first one included
        folder = self.cache_dir() if self.cache_dir is not None else None
        previous = config.CACHE_DIR
        config.CACHE_DIR = folder or previous  # numba reads the folder when it decorates
        try:
            return numba.njit(**self.targetoptions)(self.py_func)
        finally:
            config.CACHE_DIR = previous

    @property
    def _numba_type_(self):
        from numba.core import types

        return types.Dispatcher(self.compiled)

    def __call__(self, *args, **kwargs):
        if _mode.interpreted and not _loaded:
            return self.py_func(*args, **kwargs)
        return self.compiled(*args, **kwargs)


def njit(cache_dir: Callable[[], str | None] | None = None, **options):
    """A decorator making a `Kernel` of numba.njit(**options)."""
    return lambda function: Kernel(function, options, cache_dir)


def loaded() -> bool:
    """Whether numba's start-up is paid in this process (a kernel was made)."""
    return _loaded


@contextmanager
def interpreted():
    """Kernels called inside run as plain Python (on numpy scalars, whose int64 arithmetic wraps as
    compiled code's does) until a kernel is loaded in this process: for a few thousand steps,
    cheaper than importing numba and loading them."""
    import numpy as np

    before = _mode.interpreted
    _mode.interpreted = True
    try:
        with np.errstate(over="ignore"):
            yield
    finally:
        _mode.interpreted = before


class Intrinsic:
    """numba.extending.intrinsic(function), made when a kernel calling it is first compiled;
    `python` stands in for it in interpreted kernels."""

    def __init__(self, function, python: Callable):
        self.function = function
        self.python = python
        functools.update_wrapper(self, function)

    @functools.cached_property
    def _numba_type_(self):
        from numba.core.registry import cpu_target
        from numba.extending import intrinsic

        made = intrinsic(self.function)  # registers its typing globally
        context = cpu_target.typing_context
        context.refresh()
        return context.resolve_value_type(made)

    def __call__(self, *args):
        return self.python(*args)
