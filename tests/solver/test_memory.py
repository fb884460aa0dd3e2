"""A long-lived worker hands the memory a finished job freed back to the system (solver.memory):
without it, the C allocator keeps the freed pages and the process's resident size only grows
(bench/bench_worker_memory.py measures it over 1,000 solves)."""

import ctypes.util
import resource

import pytest

from solver import memory

pytestmark = pytest.mark.skipif(not ctypes.util.find_library("c") or not memory._malloc_trim(),
                                reason="the C allocator is not glibc's")


def resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def test_the_pages_a_job_freed_go_back_to_the_system():
    # what a solve leaves behind: many medium blocks (dictionary tables, work arrays) freed, with
    # something still alive after them, so that the heap cannot simply shrink from its top
    blocks = [bytearray(100_000) for _ in range(1000)]  # 100 MB of heap, every page touched
    survivor = bytearray(100_000)
    del blocks
    kept = resident_bytes()
    memory.give_back()
    assert kept - resident_bytes() > 50 * 2**20, (kept, resident_bytes())
    assert len(survivor) == 100_000


def test_the_specialized_tables_a_process_keeps_open_are_the_recent_ones(monkeypatch, tmp_path):
    import numpy as np

    from solver.recent import REMEMBERED
    from solver.special import store

    monkeypatch.setenv("PUZZLEHUB_CACHE", str(tmp_path))
    for k in range(REMEMBERED + 10):
        store.save("test", f"t{k}", {"k": k}, np.arange(k + 1, dtype=np.int64))
        assert (store.load("test", f"t{k}", {"k": k}) == np.arange(k + 1)).all()
    assert len(store._loaded) <= REMEMBERED
