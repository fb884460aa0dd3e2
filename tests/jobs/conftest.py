"""Fixtures for the jobs tests: users, repositories of catalog puzzles, and REAL Celery worker
processes against real Redis and the PostgreSQL test database.

Worker tests are transactional (`django_db(transaction=True)`), so that what the test writes is
committed and visible to the worker, which connects to the same test database by name. The broker
is Redis at 127.0.0.1:6379, database PUZZLEHUB_TEST_REDIS_DB (default 11), with every key prefixed
by the test database's name, so that test runs of several checkouts never take each other's messages.
Leases, heartbeats and the janitor are made short through the environment the workers read.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from puzzlehub.accounts import services as accounts
from puzzlehub.celery import app
from puzzlehub.repos import services as repos
from solver import api as solver_api

from jobwaits import wait_for

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = f"redis://127.0.0.1:6379/{os.environ.get('PUZZLEHUB_TEST_REDIS_DB', '11')}"

# short figures so that recovery happens within seconds (the workers read these)
JOB_ENV = {
    "PUZZLEHUB_JOB_LEASE": "4",
    "PUZZLEHUB_JOB_HEARTBEAT": "0.5",
    "PUZZLEHUB_JOB_RESEND_AFTER": "1",
    "PUZZLEHUB_JOB_REDISPATCH": "2",
    "PUZZLEHUB_JANITOR_EVERY": "1",
    "PUZZLEHUB_JOB_ATTEMPTS": "3",
    # the production default: room for a step that overruns on a loaded machine before Celery's
    # limits strike (the solver's own time limit ends jobs first)
    "PUZZLEHUB_JOB_TIME_GRACE": "10",
}
READY_TIMEOUT = 600.0  # seconds a worker may take to start

_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def job_settings(settings):
    """The test process uses the same short figures as the workers, and no write throttling."""
    settings.JOB_LEASE = float(JOB_ENV["PUZZLEHUB_JOB_LEASE"])
    settings.JOB_HEARTBEAT = float(JOB_ENV["PUZZLEHUB_JOB_HEARTBEAT"])
    settings.JOB_RESEND_AFTER = float(JOB_ENV["PUZZLEHUB_JOB_RESEND_AFTER"])
    settings.JOB_REDISPATCH = float(JOB_ENV["PUZZLEHUB_JOB_REDISPATCH"])
    settings.JOB_ATTEMPTS = int(JOB_ENV["PUZZLEHUB_JOB_ATTEMPTS"])
    settings.JOB_TIME_GRACE = float(JOB_ENV["PUZZLEHUB_JOB_TIME_GRACE"])
    settings.PUZZLEHUB_WRITE_RATE = "10000/min"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


@pytest.fixture
def make_user(db):
    def make(username=None):
        username = username or f"user{next(_numbers)}"
        return accounts.create_user(username=username, email=f"{username}@example.org", password="pw-" + "x" * 12)
    return make


@pytest.fixture
def client_for():
    def make(user=None):
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.api_token(user=user)}")
        return client
    return make


@pytest.fixture(scope="session")
def cube3_text() -> str:
    return solver_api.export_yaml(solver_api.load("cube3"))


@pytest.fixture
def cube3():
    return solver_api.load("cube3")


@pytest.fixture
def make_repo(cube3_text):
    def make(owner, name=None, definition=None, **fields):
        return repos.create_repository(owner=owner, name=name or f"puzzle{next(_numbers)}",
                                       definition=definition or cube3_text, **fields)
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def repo(alice, make_repo):
    return make_repo(alice, "cube")


def solver_caches() -> dict[str, str]:
    """The caches a worker process solves with: the test process's table cache, as production's
    workers share one (what the first worker's warm-up builds, minutes on an empty cache, the later
    solver tests load instead of building), and numba's."""
    return {"PUZZLEHUB_CACHE": os.environ.get("PUZZLEHUB_CACHE") or str(settings.PUZZLEHUB_CACHE),
            "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR") or "/tmp/numba-puzzlehub-tests"}


@pytest.fixture
def solver_env() -> dict[str, str]:
    """The environment of a process that solves as a worker does (its caches, the repository importable)."""
    return dict(os.environ, PYTHONPATH=str(ROOT), **solver_caches())


