"""The production stack's observability, for real: gunicorn started from deploy/gunicorn.conf.py with
production settings (two web processes) and a Celery worker for the solve queue, both logging JSON.

One JSON line per request (route, status, user, request id) and per job transition (from the web
process that queued the job and the worker that ran it), and /metrics whose figures change with
the requests and the job, the same whichever web process answers the scrape."""

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlehub.accounts import services as accounts
from puzzlehub.jobs.models import Job

from jobwaits import LITTLE_RINGS, wait_for

ROOT = Path(__file__).resolve().parents[2]

TOKEN = secrets.token_urlsafe(24)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    def __init__(self, tmp, env):
        self.tmp, self.env, self.port = tmp, env, _free_port()
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str], ready) -> None:
        log = self.tmp / f"{name}.log"
        with open(log, "ab") as out:
            self.processes[name] = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                                    start_new_session=True)
        wait_for(lambda: self.processes[name].poll() is not None or ready(), timeout=120, every=0.1)
        assert self.processes[name].poll() is None, log.read_text()[-3000:]

    def lines(self, name: str, strict: bool = True) -> list[dict]:
        """The process's log lines parsed as JSON; strict: a line that is not JSON fails the test
        (Celery prints its start-up banner as text, past the logging)."""
        text = (self.tmp / f"{name}.log").read_text().splitlines()
        return [json.loads(line) for line in text if line.startswith("{") or (strict and line.strip())]

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response, data

    def metrics(self) -> dict[str, float]:
        response, data = self.request("GET", "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert response.status == 200, data[:300]
        samples = {}
        for line in data.decode().splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                samples[name] = float(value)
        return samples

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def stack(workers, broker, transactional_db, tmp_path):
    """The environment the test workers get (test database, this run's broker keys, short leases),
    with production settings; no process is started yet. The session's own worker would take the
    job from the same queue, so it is stopped (the next test that needs it starts it again)."""
    if "main" in workers.running:
        workers.kill("main", signal.SIGTERM)
    broker.lose_everything()  # messages earlier tests left in the queues would count in the depth
    env = {k: v for k, v in workers.env.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "PUZZLEHUB_LOG_FORMAT")}
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), PUZZLEHUB_HTTPS="0", PUZZLEHUB_METRICS_TOKEN=TOKEN,
               PUZZLEHUB_VAR=str(tmp_path / "var"), PUZZLEHUB_CACHE=str(tmp_path / "cache"),
               PUZZLEHUB_WORKER_WARM_UP="0", WEB_CONCURRENCY="2", LOG_LEVEL="INFO")
    stack = Stack(tmp_path, env)
    stack.env["PUZZLEHUB_BIND"] = f"127.0.0.1:{stack.port}"
    yield stack
    stack.stop()


