"""solver.threads: how many threads a solve may use; its tasks run at once, under the solve's budget."""

import os
import threading

import pytest

from solver import deadline, threads
from solver.search.budget import Budget


def test_the_thread_count_comes_from_the_environment_or_the_cores(monkeypatch):
    monkeypatch.setenv("PUZZLEHUB_SOLVE_THREADS", "3")
    assert threads.count() == 3
    monkeypatch.setenv("PUZZLEHUB_SOLVE_THREADS", "0")
    assert threads.count() == 1
    monkeypatch.setenv("PUZZLEHUB_SOLVE_THREADS", "many")
    with pytest.raises(ValueError, match="PUZZLEHUB_SOLVE_THREADS: a whole number"):
        threads.count()
    monkeypatch.delenv("PUZZLEHUB_SOLVE_THREADS")
    assert threads.count() == len(os.sched_getaffinity(0))


def test_tasks_run_at_once_on_other_threads_under_the_solves_budget():
    budget = Budget(time_limit=60)
    both = threading.Barrier(2, timeout=20)  # passed only when the two tasks run at the same time

    def task():
        both.wait()
        return threading.current_thread() is not threading.main_thread(), deadline.current() is budget

    with deadline.limit(budget), threads.pool(2) as pool:
        assert pool.threads == 2
        tasks = [pool.submit(task) for _ in range(2)]
    assert [t.result() for t in tasks] == [(True, True), (True, True)]


def test_one_thread_runs_each_task_when_submitted_on_the_callers_thread():
    ran = []

    def task(k):
        ran.append((k, threading.current_thread()))
        if k == 1:
            raise ValueError("this task failed")
        return k

    with threads.pool(1) as pool:
        first = pool.submit(task, 0)
        assert first.done() and first.result() == 0
        second = pool.submit(task, 1)
    assert ran == [(0, threading.current_thread()), (1, threading.current_thread())]
    with pytest.raises(ValueError, match="this task failed"):
        second.result()
