"""Benchmark of the site's pages and API (figures, not pass/fail).

    PYTHONPATH=. python bench/bench_site.py

Runs on DATABASE_URL when it is set, otherwise on a throwaway SQLite file (never your var/ data).
1. Publishing the whole built-in catalog (parse, facts from the solver, rows).
2. Repository pages of big catalog puzzles: the first view (parses the definition) and later ones.
3. The repository list of the API, and submitting an algorithm on the 3x3x3 (replay and effect).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

if not os.environ.get("DATABASE_URL"):
    os.environ["PUZZLEHUB_VAR"] = tempfile.mkdtemp(prefix="puzzlehub-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlehub.settings")
os.environ.setdefault("PUZZLEHUB_WRITE_RATE", "100000/min")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from puzzlehub.accounts import services as accounts  # noqa: E402
from puzzlehub.repos import services  # noqa: E402
from puzzlehub.repos.models import Repository  # noqa: E402

PAGES = ["cube3", "cube7", "megaminx", "loopover-6x6", "sliding-5x5"]
WARM_PAGE_GOAL_MS = 100
API_LIST_GOAL_MS = 50
SUBMIT_GOAL_MS = 300


def ms(seconds: float) -> float:
    return seconds * 1000


def timed(call) -> float:
    start = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - start
    assert response.status_code < 400, (response.status_code, response.content[:200])
    return elapsed


def line(what: str, value: float, goal: float | None = None, unit: str = "ms") -> None:
    ratio = f"  ratio {value / goal:5.2f}" if goal else ""
    target = f"  goal <= {goal:g} {unit}" if goal else ""
    print(f"  {what:44} {value:9.1f} {unit}{target}{ratio}")


def main() -> None:
    setup_test_environment()  # the test client's host name is allowed
    call_command("migrate", verbosity=0)
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}")

    start = time.perf_counter()
    call_command("publish_catalog", verbosity=0, stdout=open(os.devnull, "w"))
    published = Repository.objects.filter(owner__username="puzzlehub").count()
    print(f"1. publish the catalog ({published} puzzles)")
    line("all puzzles, first time", time.perf_counter() - start, unit="s")
    start = time.perf_counter()
    call_command("publish_catalog", verbosity=0, stdout=open(os.devnull, "w"))
    line("again (nothing changed)", time.perf_counter() - start, unit="s")

    client = Client()
    print("2. repository pages (first view parses the definition; later views reuse it)")
    for name in PAGES:
        url = f"/puzzlehub/{name}/"
        services._parsed.cache_clear()
        first = timed(lambda: client.get(url))
        warm = statistics.median(timed(lambda: client.get(url)) for _ in range(5))
        line(f"{name}: first view", ms(first))
        line(f"{name}: later views (median of 5)", ms(warm), WARM_PAGE_GOAL_MS)

    print("3. API")
    api_list = statistics.median(timed(lambda: client.get("/api/repos/")) for _ in range(5))
    line("GET /api/repos/ (20 per page, median of 5)", ms(api_list), API_LIST_GOAL_MS)
    user = accounts.create_user(username=f"bench{int(time.time())}", email="", password="bench passphrase 123")
    client.force_login(user)
    sequences = ["R U R' D R U' R' D'", "R U R' U'", "F R U R' U' F'", "R U2 R' U' R U' R'", "L' U R U' L U R'"]
    submit = statistics.median(
        timed(lambda s=s: client.post("/api/repos/puzzlehub/cube3/algorithms/", {"moves": s},
                                      content_type="application/json"))
        for s in sequences
    )
    line("POST an algorithm on cube3 (median of 5)", ms(submit), SUBMIT_GOAL_MS)


if __name__ == "__main__":
    main()
