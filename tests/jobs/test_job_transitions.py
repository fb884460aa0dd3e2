"""Every change of a job's state writes one log line (parsed here as the JSON the production
format writes), once committed; lease expiries and table-cache lookups count in the shared
counters /metrics reads. The lease protocol's own functions are driven here as a worker would."""

import io
import json
import logging
import signal
from datetime import timedelta

import pytest
from django.utils import timezone

from puzzlehub.jobs import artifacts, services
from puzzlehub.jobs.models import Job, PatternDatabase
from puzzlehub.ops import counters
from puzzlehub.ops.logformat import JsonFormatter

from jobwaits import LITTLE_RINGS, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_worker(workers):
    """These tests play the worker and the janitor themselves: the session's worker (and its
    janitor's schedule) would claim and sweep their jobs too."""
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)


@pytest.fixture
def transitions():
    """The transition lines written while the test runs, parsed from JSON."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("puzzlehub.jobs.transitions")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logger.removeHandler(handler)


@pytest.fixture
def rings(alice, make_repo):
    return make_repo(alice, "rings", definition=LITTLE_RINGS)


def submit(alice, rings, scramble):
    return services.submit_solve(user=alice, repository=rings, scramble=scramble)


def steps(lines, job):
    return [(line["from"], line["to"], line["worker"]) for line in lines if line["job_id"] == job.id]


def expiries() -> float:
    return counters.read("lease_expiries").get(("solve",), 0.0)


def test_a_job_logs_each_transition_with_its_worker_and_duration(broker, alice, rings, transitions):
    job = submit(alice, rings, "A B")
    assert services.claim(job_id=job.id, owner="w1:tok", worker="w1") is not None
    assert services.heartbeat(job_id=job.id, owner="w1:tok", progress=0.5, text="half") == (True, False)
    assert services.finish(job_id=job.id, owner="w1:tok", status=Job.FAILED, error="no answer")
    assert not services.finish(job_id=job.id, owner="w1:tok", status=Job.SUCCEEDED)  # fenced: nothing logged

    lines = transitions()
    assert steps(lines, job) == [("new", "queued", None), ("queued", "running", "w1"), ("running", "failed", "w1")]
    assert all(line["kind"] == "solve" and line["level"] == "INFO" for line in lines)
    queued, running, failed = lines
    assert queued["duration_ms"] is None and running["duration_ms"] >= 0 and failed["duration_ms"] >= 0
    assert failed["message"] == f"job {job.id} (solve): running -> failed"

    # a queued job cancelled by its owner
    other = submit(alice, rings, "A A B")
    services.cancel(job=other, user=alice)
    assert steps(transitions(), other) == [("new", "queued", None), ("queued", "cancelled", None)]


def test_expired_leases_are_logged_and_counted(broker, alice, rings, transitions):
    swept, taken_over = submit(alice, rings, "A B"), submit(alice, rings, "B A")
    before = expiries()
    for job in (swept, taken_over):
        services.claim(job_id=job.id, owner=f"w1:{job.id}", worker="w1")
    Job.objects.filter(id__in=[swept.id, taken_over.id]).update(lease_expires=timezone.now() - timedelta(seconds=1))

    # a second delivery reaches a worker before the janitor: it takes the job over
    assert services.claim(job_id=taken_over.id, owner="w2:tok", worker="w2") is not None
    assert services.sweep()["requeued"] == 1  # the janitor gives the other back to the queue
    assert expiries() - before == 2

    lines = transitions()
    assert steps(lines, taken_over)[1:] == [("queued", "running", "w1"), ("running", "running", "w2")]
    assert steps(lines, swept)[1:] == [("queued", "running", "w1"), ("running", "queued", "w1")]


def test_table_cache_hits_and_misses_are_counted(settings, tmp_path):
    settings.STORAGES = {**settings.STORAGES, "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(tmp_path / "store")}}}
    settings.PUZZLEHUB_CACHE = tmp_path / "cache"
    built = tmp_path / "abc-key-proj-v1.pdb"
    built.write_bytes(bytes(range(256)) * 100)
    artifact = PatternDatabase.objects.create(content_hash="sha256:abc", projection="[]", **artifacts.publish(built))

    def counts():
        table = counters.read("table_cache")
        return table.get(("hit",), 0.0), table.get(("miss",), 0.0)

    hits, misses = counts()
    artifacts.fetch(artifact)  # fetched from the storage
    assert counts() == (hits, misses + 1)
    artifacts.fetch(artifact)
    artifacts.fetch(artifact)  # the checked local copy
    assert counts() == (hits + 2, misses + 1)


def test_counts_wait_in_their_process_and_are_written_within_a_second(broker, monkeypatch):
    """A count costs its request no round trip to Redis: the process's own thread writes it (and a
    read in the process writes its own counts first)."""
    key, field = broker.prefix + counters.KEY + "table_cache", "batched"

    def written():
        return float(broker.redis.hget(key, field) or 0)

    before = written()
    monkeypatch.setattr(counters, "flush", lambda: None)  # the thread's next flush held back
    counters.add({("table_cache", ("batched",)): 1})
    counters.add({("table_cache", ("batched",)): 2})
    assert written() == before  # added, not written
    monkeypatch.undo()
    wait_for(lambda: written() == before + 3, timeout=5 * counters.FLUSH_EVERY)
    counters.add({("table_cache", ("batched",)): 1})
    assert counters.read("table_cache")[("batched",)] == before + 4  # this process's read flushes first
