"""Load on the production stack (`deploy/prod` on private services, bench/prodstack.py) from locust:
pages, API reads, API writes (stars) and solve submissions mixed, at fixed request rates for a
bounded time each, every request to 127.0.0.1.

    .venv/bin/python bench/bench_load.py [--rates 50,200,500] [--seconds 20]

Each rate: as many locust users as requests per second, each sending a request a second on average
at independent random times (Poisson arrivals, as from visitors), so the rate is offered whatever the
answers' latency (up to about 1 s). Printed per
rate and per kind of request: requests, errors, achieved rate, p50 and p99 latency; the load average
of the machine beside it, and the CPU each program of the stack used (the machine has 2 cores, shared:
locust runs on them too). Goals
(issue 16): 0 errors and p99 < 200 ms for reads at 200 rps. Figures, not pass/fail.
"""

from __future__ import annotations

import locust  # noqa: I001  (first: it patches the standard library for gevent)
from locust import FastHttpUser, task
from locust.env import Environment

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from prodstack import PAGES, READS, Stack, wait  # noqa: E402

CUBE2_MOVES = ["U", "U'", "U2", "R", "R'", "R2", "F", "F'", "F2"]
TOKENS: list[str] = []


def scramble() -> str:
    return " ".join(random.choice(CUBE2_MOVES) for _ in range(random.randint(3, 9)))


class Visitor(FastHttpUser):
    """Four requests in ten: a page; four: an API read; one: a star or unstar; one: a solve."""

    def on_start(self):
        self.headers = {"Authorization": f"Token {random.choice(TOKENS)}"}
        self.due = time.monotonic() + random.expovariate(1.0)

    def wait_time(self) -> float:
        """Poisson arrivals, one a second on average, whatever the answers' latency (up to about a
        second): the users' requests are independent, as visitors' are. (Locust's constant_throughput
        keeps the phases its spawning gives, batches of users in step: at 200 rps the same reads
        took p50 110 ms from locust where a client of evenly spread requests saw 2.4 ms.)"""
        self.due += random.expovariate(1.0)
        return max(0.0, self.due - time.monotonic())

    @task(4)
    def page(self):
        path = random.choice(PAGES)
        self.client.get(path, name=f"page {path}")

    @task(4)
    def read(self):
        path = random.choice(READS)
        self.client.get(path, name=f"read {path}")

    @task(1)
    def write(self):
        method = random.choice(["PUT", "DELETE"])
        self.client.request(method, "/api/repos/puzzlehub/cube3/star/", headers=self.headers, name="write star")

    @task(1)
    def solve(self):
        self.client.post("/api/repos/puzzlehub/cube2/solves/", json={"scramble": scramble()}, headers=self.headers,
                         name="solve submit")


def kind(name: str) -> str:
    return name.split(" ", 1)[0]


def run_rate(stack: Stack, rate: int, seconds: float) -> dict:
    env = Environment(user_classes=[Visitor], host=stack.url, events=locust.events)
    runner = env.create_local_runner()
    runner.start(rate, spawn_rate=max(rate / 2, 1))
    time.sleep(3)  # users spawned and settled
    env.stats.reset_all()
    started, cpu_before, own_before = time.monotonic(), stack.cpu_seconds(), time.process_time()
    time.sleep(seconds)
    took = time.monotonic() - started
    cpu = stack.cpu_used(cpu_before)
    cpu["locust"] = time.process_time() - own_before
    by_kind: dict[str, list] = {}
    for entry in env.stats.entries.values():
        by_kind.setdefault(kind(entry.name), []).append(entry)
    runner.quit()
    rows = {}
    for name, entries in sorted(by_kind.items()):
        merged = locust.stats.StatsEntry(env.stats, name, "")
        for entry in entries:
            merged.extend(entry)
        rows[name] = merged
    total = env.stats.total
    rows["all"] = total
    return {"took": took, "rows": rows, "load": os.getloadavg()[0], "cpu": cpu,
            "errors": {f"{e.method} {e.name}: {e.error}": e.occurrences for e in env.stats.errors.values()}}


# each kind of request of the Visitor: (method, path, body, authenticated) of its i-th request
KINDS = {
    "page": lambda i: ("GET", PAGES[i % len(PAGES)], None, False),
    "read": lambda i: ("GET", READS[i % len(READS)], None, False),
    "write": lambda i: ("PUT" if i % 2 else "DELETE", "/api/repos/puzzlehub/cube3/star/", None, True),
    "solve": lambda i: ("POST", "/api/repos/puzzlehub/cube2/solves/", {"scramble": scramble()}, True),
}


def send_each(port: int, kind: str, count: int, clients: int = 2) -> int:
    """Send `count` requests of `kind`, `clients` at a time one after the other; the answers that
    were not 2xx."""
    failed, lock, next_index = [0], threading.Lock(), iter(range(count))

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                break
            method, path, body, authenticated = KINDS[kind](i)
            headers = {"Authorization": f"Token {TOKENS[i % len(TOKENS)]}"} if authenticated else {}
            if body is not None:
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            answer = conn.getresponse()
            answer.read()
            failed[0] += not 200 <= answer.status < 300
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failed[0]


