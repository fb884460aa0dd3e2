"""The threads one solve may run its independent searches on (a big cube's rotations, say).

The compiled kernels release the GIL, so two searches on two threads take two cores. Each task
runs in a copy of the caller's context, so it sees the solve's budget (solver.deadline) and is
stopped by its time limit and cancel as the caller is. PUZZLEHUB_SOLVE_THREADS sets how many
(default: the cores this process may run on); 1 runs every task on the caller's thread, in order.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager


def count() -> int:
    """How many threads a solve may use."""
    value = os.environ.get("PUZZLEHUB_SOLVE_THREADS", "").strip()
    if value:
        try:
            return max(1, int(value))
        except ValueError:
            raise ValueError(f"PUZZLEHUB_SOLVE_THREADS: a whole number of threads, got {value!r}") from None
    return max(1, len(os.sched_getaffinity(0)))


class _Inline:
    """count() == 1: a task runs when submitted, on the caller's thread."""
    threads = 1

    def submit(self, task: Callable, *args) -> Future:
        future: Future = Future()
        try:
            future.set_result(task(*args))
        except BaseException as error:  # noqa: BLE001 (handed to whoever reads the future, as a pool would)
            future.set_exception(error)
        return future


class _Pool:
    def __init__(self, executor: ThreadPoolExecutor, threads: int):
        self._executor = executor
        self.threads = threads

    def submit(self, task: Callable, *args) -> Future:
        # A context is entered by one thread at a time: each task its own copy, taken now.
        return self._executor.submit(contextvars.copy_context().run, task, *args)


@contextmanager
def pool(threads: int | None = None) -> Iterator[_Inline | _Pool]:
    """Something to `submit(task, *args)` to (a Future back), on `threads` (default count())
    threads, its `threads` the number; leaving the block waits for the tasks submitted."""
    threads = count() if threads is None else threads
    if threads <= 1:
        yield _Inline()
        return
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="solve") as executor:
        yield _Pool(executor, threads)
