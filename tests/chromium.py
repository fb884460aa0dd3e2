"""Page tests' Chromium: Debian's /usr/bin/chromium driven by Playwright, a fresh context per page,
and screenshots in /tmp/shots/ (looked at by hand). Test modules of any folder import the fixtures
from here (tests/ is on the path through tests/conftest.py)."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path("/tmp/shots")

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still
# ordinary blocking calls, which Django refuses inside a loop unless told so.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    contexts = []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.dialogs = dialogs  # any alert() would land here: hostile markup must never run
        return page

    yield make
    for context in contexts:
        context.close()


PHONE = {"width": 390, "height": 844}  # the narrow screen every page is also looked at


def page_width(page) -> int:
    """The width of the page's content: no more than the viewport's when nothing scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def log_in(page, base, user):
    """The page's browser carries a session of `user` (no log-in form to fill)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                               "url": base}])