def cpu_by_kind(stack: Stack, count: int) -> dict[str, tuple[dict[str, float], int]]:
    """CPU ms per request of each kind by program, less the stack's idle use; and the failures.
    A quarter as many of each kind first: every web process and worker child has met each kind
    (templates loaded, kernels compiled), as in a site that has been up a while."""
    for kind in KINDS:
        send_each(stack.port, kind, count // 4)
    wait(lambda: not {"queued", "running"} & set(jobs_summary()), 300, every=0.5)
    before, started = stack.cpu_seconds(), time.monotonic()
    time.sleep(5)
    idle = {name: used / (time.monotonic() - started) for name, used in stack.cpu_used(before).items()}
    figures = {}
    for kind in KINDS:
        before, started = stack.cpu_seconds(), time.monotonic()
        failed = send_each(stack.port, kind, count)
        if kind == "solve":
            wait(lambda: not {"queued", "running"} & set(jobs_summary()), 300, every=0.5)
        took = time.monotonic() - started
        used = stack.cpu_used(before)
        figures[kind] = ({name: 1000 * max(0.0, seconds - idle.get(name, 0.0) * took) / count
                          for name, seconds in used.items()}, failed)
    return figures


def make_users(stack: Stack, count: int) -> list[str]:
    stack.django()
    from puzzlehub.accounts import services as accounts

    return [accounts.api_token(user=accounts.create_user(username=f"load{i}", email=f"load{i}@example.org",
                                                         password="pw-" + "x" * 12)) for i in range(count)]


def wait_for_workers(stack: Stack) -> float:
    """Seconds until a solve worker answers (after its warm-up: workers.warm)."""
    from puzzlehub.jobs import services
    from puzzlehub.jobs.models import Job
    from puzzlehub.repos.models import Repository

    started = time.monotonic()
    user = Job._meta.get_field("user").related_model.objects.get(username="load0")
    job = services.submit_solve(user=user, repository=Repository.objects.get(owner__username="puzzlehub", name="cube2"),
                                scramble="R U")
    wait(lambda: Job.objects.get(id=job.id).finished, 900, every=0.5)
    return time.monotonic() - started


def jobs_summary(everyone: bool = False) -> dict:
    """The load's jobs by status (`everyone`: the catalog's own too) and why those that failed did."""
    from django.db.models import Count

    from puzzlehub.jobs.models import Job
    jobs = Job.objects.all() if everyone else Job.objects.filter(user__username__startswith="load")
    summary = dict(jobs.values_list("status").annotate(n=Count("id")))
    return summary | {"why failed": sorted({error[:100] for error in jobs.filter(status=Job.FAILED).values_list(
        "error", flat=True)})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rates", default="50,200,500")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--cpu-requests", type=int, default=300, help="of each kind for the CPU figures; 0: none")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_LOAD_PORT", "8391")))
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT", "6392")))
    args = parser.parse_args()
    stack = Stack(name="puzzlehub-bench-load", port=args.port, redis_port=args.redis_port, env={
        "PUZZLEHUB_JOB_QUOTA": "1000000", "PUZZLEHUB_WRITE_RATE": "1000000/min",
    })
    started = time.monotonic()
    stack.start()
    try:
        TOKENS.extend(make_users(stack, 50))
        warm = wait_for_workers(stack)
        # the catalog's own first discovery runs and set builds (publish_catalog) end before anything
        # is measured: a fresh install's work, not the load's
        wait(lambda: not {"queued", "running"} & set(jobs_summary(everyone=True)), 600, every=1)
        print(f"stack up in {time.monotonic() - started:.0f} s (workers answered {warm:.0f} s after the site): gunicorn "
              f"{stack.env.get('WEB_CONCURRENCY') or '2 per core + 1'} processes, workers solve x2, pdb, discover, beat")
        if args.cpu_requests:
            figures = cpu_by_kind(stack, args.cpu_requests)
            print(f"\nCPU ms per request by kind, {args.cpu_requests} of each (load average {os.getloadavg()[0]:.1f})")
            for kind, (used, failed) in figures.items():
                spent = ", ".join(f"{name} {ms:.2f}" for name, ms in sorted(used.items(), key=lambda item: -item[1])
                                  if ms >= 0.005)
                print(f"  {kind:<6} total {sum(used.values()):6.2f}: {spent}" + (f" ({failed} failed)" if failed else ""))
        for rate in (int(r) for r in args.rates.split(",") if r):
            result = run_rate(stack, rate, args.seconds)
            print(f"\n{rate} rps offered for {result['took']:.0f} s (load average {result['load']:.1f} at the end)")
            print(f"  {'kind':<8} {'requests':>9} {'errors':>7} {'rps':>7} {'p50 ms':>7} {'p99 ms':>7}")
            for name, row in result["rows"].items():
                print(f"  {name:<8} {row.num_requests:>9} {row.num_failures:>7} {row.num_requests / result['took']:>7.1f} "
                      f"{row.get_response_time_percentile(0.5) or 0:>7.0f} {row.get_response_time_percentile(0.99) or 0:>7.0f}")
            share = ", ".join(f"{name} {used / result['took']:.2f}" for name, used in
                              sorted(result["cpu"].items(), key=lambda item: -item[1]))
            print(f"  cores busy, by program (CPU seconds a second): {share}")
            for error, n in list(result["errors"].items())[:5]:
                print(f"    {n} x {error}"[:200])
        deadline = time.monotonic() + 30
        wait(lambda: jobs_summary().get("queued", 0) == 0 or time.monotonic() > deadline, 60, every=1)
        print(f"\nsolve jobs submitted by the load, 30 s after it: {jobs_summary()}")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
