"""Waiting for jobs in tests that run real workers, and the scrambles and puzzles they solve."""

import time

from puzzlehub.jobs.models import Job

# scrambles of the 3x3x3 from the catalog, with how long the bidirectional search (method bidir) takes here
MEDIUM = "D' U2 L2 D B F2 B F L D B"  # about 7 s, 9 moves back
HARD = "R' D' F U' U2 B2 D R2 U' B' L U' U2 F' F' U2"  # far beyond any test's time limit

# two rings of three sharing one sticker: tiny, analysed and solved at once
LITTLE_RINGS = """\
format: puzzlehub/1
name: little-rings
moves:
  - {name: A, cycles: [[0, 1, 2]]}
  - {name: B, cycles: [[2, 3, 4]]}
goal: WWRRR
"""


# how long tests wait for a worker by default: far more than a small job needs, so that a loaded
# machine (CI shares two cores) slows a test down rather than failing it
WAIT = 90.0


def wait_for(predicate, timeout: float = WAIT, every: float = 0.05):
    """Poll until `predicate()` returns something true; that value, or AssertionError on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {timeout} s")
        time.sleep(every)


def job_when(job_id: int, condition, timeout: float = WAIT) -> Job:
    """The job once `condition(job)` holds."""
    def check():
        job = Job.objects.get(id=job_id)
        return job if condition(job) else None
    return wait_for(check, timeout)


def finished(job_id: int, timeout: float = WAIT) -> Job:
    return job_when(job_id, lambda job: job.finished, timeout)
