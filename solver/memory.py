"""What a long-lived process (a worker) does between jobs so that its resident memory stays flat.

A solve's transient tables (search frontiers, dictionaries of states, numpy work arrays) are freed
when it ends, but the C allocator keeps freed pages inside its heap: measured over 1,000 solves of
200 puzzles (bench/bench_worker_memory.py), live memory stayed flat while the allocator's free
pages, and the process's resident size with them, grew with every larger solve. Handing them back
after each job keeps resident memory at what is live. The process caches are bounded on their own
(solver.recent).
"""

from __future__ import annotations

import ctypes
import ctypes.util

_libc = None


def _malloc_trim():
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        library = ctypes.CDLL(name) if name else None
        _libc = getattr(library, "malloc_trim", False)  # glibc only; elsewhere nothing to do
    return _libc


def give_back() -> None:
    """Return the allocator's free pages to the system (glibc's malloc_trim; a millisecond or so)."""
    trim = _malloc_trim()
    if trim:
        trim(0)
