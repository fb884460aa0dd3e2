"""Hostile requests against the site as it runs in production: under gunicorn, with its worker
timeout. Every answer must arrive within 2 s as a 4xx or a 201, and no gunicorn worker may be
killed for a timeout (which is what a request holding a process on solver work would cause)."""

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlehub.accounts import services as accounts

ROOT = Path(__file__).resolve().parents[2]
ANSWER_WITHIN = 2.0  # seconds, as issue 13 asks, on a machine with a core to spare
CPU_WITHIN = 1.0  # seconds of the web process's CPU per request (its Server-Timing header), on any machine


def answer_within() -> float:
    """2 s of wall time, stretched by how oversubscribed the machine is (shared test machines run
    at several processes per core): the CPU figure is the strict one."""
    return ANSWER_WITHIN * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
GUNICORN_TIMEOUT = 5  # a worker silent this long is killed, and gunicorn logs WORKER TIMEOUT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    def __init__(self, port, token, log):
        self.port, self.token, self.log = port, token, log

    def request(self, method, path, body=b"", headers=None, chunked=False):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json", **(headers or {})}
        started = time.monotonic()
        if chunked:
            connection.request(method, path, body=iter([body[:10], body[10:]]), headers=headers, encode_chunked=True)
        else:
            connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        elapsed = time.monotonic() - started
        connection.close()
        timing = response.getheader("Server-Timing", "")
        assert timing.startswith("cpu;dur="), (response.status, timing, data[:200])
        cpu = float(timing.split("=")[1]) / 1000
        assert cpu < CPU_WITHIN, f"{method} {path}: {cpu:.2f} s of CPU in the web process"
        return response.status, data, elapsed

    def post_json(self, path, payload):
        return self.request("POST", path, json.dumps(payload).encode())


@pytest.fixture
def site(transactional_db, tmp_path):
    user = accounts.create_user(username="attacker", email="", password="a long enough passphrase")
    token = accounts.api_token(user=user)
    db = django_settings.DATABASES["default"]
    url = (f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@{db['HOST'] or '127.0.0.1'}:"
           f"{db['PORT'] or 5432}/{db['NAME']}")
    port, log = _free_port(), tmp_path / "gunicorn.log"
    env = dict(os.environ, DATABASE_URL=url, PUZZLEHUB_WRITE_RATE="100000/min", PYTHONPATH=str(ROOT),
               PUZZLEHUB_BROKER_PREFIX=f"{db['NAME']}:hostile:", PUZZLEHUB_VAR=str(tmp_path / "var"),
               PUZZLEHUB_CACHE=str(tmp_path / "cache"))
    process = subprocess.Popen(
        # --preload: the site is loaded once, before the workers start, so that the timeout only
        # measures requests
        [sys.executable, "-m", "gunicorn", "puzzlehub.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--preload", "--timeout", str(GUNICORN_TIMEOUT), "--error-logfile", str(log), "--log-level", "info",
         "--no-control-socket"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240  # loading the solver takes a while on a busy machine
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        yield Site(port, token, log)
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)
    assert "WORKER TIMEOUT" not in log.read_text(), log.read_text()[-3000:]


def _definition(name, n, moves, goal=None):
    lines = ["format: puzzlehub/1", f"name: {name}", "moves:"]
    lines += [f"  - {{name: {m}, cycles: {json.dumps(cycles)}}}" for m, cycles in moves]
    return "\n".join(lines + [f"goal: {goal or 'W' * (n - 1) + 'R'}"]) + "\n"


def _random_cycles(n, rng):
    p = list(range(n))
    rng.shuffle(p)
    seen, cycles = [False] * n, []
    for i in range(n):
        cycle = []
        while not seen[i]:
            seen[i] = True
            cycle.append(i)
            i = p[i]
        if len(cycle) > 1:
            cycles.append(cycle)
    return cycles


def hostile_definitions():
    n, rng = 10_000, random.Random(13)
    return {
        "long-cycle": _definition("long-cycle", n, [("B", [list(range(n))])]),
        "long-cycle-and-swap": _definition("swap", n, [("A", [[0, 1]]), ("B", [list(range(n))])]),
        "two-random-permutations": _definition("random", n, [("A", _random_cycles(n, rng)), ("B", _random_cycles(n, rng))]),
        "many-swaps": _definition("swaps", n, [("A", [[2 * i, 2 * i + 1] for i in range(n // 2)]),
                                              ("B", [list(range(1, n))])]),
        "huge-group-order": _definition("huge", 2000, [("A", [[0, 1]]), ("B", [list(range(2000))])]),
    }


def _check(status, data, elapsed, allowed=(201,)):
    assert elapsed < answer_within(), f"answered after {elapsed:.2f} s"
    assert status in allowed or 400 <= status < 500, (status, data[:300])
    if 400 <= status < 500:
        assert data.startswith(b"{"), data[data.find(b"exception_value"):][:600] or data[:300]  # JSON, naming the problem


@pytest.mark.parametrize("shape", sorted(hostile_definitions()))
def test_hostile_definitions_are_answered_in_time(site, shape):
    definition = hostile_definitions()[shape]
    _check(*site.post_json("/api/repos/", {"name": shape, "definition": definition}))


def test_hostile_bodies_are_answered_in_time(site):
    status, data, elapsed = site.post_json("/api/repos/", {"name": "rings", "definition": (
        "format: puzzlehub/1\nname: r\nmoves:\n  - {name: A, cycles: [[0, 1, 2, 3]]}\ngoal: WWWR\n")})
    _check(status, data, elapsed)
    for path, payload in [("/api/repos/attacker/rings/solves/", {"scramble": 5}),
                          ("/api/repos/attacker/rings/solves/", {"state": "[" * 10_000}),
                          ("/api/repos/attacker/rings/pdbs/", {"projection": [[7, [0], 1, 0, []]]})]:
        status, data, elapsed = site.post_json(path, payload)
        _check(status, data, elapsed, allowed=())
        assert next(iter(payload)) in json.loads(data)
    nested = b'{"name": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
    for path in ("/api/repos/", "/api/repos/attacker/rings/solves/", "/api/token/"):
        _check(*site.request("POST", path, nested), allowed=())
    too_big = json.dumps({"name": "big", "definition": "x" * 3_000_000}).encode()
    status, data, elapsed = site.request("POST", "/api/repos/", too_big)
    _check(status, data, elapsed, allowed=())
    # a chunked body is read, not taken as empty: the refusal names the definition, not a missing name
    status, data, elapsed = site.request("POST", "/api/repos/", json.dumps({"name": "chunky", "definition": "x"}).encode(),
                                         chunked=True)
    _check(status, data, elapsed, allowed=())
    assert "definition" in json.loads(data) and "name" not in json.loads(data)


yamlish = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(
        st.sampled_from(["name", "moves", "goal", "cycles", "value", "turnSet", "baseTurns", "finalState",
                         "extenders", "function", "params", "layout", "cells", "format"]),
        children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(definition=st.one_of(yamlish.map(json.dumps), st.text(max_size=200),
                            st.integers(1, 10_000).map(lambda n: _definition("c", max(n, 2), [("B", [list(range(max(n, 2)))])]))),
       name=st.from_regex(r"[a-z][a-z0-9-]{0,20}", fullmatch=True))
def test_random_definitions_are_answered_in_time(site, definition, name):
    _check(*site.post_json("/api/repos/", {"name": name, "definition": definition}))
