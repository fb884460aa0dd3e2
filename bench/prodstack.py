"""The production stack (`deploy/prod`: gunicorn, a Celery worker per queue, beat) for the benches,
on private services so that they can be loaded, broken and restarted without touching the
machine's own: a database of its own on the local PostgreSQL (created, dropped at the end) and a
Redis server of its own on another port (no persistence: a restart loses what it held); or a
PostgreSQL cluster of its own in /tmp on another port, to restart it.

Environment: BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432), BENCH_CACHE (the workers'
table cache, kept between runs), NUMBA_CACHE_DIR.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
# the reads of the load benches (bench_load, bench_reads) on the stack's catalog (cube2, cube3)
PAGES = ["/", "/puzzlehub/cube3/", "/puzzlehub/cube2/", "/puzzlehub/", "/?q=cube"]
READS = ["/api/repos/", "/api/repos/puzzlehub/cube3/", "/api/repos/puzzlehub/cube2/algorithms/",
         "/api/repos/puzzlehub/cube2/revisions/"]


def wait(predicate, timeout: float, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up after {timeout} s")
        time.sleep(every)


def admin(*statements: str, url: str = f"{POSTGRES}/postgres") -> None:
    import psycopg2

    conn = psycopg2.connect(url)
    conn.autocommit = True
    with conn.cursor() as cur:
        for statement in statements:
            cur.execute(statement)
    conn.close()


class Redis:
    """A private Redis server without persistence."""

    def __init__(self, port: int, folder: Path):
        self.port, self.folder, self.process = port, folder, None

    def ping(self) -> bool:
        return subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                              text=True).stdout.strip() == "PONG"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(self.ping, 10)

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        self.process.wait()


class Postgres:
    """A private PostgreSQL cluster in a folder of its own, run as the postgres user on `port`, so
    that it can be stopped and started (trust authentication on loopback only)."""

    def __init__(self, port: int, folder: Path):
        self.port, self.folder = port, folder / "pg"
        self.url = f"postgres://postgres@127.0.0.1:{port}"
        self.bin = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]

    def _as_postgres(self, *args: str) -> None:
        subprocess.run(["su", "postgres", "-c", " ".join(args)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def init(self) -> None:
        self.folder.mkdir(parents=True)
        subprocess.run(["chown", "-R", "postgres", str(self.folder.parent)], check=True)
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.folder), "-U", "postgres", "--auth=trust")

    def start(self) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.folder), "-w", "-l", str(self.folder / "log"),
                          "-o", f"'-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200'",
                          "start")

    def stop(self, mode: str = "fast") -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.folder), "-w", "-m", mode, "stop")


class Stack:
    """`deploy/prod` on 127.0.0.1:`port` against database `database` and a private Redis on
    `redis_port`; `env` adds settings (quotas, rates...)."""

    def __init__(self, *, name: str, port: int, redis_port: int, env: dict | None = None, catalog="cube2 cube3",
                 postgres_port: int | None = None):
        self.tmp = Path(tempfile.mkdtemp(prefix=f"{name}-"))
        self.postgres = None if postgres_port is None else Postgres(postgres_port, self.tmp)
        self.server = POSTGRES if self.postgres is None else self.postgres.url
        self.database, self.port = name.replace("-", "_"), port
        self.url = f"http://127.0.0.1:{port}"
        self.redis = Redis(redis_port, self.tmp)
        self.database_url = f"{self.server}/{self.database}"
        self.env = dict(
            os.environ, PORT=str(port), DATABASE_URL=self.database_url,
            CELERY_BROKER_URL=f"redis://127.0.0.1:{redis_port}/0", CACHE_URL=f"redis://127.0.0.1:{redis_port}/1",
            PUZZLEHUB_VAR=str(self.tmp / "var"), CATALOG=catalog,
            PUZZLEHUB_CACHE=os.environ.get("BENCH_CACHE", "/tmp/puzzlehub-bench-cache"),
            NUMBA_CACHE_DIR=os.environ.get("NUMBA_CACHE_DIR", "/tmp/numba-puzzlehub-bench"),
            # the catalog's own discovery runs and set builds stay short: the bench's work is its own
            PUZZLEHUB_CATALOG_DISCOVERY_SECONDS="2", PUZZLEHUB_CATALOG_SETS_SECONDS="2",
            # no warm-up (workers.warm): the benches measure the site and the jobs system, and cube2
            # solves need no big tables; its first run on a machine would build them for minutes
            PUZZLEHUB_WORKER_WARM_UP="0", LOG_LEVEL="WARNING",
        )
        self.env.update(env or {})
        self.env.pop("PUZZLEHUB_BROKER_PREFIX", None)
        self.process = None
        self.log = self.tmp / "prod.log"

    def start(self):
        self.redis.start()
        if self.postgres is not None:
            self.postgres.init()
            self.postgres.start()
        admin(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)", f"CREATE DATABASE {self.database}",
              url=f"{self.server}/postgres")
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([str(ROOT / "deploy" / "prod")], cwd=ROOT, env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        wait(self.healthy, 900, every=0.5)  # migrate, collectstatic, publish the catalog

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    def django(self):
        """Django set up in this process against the stack's database and Redis (to make users)."""
        for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "PUZZLEHUB_VAR"):
            os.environ[key] = self.env[key]
        os.environ["DEBUG"] = "1"  # this process only makes rows: no production key needed
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")
        import django

        django.setup()

    def cpu_seconds(self) -> dict[int, tuple[str, float]]:
        """CPU seconds (user and system) used so far by each of the stack's processes (by pid), with
        its program: web (gunicorn), each Celery worker by its queue, beat, PostgreSQL (the stack's
        own database connections) and its Redis."""
        import psutil

        processes = [psutil.Process(self.process.pid), psutil.Process(self.redis.process.pid)]
        processes += processes[0].children(recursive=True)
        processes += [p for p in psutil.process_iter(["cmdline"])
                      if p.info["cmdline"] and self.database in " ".join(p.info["cmdline"])]
        used = {}
        for process in processes:
            try:
                times, line = process.cpu_times(), " ".join(process.cmdline())
            except psutil.Error:
                continue
            name = ("web" if "gunicorn" in line else "redis" if "redis-server" in line else
                    "postgres" if self.database in line else f"worker {line.split(' -Q ')[1].split()[0]}"
                    if " -Q " in line else "beat" if " beat" in line else None)
            if name:
                # children_*: the children it reaped (gunicorn workers and Celery pool children replaced
                # during the run), whose CPU would otherwise be missed
                used[process.pid] = (name, times.user + times.system + times.children_user + times.children_system)
        return used

    def cpu_used(self, before: dict[int, tuple[str, float]]) -> dict[str, float]:
        """CPU seconds by program since `before` (cpu_seconds): processes started since count whole,
        those ended since count through the parent that reaped them."""
        used: dict[str, float] = {}
        for pid, (name, seconds) in self.cpu_seconds().items():
            used[name] = used.get(name, 0.0) + seconds - before.get(pid, (name, 0.0))[1]
        return used

    def stop(self):
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=60)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop("immediate")
        else:
            admin(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")