def test_requests_and_job_transitions_log_json_and_metrics_follow_them(stack, make_user, make_repo):
    alice = make_user("alice")
    repo = make_repo(alice, "rings", definition=LITTLE_RINGS)
    token = accounts.api_token(user=alice)
    # two web processes: gunicorn's own lines are JSON too ("Booting worker" twice)
    stack.start("web", [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "puzzlehub.wsgi"],
                ready=lambda: (stack.tmp / "web.log").read_text().count("Booting worker") == 2)

    # anyone without staff rights or the token gets the site's 404 from /metrics
    assert stack.request("GET", "/metrics")[0].status == 404
    assert stack.request("GET", "/metrics", headers={"Authorization": "Bearer wrong"})[0].status == 404
    before = stack.metrics()
    repo_route = 'puzzlehub_http_requests_total{method="GET",route="api-repo",status="200"}'
    for _ in range(6):  # answered by either web process: the count is shared, not per process
        assert stack.request("GET", "/api/repos/alice/rings/")[0].status == 200
    response, _ = stack.request("GET", "/api/repos/alice/rings/", headers={"X-Request-ID": "probe-1",
                                                                          "Authorization": f"Token {token}"})
    assert response.status == 200 and response.getheader("X-Request-ID") == "probe-1"
    assert stack.request("GET", "/no/such/page/")[0].status == 404

    request = next(line for line in stack.lines("web") if line.get("request_id") == "probe-1")
    assert request["logger"] == "puzzlehub.request"
    assert {k: request[k] for k in ("method", "route", "status", "user_id", "path")} == {
        "method": "GET", "route": "api-repo", "status": 200, "user_id": alice.id, "path": "/api/repos/alice/rings/"}
    assert 0 < request["duration_ms"] < 30_000
    anonymous = [line for line in stack.lines("web") if line.get("route") == "api-repo" and line["user_id"] is None]
    assert len(anonymous) == 6 and len({line["request_id"] for line in anonymous}) == 6  # a new id each
    assert any(line.get("route") == "unmatched" and line["status"] == 404 for line in stack.lines("web"))

    # a solve queued by the site: its transition logged by the web process, counted in /metrics
    response, data = stack.request("POST", "/api/repos/alice/rings/solves/", {"scramble": "A B"},
                                   headers={"Authorization": f"Token {token}"})
    assert response.status == 202, data
    job_id = json.loads(data)["id"]
    # each web process writes its counts within a second (puzzlehub.ops.counters.FLUSH_EVERY)
    after_submit = wait_for(lambda: (m := stack.metrics()).get(repo_route, 0) - before.get(repo_route, 0) >= 7 and m,
                            timeout=10, every=0.2)
    assert after_submit[repo_route] - before.get(repo_route, 0) == 7
    assert after_submit['puzzlehub_jobs{kind="solve",status="queued"}'] == 1
    assert after_submit['puzzlehub_queue_depth{queue="solve"}'] == 1
    assert all(value == 0 for name, value in after_submit.items() if name.startswith("puzzlehub_scrape_error"))

    # its revision goes away before a worker takes it: the worker runs it to a clear failure
    Job.objects.filter(id=job_id).update(revision=None)
    stack.start("worker", [sys.executable, "-m", "celery", "-A", "workers", "worker", "-Q", "solve", "-n", "solve@%h",
                           "-c", "1", "--without-gossip", "--without-mingle"],
                ready=lambda: b" ready." in (stack.tmp / "worker.log").read_bytes())
    wait_for(lambda: Job.objects.get(id=job_id).status == Job.FAILED, timeout=60)
    job = Job.objects.get(id=job_id)

    def logged():  # a transition's line is written once its change is committed: a moment after the row shows it
        lines = [line for name in ("web", "worker") for line in stack.lines(name, strict=name == "web")
                 if line["logger"] == "puzzlehub.jobs.transitions" and line["job_id"] == job_id]
        return lines if len(lines) >= 3 else None
    transitions = wait_for(logged, timeout=10)
    assert [(line["from"], line["to"]) for line in transitions] == [
        ("new", "queued"), ("queued", "running"), ("running", "failed")]
    assert all(line["kind"] == "solve" for line in transitions)
    assert transitions[0]["worker"] is None and transitions[1]["worker"] == transitions[2]["worker"] == job.worker
    assert re.fullmatch(r".+:\d+", job.worker)  # host:pid
    assert transitions[1]["duration_ms"] >= 0 and transitions[2]["duration_ms"] >= 0

    after_job = stack.metrics()
    assert after_job['puzzlehub_jobs{kind="solve",status="queued"}'] == 0
    assert after_job['puzzlehub_jobs{kind="solve",status="failed"}'] == 1
    assert after_job['puzzlehub_queue_depth{queue="solve"}'] == 0
    assert after_job['puzzlehub_job_duration_seconds_count{kind="solve",outcome="failed"}'] == 1
    assert after_job['puzzlehub_job_duration_seconds_bucket{kind="solve",le="+Inf",outcome="failed"}'] == 1
    assert after_job['puzzlehub_lease_expiries_total{kind="solve"}'] == before['puzzlehub_lease_expiries_total{kind="solve"}']