class Workers:
    """Celery worker processes started for the tests; each in its own process group."""

    def __init__(self, database: str, tmp: Path):
        db = settings.DATABASES["default"]
        url = f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database}"
        self.artifacts = tmp / "artifacts"  # the storage every worker shares, as S3 would be
        self.env = dict(os.environ, DATABASE_URL=url, CELERY_BROKER_URL=REDIS_URL, PUZZLEHUB_BROKER_PREFIX=broker_prefix(),
                        PUZZLEHUB_VAR=str(tmp / "var"),
                        PYTHONPATH=str(ROOT),
                        PUZZLEHUB_ARTIFACT_STORAGE_OPTIONS=json.dumps({"location": str(self.artifacts)}), **JOB_ENV)
        self.env.update(solver_caches())
        self.tmp = tmp
        self.running: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}
        self.main = None

    def start(self, name: str, *, beat: bool = True, concurrency: int = 1, supervised: bool = False,
              env: dict | None = None) -> subprocess.Popen:
        """A worker for every queue; `supervised` runs it under deploy/supervise, as `make run` does;
        `env` changes its settings (PUZZLEHUB_JOB_HEARTBEAT...)."""
        log = self.tmp / f"{name}.log"
        args = [str(ROOT / "deploy" / "supervise")] if supervised else []
        args += [sys.executable, "-m", "celery", "-A", "workers", "worker", "-Q", "solve,pdb,discover",
                "-n", f"{name}@%h", "-c", str(concurrency), "--loglevel=INFO", "--without-gossip",
                "--without-mingle"]
        if beat:
            args += ["-B", "-s", str(self.tmp / f"{name}-beat")]
        out = open(log, "ab")
        process = subprocess.Popen(args, cwd=ROOT, env={**self.env, **(env or {})}, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        out.close()
        self.running[name], self.logs[name] = process, log
        # " ready." comes after the warm-up (workers.warm): the first start of a session builds the
        # solver's tables, which takes a minute or more on a loaded machine
        wait_for(lambda: process.poll() is not None or b" ready." in log.read_bytes(), timeout=READY_TIMEOUT, every=0.1)
        assert process.poll() is None, log.read_text()[-3000:]
        return process

    def kill(self, name: str, sig=signal.SIGKILL) -> None:
        """Signal the worker's whole process group (main process and pool children) and reap it."""
        process = self.running.pop(name)
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop_all(self) -> None:
        for name in list(self.running):
            self.kill(name, signal.SIGTERM)


def broker_prefix() -> str:
    return f"{settings.DATABASES['default']['NAME']}:"


class Broker:
    """This run's keys in the shared Redis database."""

    def __init__(self):
        self.redis = redis.Redis.from_url(REDIS_URL)
        self.prefix = broker_prefix()

    def queued(self, queue: str) -> int:
        return self.redis.llen(self.prefix + queue)

    def lose_everything(self) -> None:
        """What a Redis restart without persistence does to this run's queues."""
        for key in self.redis.scan_iter(match=self.prefix + "*"):
            self.redis.delete(key)


@pytest.fixture(scope="session")
def broker(django_db_setup):
    """The test process sends to the same Redis keys as the workers; they start empty."""
    broker = Broker()
    broker.lose_everything()
    # Celery reads CELERY_BROKER_URL from the environment before its configuration (CI exports it for
    # database 0): without this the test process would send where no test worker listens
    saved = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    app.conf.update(broker_url=REDIS_URL,
                    broker_transport_options={"visibility_timeout": 3600, "global_keyprefix": broker.prefix})
    app.close()  # drop connections made from the old settings
    with app.connection_for_write() as connection:
        assert connection.as_uri().rsplit("@", 1)[-1] == REDIS_URL.split("://", 1)[1], connection.as_uri()
    yield broker
    broker.lose_everything()
    app.close()
    if saved is None:
        os.environ.pop("CELERY_BROKER_URL", None)
    else:
        os.environ["CELERY_BROKER_URL"] = saved


@pytest.fixture(scope="session")
def workers(django_db_setup, django_db_blocker, broker, tmp_path_factory):
    pool = Workers(settings.DATABASES["default"]["NAME"], tmp_path_factory.mktemp("workers"))
    yield pool
    pool.stop_all()


@pytest.fixture
def worker(workers, transactional_db):
    """One running worker (with the janitor's schedule), started when the session first needs it."""
    if "main" not in workers.running:
        workers.start("main")
    return workers
