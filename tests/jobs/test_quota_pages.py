"""Job quotas on the pages, in Chromium at desktop width and 390 px (screenshots in /tmp/shots/):
the settings page shows how many jobs are queued or running of how many, by kind, and when full
when to try again; the solve form refused by the quota says when, with Retry-After."""

from datetime import timedelta

import pytest
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)
from django.conf import settings
from django.test import Client
from django.utils import timezone

from puzzlehub.jobs.models import Job


def log_in(page, base, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base}])


def active_job(user, repo, *, kind, status, time_limit, started_ago=None):
    """A job row as the workers would leave it (no message sent: the quota counts rows)."""
    started = None if started_ago is None else timezone.now() - timedelta(seconds=started_ago)
    return Job.objects.create(kind=kind, status=status, user=user, repository=repo, revision=repo.head,
                              content_hash=repo.head.content_hash, dedupe_key=f"{kind}-{status}", options={},
                              time_limit=time_limit, memory_limit=0, max_attempts=3, started_at=started)


@pytest.mark.django_db(transaction=True)
def test_the_settings_page_shows_the_quota_and_a_refused_solve_says_when_to_retry(live_server, new_page, alice,
                                                                                   repo, settings):
    settings.JOB_QUOTA = 3
    page = new_page()
    log_in(page, live_server.url, alice)
    page.goto(f"{live_server.url}/settings/")
    assert page.inner_text("#job-quota .quota-used") == "0 of 3"
    assert page.locator("#job-quota .quota-full").count() == 0

    running = active_job(alice, repo, kind=Job.SOLVE, status=Job.RUNNING, time_limit=60, started_ago=40)
    active_job(alice, repo, kind=Job.SOLVE, status=Job.QUEUED, time_limit=30)
    active_job(alice, repo, kind=Job.DISCOVER, status=Job.QUEUED, time_limit=60)
    page.reload()
    box = page.locator("#job-quota")
    assert box.locator(".quota-used").inner_text() == "3 of 3"
    rows = [[cell.strip() for cell in row.split("\t")] for row in box.locator("tbody tr").all_inner_texts()]
    assert rows == [["Solve", "1", "1"], ["Pattern database", "0", "0"], ["Discovery", "1", "0"]]
    assert box.locator(".quota-jobs li").count() == 3
    full = box.locator(".quota-full").inner_text()
    assert f"when job {running.id} reaches its time limit" in full
    seconds = int(full.split("Try again in ")[1].split(" s")[0])
    assert 10 <= seconds <= 20  # 60 s limit, started 40 s ago (the page took a moment): sooner than 30 s
    shot(page, "ops2-quota-settings")
    page.set_viewport_size(PHONE)
    page.reload()
    assert page_width(page) <= PHONE["width"]
    assert page.locator("#job-quota .quota-full").is_visible()
    shot(page, "ops2-quota-settings-390")

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/jobs/solve/alice/{repo.name}/")
    page.fill("#solve-scramble", "R U")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.click("button[value=solve]")
    response = answer.value
    assert response.status == 429
    assert 1 <= int(response.headers["retry-after"]) <= 20
    refusal = page.inner_text(".solve-form .error")
    assert f"try again in {response.headers['retry-after']} s" in refusal and "or cancel one" in refusal
    assert page.input_value("#solve-scramble") == "R U"  # what was typed is kept for the retry
    assert Job.objects.filter(user=alice).count() == 3
    shot(page, "ops2-quota-refused")
    page.set_viewport_size(PHONE)
    assert page_width(page) <= PHONE["width"]
    shot(page, "ops2-quota-refused-390")
