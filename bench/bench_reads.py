"""Requests per second and latency of each read the load bench makes (bench_load: pages and API
reads), on the production stack (bench/prodstack.py), against a baseline served beside it in the
same run: the same code with the anonymous cache off (PUZZLEHUB_ANONYMOUS_CACHE_SECONDS=0), or the
code of another checkout (--baseline-tree, e.g. a worktree of main). Figures, not pass/fail.

    .venv/bin/python bench/bench_reads.py [--seconds 4] [--clients 8] [--rounds 2] [--baseline-tree DIR]

Each route is loaded by CLIENTS threads, each sending its next request as soon as the last one is
answered (keep-alive, no cookies: an anonymous reader), for SECONDS, first on the baseline then on
this code, ROUNDS times alternately (the machine is shared: alternating spreads its load over both).
Printed per route: requests/s, p50 and p99 on each and the ratios; the server's median CPU ms per
answer (Server-Timing: what the latency is made of besides waiting for a core on a shared machine);
the SQL queries of one request (a DEBUG process on the stack's database, the cache off); the load
average.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prodstack import PAGES, READS, ROOT, Stack, wait  # noqa: E402


def load(port: int, path: str, clients: int, seconds: float) -> tuple[float, list[float], int, list[float]]:
    """Requests per second, latencies (s), failed answers and the server's CPU ms per answer
    (Server-Timing) of `clients` closed-loop readers."""
    latencies: list[float] = []
    cpu: list[float] = []
    failed = [0]
    stop = time.monotonic() + seconds

    def reader():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                conn.request("GET", path)
                answer = conn.getresponse()
                answer.read()
                ok = answer.status == 200
                cpu.append(float((answer.getheader("Server-Timing") or "cpu;dur=0").split("dur=")[1]))
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok = False
            latencies.append(time.perf_counter() - started)
            failed[0] += not ok
        conn.close()

    threads = [threading.Thread(target=reader) for _ in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies) / (time.monotonic() - started), latencies, failed[0], cpu


def queries_per_request(stack: Stack, paths: list[str]) -> dict[str, int]:
    stack.django()
    import logging

    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = ["*"]
    settings.ANONYMOUS_CACHE_SECONDS = 0
    logging.disable(logging.INFO)  # the request lines of this process
    client, counts = Client(), {}
    for path in paths:
        client.get(path)
        with CaptureQueriesContext(connection) as captured:
            client.get(path)
        counts[path] = len(captured.captured_queries)
    return counts


def start_baseline(stack: Stack, port: int, tree: Path | None) -> subprocess.Popen:
    """A second gunicorn on the stack's database and Redis: `tree`'s code, else this code with the
    anonymous cache off."""
    env = dict(stack.env, PORT=str(port), DEBUG="0", PUZZLEHUB_HTTPS="0",
               SECRET_KEY=(Path(stack.env["PUZZLEHUB_VAR"]) / "prod-secret-key").read_text().strip())
    if tree is None:
        env["PUZZLEHUB_ANONYMOUS_CACHE_SECONDS"] = "0"
    folder = tree or ROOT
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(folder / "deploy" / "gunicorn.conf.py"),
                                "puzzlehub.wsgi"], cwd=folder, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    wait(lambda: _answers(port), 120, every=0.5)
    return process


def _answers(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False


def ms(latencies: list[float], q: float) -> float:
    return 1000 * statistics.quantiles(latencies, n=100)[int(q * 100) - 1] if len(latencies) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline-tree", type=Path, help="a checkout whose code is the baseline")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_READS_PORT", "8393")))
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT", "6393")))
    args = parser.parse_args()
    stack = Stack(name="puzzlehub-bench-reads", port=args.port, redis_port=args.redis_port)
    stack.start()
    baseline = None
    try:
        baseline = start_baseline(stack, args.port + 1, args.baseline_tree)
        queries = queries_per_request(stack, PAGES + READS)
        what = f"the code in {args.baseline_tree}" if args.baseline_tree else "this code, anonymous cache off"
        print(f"baseline: {what}; {args.clients} closed-loop anonymous readers per route, {args.seconds:g} s x "
              f"{args.rounds} rounds each; load average {os.getloadavg()[0]:.1f} at the start (2 cores, shared)")
        print(f"  {'route':<40} {'queries':>7} {'base rps':>9} {'rps':>7} {'ratio':>6} {'base p50':>9} {'p50':>6} "
              f"{'base p99':>9} {'p99':>6} {'ratio':>6} {'base cpu':>8} {'cpu':>4} {'failed':>6}")
        for path in PAGES + READS:
            runs = {"base": ([], 0.0, 0, []), "this": ([], 0.0, 0, [])}
            for _ in range(args.rounds):
                for name, port in (("base", args.port + 1), ("this", args.port)):
                    rate, latencies, failed, cpu = load(port, path, args.clients, args.seconds)
                    seen, total, bad, spent = runs[name]
                    runs[name] = (seen + latencies, total + rate / args.rounds, bad + failed, spent + cpu)
            (base, base_rate, base_failed, base_cpu), (this, rate, failed, cpu) = runs["base"], runs["this"]
            print(f"  {path:<40} {queries[path]:>7} {base_rate:>9.0f} {rate:>7.0f} {rate / base_rate:>6.1f} "
                  f"{ms(base, .5):>9.0f} {ms(this, .5):>6.0f} {ms(base, .99):>9.0f} {ms(this, .99):>6.0f} "
                  f"{ms(base, .99) / max(ms(this, .99), 0.1):>6.1f} {statistics.median(base_cpu or [0]):>8.1f} "
                  f"{statistics.median(cpu or [0]):>4.1f} {base_failed + failed:>6}")
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        if baseline is not None:
            os.killpg(baseline.pid, 15)
            baseline.wait()
        stack.stop()


if __name__ == "__main__":
    main()
