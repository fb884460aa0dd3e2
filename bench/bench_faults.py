"""Faults while jobs run, on the production stack (`deploy/prod`) over private services
(bench/prodstack.py: a PostgreSQL cluster and a Redis server of its own, on other ports, so that
restarting them touches nobody else's):

    .venv/bin/python bench/bench_faults.py [--jobs 200]

N small solves (the 2x2x2) are submitted through the API, then, while they run: the solve worker's
main process is killed with SIGKILL (deploy/supervise starts it again), Redis is killed and started
again empty, PostgreSQL is stopped for a few seconds and started again, and gunicorn's master is
stopped (supervise starts it again). Every worker child is replaced after each job by its memory
limit (PUZZLEHUB_WORKER_MAX_MEMORY_MB=200, below a warmed child's size: Celery's
max-memory-per-child; the workers warm up first, so that a replaced child starts warm). A prober asks for a page and an API read ten times a second throughout.

Printed: how every job ended (succeeded with a solution replayed here, failed with its reason,
unfinished), how many finished transitions each job logged (exactly once: 1), and the prober's
answers by status, kind (JSON or not) and the fault under way. Goal (issue 16): every job ends
once, no 500, and while the database is down JSON errors only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from prodstack import Stack, wait  # noqa: E402

CUBE2_MOVES = ["U", "U'", "U2", "R", "R'", "R2", "F", "F'", "F2"]
FINISHED = {"succeeded", "failed", "cancelled"}


def request(url: str, *, data: dict | None = None, token: str = "") -> tuple[int, str, bytes]:
    body = None if data is None else json.dumps(data).encode()
    headers = {"Content-Type": "application/json"} if body else {}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=10) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()
    except OSError as error:  # refused while the web server restarts, or timed out
        return 0, type(error).__name__, b""


class Prober(threading.Thread):
    """A page and an API read, ten requests a second, each answer noted with the fault under way."""

    def __init__(self, base: str):
        super().__init__(daemon=True)
        self.base, self.fault, self.answers, self.running = base, "none", Counter(), True

    def run(self):
        paths = ["/puzzlehub/cube2/", "/api/repos/puzzlehub/cube2/"]
        while self.running:
            status, kind, body = request(self.base + random.choice(paths))
            is_json = "json" in kind
            if status >= 500 and not is_json and b"Traceback" in body:
                kind = "TRACEBACK"
            self.answers[self.fault, status, "json" if is_json else kind.split(";")[0]] += 1
            time.sleep(0.1)


def stack_processes(stack: Stack):
    for process in psutil.process_iter(["pid", "cmdline", "ppid"]):
        try:
            if os.getsid(process.pid) == stack.process.pid:
                yield process
        except (ProcessLookupError, psutil.Error):
            continue


def main_process(stack: Stack, marker: str) -> psutil.Process:
    """The stack's process whose command line holds `marker` and whose parent's does not (the
    celery main process or gunicorn master, under deploy/supervise)."""
    for process in stack_processes(stack):
        line = " ".join(process.info["cmdline"] or [])
        if marker in line and "supervise" not in line:
            parent = " ".join(psutil.Process(process.info["ppid"]).cmdline())
            if marker not in parent or "supervise" in parent:
                return process
    raise LookupError(marker)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=200)
    args = parser.parse_args()
    stack = Stack(name="puzzlehub-bench-faults", port=8392, redis_port=6393, postgres_port=5441, env={
        "PUZZLEHUB_JOB_QUOTA": "1000000", "PUZZLEHUB_WRITE_RATE": "1000000/min", "LOG_LEVEL": "INFO",
        "PUZZLEHUB_WORKER_MAX_MEMORY_MB": "200", "PUZZLEHUB_JOB_LEASE": "10", "PUZZLEHUB_JOB_HEARTBEAT": "1",
        "PUZZLEHUB_DISCOVER_NEW_PUZZLES": "0", "WEB_CONCURRENCY": "3",
        # children replaced after every job fork from a warmed worker: without the warm-up each
        # would load the solver's tables and kernels again (200 jobs took over 6 minutes so)
        "PUZZLEHUB_WORKER_WARM_UP": "1",
    })
    stack.start()
    try:
        stack.django()
        from puzzlehub.accounts import services as accounts
        from puzzlehub.jobs.models import Job
        from puzzlehub.repos.models import Repository
        from puzzlehub.repos.selectors import get_revision
        from puzzlehub.jobs.selectors import definition_of
        from solver import api as solver_api

        token = accounts.api_token(user=accounts.create_user(username="faults", email="f@example.org",
                                                             password="pw-" + "x" * 12))
        status, _, body = request(f"{stack.url}/api/repos/puzzlehub/cube2/solves/", data={"scramble": "R U"}, token=token)
        first = json.loads(body)["id"]
        wait(lambda: Job.objects.get(id=first).finished, 900, every=0.5)  # the workers are warm
        Job.objects.filter(id=first).delete()

        prober = Prober(stack.url)
        prober.start()
        started = time.monotonic()
        ids = []
        for _ in range(args.jobs):
            scramble = " ".join(random.choice(CUBE2_MOVES) for _ in range(random.randint(6, 11)))
            status, _, body = request(f"{stack.url}/api/repos/puzzlehub/cube2/solves/", data={"scramble": scramble},
                                      token=token)
            assert status == 202, (status, body[:300])
            ids.append(json.loads(body)["id"])
        print(f"{len(ids)} solves submitted in {time.monotonic() - started:.1f} s; "
              f"{Job.objects.filter(id__in=ids, status='queued').count()} still queued")

        def fault(name: str, action, settle: float):
            prober.fault = name
            at = time.monotonic() - started
            action()
            time.sleep(settle)
            print(f"  {at:5.1f} s  {name}  (load average {os.getloadavg()[0]:.1f})")

        fault("solve worker SIGKILL", lambda: main_process(stack, "solve@").send_signal(signal.SIGKILL), 3)
        fault("redis restarted empty", lambda: (stack.redis.stop(signal.SIGKILL), time.sleep(1), stack.redis.start()), 5)

        def database_down():
            stack.postgres.stop("fast")
            prober.fault = "database down"
            time.sleep(4)
            stack.postgres.start()
            prober.fault = "database back"
        fault("database restart", database_down, 5)
        fault("web server restart", lambda: main_process(stack, "gunicorn").send_signal(signal.SIGTERM), 5)
        prober.fault = "after"

        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                if not Job.objects.filter(id__in=ids).exclude(status__in=FINISHED).exists():
                    break
            except Exception:  # this process's connection did not survive the restart
                from django.db import connection
                connection.close()
            time.sleep(1)
        took = time.monotonic() - started
        prober.running = False
        prober.join()

        jobs = list(Job.objects.filter(id__in=ids))
        cube2 = definition_of(get_revision(repository=Repository.objects.get(owner__username="puzzlehub", name="cube2"),
                                           number=None))
        outcome = Counter()
        for job in jobs:
            if job.status == "succeeded":
                start = tuple(job.options["state"])
                replayed = solver_api.apply_moves(cube2, job.result["solution"], start) in cube2.goal_set
                outcome["succeeded, replays" if replayed else "succeeded, DOES NOT REPLAY"] += 1
            elif job.status == "failed":
                outcome[f"failed: {job.error[:80]}"] += 1
            else:
                outcome[f"unfinished ({job.status})"] += 1
        ends = Counter()
        for line in stack.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and '"puzzlehub.jobs.transitions"' in line:
                entry = json.loads(line)
                if entry.get("to") in FINISHED and entry.get("job_id") in set(ids):
                    ends[entry["job_id"]] += 1
        print(f"\nall {len(ids)} jobs ended {took:.0f} s after the first submission (load average "
              f"{os.getloadavg()[0]:.1f})" if not any(k.startswith("unfinished") for k in outcome) else
              f"\njobs NOT all finished {took:.0f} s after the first submission")
        for what, n in outcome.most_common():
            print(f"  {n:4} {what}")
        print(f"  attempts: {dict(sorted(Counter(job.attempts for job in jobs).items()))}")
        print(f"  finished transitions logged per job: {dict(sorted(Counter(ends[i] for i in ids).items()))} "
              f"(exactly once: all 1)")
        print("\nprober answers (fault under way, status, kind): count; status 0 = no connection")
        for (fault_name, status, kind), n in sorted(prober.answers.items()):
            print(f"  {fault_name:<22} {status:>3} {kind:<24} {n}")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
