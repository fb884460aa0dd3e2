"""The operator page in Chromium, at desktop width and at 390 px (screenshots in /tmp/shots/):
a staff member logs in and reads it; a user without staff rights gets the 404 page."""

import pytest
from chromium import browser, new_page, page_width, PHONE, shot  # noqa: F401  (fixtures)
from test_operator_page import SECRET_WORDS, scene  # noqa: F401  (fixture)

PASSWORD = "correct horse battery staple"


def log_in(page, base, username):
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button:has-text('Log in')")
    page.wait_for_url(f"{base}/")


@pytest.mark.django_db(transaction=True)
def test_staff_read_the_operator_page_at_both_widths_and_others_get_404(live_server, new_page, scene, make_user,
                                                                        settings):
    staff = make_user("carol")
    staff.is_staff = True
    staff.save()
    page = new_page()
    log_in(page, live_server.url, "carol")
    assert page.goto(f"{live_server.url}/ops/").status == 200
    assert page.locator(".ops-queue").count() == len(settings.PUZZLEHUB_JOB_QUEUES) == 4  # backfill's too
    assert page.locator("#running-jobs tbody tr").count() == 1
    assert page.locator("#workers-seen tbody tr").count() == 2
    assert "stopped renewing its lease" in page.locator("#recent-failures").inner_text()
    shot(page, "ops-desktop")

    page.set_viewport_size(PHONE)
    page.reload()
    # the page itself never scrolls sideways: wide tables scroll inside their own box
    assert page_width(page) <= PHONE["width"]
    assert page.locator("#running-jobs").is_visible()
    shot(page, "ops-390")

    other = new_page()
    log_in(other, live_server.url, "alice")  # owns the jobs, but is not staff
    answer = other.goto(f"{live_server.url}/ops/")
    assert answer.status == 404
    assert not any(word in other.content() for word in SECRET_WORDS)
    shot(other, "ops-not-staff")
