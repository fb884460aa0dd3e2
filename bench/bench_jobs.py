"""Jobs benchmark: the site and two Celery worker processes against real PostgreSQL and Redis.

    PYTHONPATH=. python bench/bench_jobs.py [--jobs 300]

Uses the PostgreSQL server at BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432), database
puzzlehub_bench_jobs (created, and dropped at the end), and a private Redis server it starts on port BENCH_REDIS_PORT
(default 6390, no persistence) so that it can restart it. Jobs are submitted through the REST API
in this process (validation, commit, dispatch), as the web server would; solves use the plain
bidirectional search, so that the figures are the jobs system's, not a solver's. Figures, not pass/fail:

  latency   submit -> running for a small solve, idle workers (median goal < 100 ms)
  throughput  small solves per second end to end, submit to finished (goal >= 50/s)
  sigkill   a worker killed with SIGKILL mid-job: the job finishes on the other worker, one result
  redis     Redis restarted (no persistence) with jobs queued: all of them finish
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "puzzlehub_bench_jobs"
REDIS_PORT = int(os.environ.get("BENCH_REDIS_PORT", "6390"))
REDIS_URL = f"redis://127.0.0.1:{REDIS_PORT}/0"
TMP = Path(tempfile.mkdtemp(prefix="bench-jobs-"))
JOB_ENV = {
    "DATABASE_URL": f"{POSTGRES}/{DATABASE}", "CELERY_BROKER_URL": REDIS_URL, "PUZZLEHUB_VAR": str(TMP / "var"),
    # the workers' local cache outlives a run, as on a real machine: their warm-up (workers.warm)
    # builds the solver's tables once, not at every run
    "PUZZLEHUB_CACHE": os.environ.get("BENCH_CACHE", "/tmp/puzzlehub-bench-cache"), "PUZZLEHUB_JOB_LEASE": "3", "PUZZLEHUB_JOB_HEARTBEAT": "0.5",
    "PUZZLEHUB_JOB_REDISPATCH": "2", "PUZZLEHUB_JANITOR_EVERY": "1", "PUZZLEHUB_JOB_QUOTA": "100000",
    "PUZZLEHUB_WRITE_RATE": "1000000/min", "DEBUG": "1", "LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "testserver",
}
os.environ.update(JOB_ENV)
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba-puzzlehub-bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")
sys.path.insert(0, str(ROOT))

from prodstack import Redis, admin, wait  # noqa: E402  (bench/ is on the path of a bench script)


def recreate_database() -> None:
    admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)", f"CREATE DATABASE {DATABASE}")


def drop_database() -> None:
    admin(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


class Celery:
    """A worker process (one pool child) for every queue, or the beat process running the janitor."""

    def __init__(self, name: str):
        self.name, self.process = name, None

    def start(self):
        log = TMP / f"{self.name}.log"
        if self.name == "beat":
            args = ["beat", "-s", str(TMP / "beat-schedule"), "--loglevel=INFO"]
            ready = b"beat: Starting"
        else:
            args = ["worker", "-Q", "solve,pdb,discover", "-c", "1", "-n", f"{self.name}@%h", "--without-gossip",
                    "--without-mingle", "--loglevel=INFO"]
            ready = b" ready."
        with open(log, "ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers", *args], cwd=ROOT,
                                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        wait(lambda: ready in log.read_bytes() or self._died(log), 600)  # the first warm-up builds tables

    def _died(self, log: Path) -> bool:
        """A process that ended before it was ready stops the bench with its log's end (rather than
        a silent wait for the warm-up's whole allowance)."""
        if self.process.poll() is None:
            return False
        tail = log.read_bytes().decode(errors="replace").strip().splitlines()[-15:]
        raise SystemExit(f"{self.name} exited with {self.process.returncode} before it was ready:\n" + "\n".join(tail))

    def owns(self, pid: int) -> bool:
        try:
            return os.getpgid(pid) == self.process.pid
        except ProcessLookupError:
            return False

    def kill(self, sig=signal.SIGKILL):
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass
        self.process.wait()


def submit_chunk(work: tuple[str, list[list[str]]]) -> list[int]:
    """One client process: submit its scrambles through the API, one after another."""
    from django.db import connections
    from rest_framework.test import APIClient

    token, chunk = work
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    ids = []
    for moves in chunk:
        response = client.post("/api/repos/bench/cube/solves/", {"scramble": " ".join(moves), "method": "bidir"},
                               format="json")
        assert response.status_code == 202, response.content[:500]
        ids.append(response.json()["id"])
    connections.close_all()
    return ids


