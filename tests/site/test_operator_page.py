"""The operator page (/ops/) and /metrics: staff see queue depths, running jobs, the workers seen
with their last heartbeat and recent failures; everyone else gets the site's 404, with nothing of
it in the answer. In development the request log is readable `key=value` lines."""

import io
import logging

import pytest

from puzzlehub.jobs import services
from puzzlehub.jobs.models import Job
from puzzlehub.ops.logformat import TextFormatter
from puzzlehub.repos.models import Repository

SECRET_WORDS = ("hidden-rings", "box-7:4242", "box-9:1717", "stopped renewing", "puzzlehub_jobs")


@pytest.fixture
def scene(alice, make_repo):
    """On alice's private puzzle: a job running on box-7, one failed on box-9, one queued."""
    make_repo(alice, "hidden-rings", visibility="private")
    repo = Repository.objects.get(owner=alice, name="hidden-rings")
    running, failed, queued = (services.submit_solve(user=alice, repository=repo, scramble=s) for s in ("A", "B", "A B"))
    services.claim(job_id=running.id, owner="box-7:4242:a", worker="box-7:4242")
    services.claim(job_id=failed.id, owner="box-9:1717:b", worker="box-9:1717")
    services.finish(job_id=failed.id, owner="box-9:1717:b", status=Job.FAILED,
                    error="gave up after 3 attempts: the worker running it stopped renewing its lease")
    services.heartbeat(job_id=running.id, owner="box-7:4242:a", progress=0.25, text="depth 7")
    return {"running": running, "failed": failed, "queued": queued}


@pytest.mark.django_db
def test_staff_see_queues_running_jobs_workers_and_failures(scene, make_user, logged_in):
    staff = make_user("carol")
    staff.is_staff = True
    staff.save()
    page = logged_in(staff).get("/ops/")
    assert page.status_code == 200
    html = page.content.decode()
    for queue in ("solve", "pdb", "discover", "backfill"):
        assert f"waiting in <strong>{queue}</strong>" in html
    running = html.split('id="running-jobs"')[1].split("</table>")[0]
    assert f'href="/jobs/{scene["running"].id}/"' in running and "alice/hidden-rings" in running
    assert "box-7:4242" in running and "25%" in running and "depth 7" in running
    assert f'/jobs/{scene["queued"].id}/' not in running and f'/jobs/{scene["failed"].id}/' not in running
    workers = html.split('id="workers-seen"')[1].split("</table>")[0]
    assert workers.index("box-7:4242") < workers.index("box-9:1717")  # the latest heartbeat first
    assert "working" in workers and "idle" in workers and " s ago" in workers
    failures = html.split('id="recent-failures"')[1].split("</table>")[0]
    assert f'/jobs/{scene["failed"].id}/' in failures and "stopped renewing its lease" in failures

    metrics = logged_in(staff).get("/metrics")
    assert metrics.status_code == 200 and metrics["Content-Type"].startswith("text/plain")
    assert 'puzzlehub_jobs{kind="solve",status="running"} 1.0' in metrics.content.decode()


@pytest.mark.django_db
def test_everyone_else_gets_the_sites_404_and_nothing_leaks(scene, alice, bob, logged_in, client, settings):
    settings.PUZZLEHUB_METRICS_TOKEN = "a-long-scraper-token"
    answers = [client.get("/ops/"), client.get("/metrics"),
               client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")]
    answers += [logged_in(user).get(path) for user in (alice, bob) for path in ("/ops/", "/metrics")]
    for answer in answers:
        assert answer.status_code == 404
        assert not any(word in answer.content.decode() for word in SECRET_WORDS)
    scraped = client.get("/metrics", HTTP_AUTHORIZATION="Bearer a-long-scraper-token")
    assert scraped.status_code == 200 and "puzzlehub_jobs" in scraped.content.decode()


@pytest.mark.django_db
def test_the_development_request_log_is_readable_lines(client, alice, logged_in):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(TextFormatter())
    logger = logging.getLogger("puzzlehub.request")
    logger.addHandler(handler)
    try:
        answer = logged_in(alice).get("/settings/", HTTP_X_REQUEST_ID="dev-42")
    finally:
        logger.removeHandler(handler)
    assert answer["X-Request-ID"] == "dev-42"
    line = stream.getvalue().strip()
    assert "INFO puzzlehub.request: GET /settings/ 200 method=GET route=settings path=/settings/ status=200" in line
    assert f"user_id={alice.id} request_id=dev-42" in line and "\n" not in line


@pytest.mark.django_db
def test_with_redis_away_pages_answer_and_metrics_say_what_is_missing(scene, make_user, logged_in, monkeypatch):
    from puzzlehub.ops import counters

    staff = make_user("carol")
    staff.is_staff = True
    staff.save()
    monkeypatch.setattr(counters, "_resting_until", 0.0)  # restored after the test
    # Celery reads the broker's address from the environment first; nothing listens at port 1
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    client = logged_in(staff)
    assert client.get("/settings/").status_code == 200  # the count is dropped, the answer is not
    page = client.get("/ops/")
    assert page.status_code == 200 and "The broker does not answer" in page.content.decode()
    assert "box-7:4242" in page.content.decode()  # what the database knows is still shown
    metrics = client.get("/metrics").content.decode()
    for part, failed in (("requests", 1), ("shared_counters", 1), ("jobs", 0), ("queues", 1)):
        assert f'puzzlehub_scrape_error{{part="{part}"}} {failed}.0' in metrics
    assert 'puzzlehub_jobs{kind="solve",status="running"} 1.0' in metrics