def line(name: str, value: float, goal: float, unit: str, higher_is_better: bool) -> None:
    ratio = value / goal if higher_is_better else goal / value if value else float("inf")
    sign = ">=" if higher_is_better else "<"
    print(f"{name:<44} {value:10.1f} {unit:<8} goal {sign} {goal:g} {unit:<8} ratio {ratio:5.2f}"
          f" {'ok' if ratio >= 1 else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=300, help="small solves for the throughput figure")
    parser.add_argument("--clients", type=int, default=4, help="concurrent submitting clients (users)")
    parser.add_argument("--samples", type=int, default=60, help="solves for the latency figure")
    args = parser.parse_args()

    recreate_database()
    redis = Redis(REDIS_PORT, TMP)
    redis.start()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from rest_framework.test import APIClient

    from puzzlehub.accounts import services as accounts
    from puzzlehub.jobs.models import Job
    from puzzlehub.repos import services as repos
    from solver import api as solver_api

    call_command("migrate", verbosity=0)
    user = accounts.create_user(username="bench", email="bench@example.org", password="bench-" + "x" * 12)
    defn = solver_api.load("cube3")
    repo = repos.create_repository(owner=user, name="cube", definition=solver_api.export_yaml(defn))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.api_token(user=user)}")
    rng = random.Random(1)
    used = set()

    def small_scramble() -> list[str]:
        while True:  # a state not solved before, so that no answer comes from the stored results
            moves = [rng.choice(defn.move_names) for _ in range(4)]
            state = solver_api.apply_moves(defn, moves)
            if state not in used and state != defn.goal:
                used.add(state)
                return moves

    def submit(moves, **extra) -> int:
        response = client.post("/api/repos/bench/cube/solves/", {"scramble": " ".join(moves), "method": "bidir", **extra},
                               format="json")
        assert response.status_code == 202, response.content[:500]
        return response.json()["id"]

    def finished(ids) -> bool:
        return Job.objects.filter(id__in=ids, status__in=Job.FINISHED).count() == len(ids)

    workers = [Celery("w1"), Celery("w2")]
    processes = [*workers, Celery("beat")]
    for p in processes:
        p.start()
    try:
        # warm up: both workers load the definition and compile what they compile
        warm = [submit(small_scramble()) for _ in range(6)]
        wait(lambda: finished(warm), 120)

        print(f"PuzzleHub jobs benchmark: 2 worker processes, PostgreSQL {DATABASE}, Redis :{REDIS_PORT}; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        latencies = []
        for _ in range(args.samples):
            job_id = submit(small_scramble())
            wait(lambda: finished([job_id]), 30, every=0.005)
            job = Job.objects.get(id=job_id)
            latencies.append((job.started_at - job.created_at).total_seconds() * 1000)
        line("latency submit -> running, median", statistics.median(latencies), 100, "ms", False)
        print(f"  (p90 {sorted(latencies)[int(0.9 * len(latencies))]:.1f} ms, max {max(latencies):.1f} ms, n={len(latencies)})")

        # several clients at once, each in its own process, as a web server with several processes
        # would take them
        # (one user per client: a user's submissions are serialized by the quota check)
        tokens = [accounts.api_token(user=accounts.create_user(
            username=f"client{k}", email=f"client{k}@example.org", password="bench-" + "x" * 12))
            for k in range(args.clients)]
        scrambles = [small_scramble() for _ in range(args.jobs)]
        chunks = [(tokens[k], scrambles[k::args.clients]) for k in range(args.clients)]
        connections.close_all()  # the forked clients open their own
        started = time.monotonic()
        with multiprocessing.get_context("fork").Pool(args.clients) as pool:
            ids = [i for chunk_ids in pool.map(submit_chunk, chunks) for i in chunk_ids]
        submitted = time.monotonic() - started
        wait(lambda: finished(ids), 600, every=0.05)
        elapsed = time.monotonic() - started
        ok = Job.objects.filter(id__in=ids, status=Job.SUCCEEDED, result__verified=True).count()
        line("throughput, small solves end to end", len(ids) / elapsed, 50, "jobs/s", True)
        print(f"  ({len(ids)} jobs from {args.clients} clients, {ok} succeeded and verified, submitted at {len(ids) / submitted:.0f}/s, "
              f"all finished after {elapsed:.2f} s)")

        # SIGKILL a worker in the middle of a job of about a second
        job_id = submit(["D'", "U2", "L2", "D", "B", "F2", "B", "F", "L", "D"], time_limit=60)
        wait(lambda: Job.objects.filter(id=job_id, status=Job.RUNNING).exists(), 30)
        first = Job.objects.get(id=job_id)
        pid = int(first.worker.rsplit(":", 1)[1])
        victim = next(w for w in workers if w.owns(pid))
        killed = time.monotonic()
        victim.kill()
        wait(lambda: finished([job_id]), 120, every=0.05)
        recovery = time.monotonic() - killed
        job = Job.objects.get(id=job_id)
        stored = Job.objects.filter(id=job_id, status=Job.SUCCEEDED, result__verified=True).count()
        print(f"{'sigkill: worker killed mid-job':<44} {job.status} on the other worker "
              f"({job.worker != first.worker}), attempts {job.attempts}, results stored {stored} "
              f"(goal: succeeded, 1 result) {'ok' if job.status == Job.SUCCEEDED and stored == 1 else 'MISSED'}")
        print(f"  (finished {recovery:.1f} s after the kill: lease 3 s + janitor every 1 s + the solve again)")
        victim.start()  # its supervisor (systemd, deploy/supervise) would start it again

        # Redis restarted (no persistence) with jobs waiting in it
        ids = [submit(["D'", "U2", "L2", "D", "B", "F2", "B"] + small_scramble()[:2], time_limit=60) for _ in range(20)]
        waiting = Job.objects.filter(id__in=ids, status=Job.QUEUED).count()
        redis.stop()
        redis.start()
        restarted = time.monotonic()
        wait(lambda: finished(ids), 300, every=0.05)
        done = Job.objects.filter(id__in=ids, status=Job.SUCCEEDED, result__verified=True).count()
        print(f"{'redis restarted with ' + str(waiting) + ' jobs queued':<44} {done}/{len(ids)} finished "
              f"(goal: all) {'ok' if done == len(ids) else 'MISSED'}")
        print(f"  (all finished {time.monotonic() - restarted:.1f} s after the restart)")
    finally:
        for p in processes:
            if p.process and p.process.poll() is None:
                p.kill(signal.SIGTERM)
        redis.stop()
        connections.close_all()
        drop_database()
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
