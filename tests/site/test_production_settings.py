"""Production settings: `check --deploy` is clean, a placeholder secret key is refused at start, and
the content security policy is on every page while the player, the preview and the API docs still
work under it (in Chromium, with no violation reported)."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from chromium import browser, new_page, shot  # noqa: F401  (fixtures)
from player_dom import PLAYER

from puzzlehub.repos.services import publish_catalog

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    environment.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_the_production_settings():
    done = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.parametrize("key", ["change-me", "short-but-not-a-placeholder", "a" * 60])
def test_a_placeholder_or_weak_secret_key_stops_the_site_from_starting(key):
    done = manage("check", DEBUG="0", SECRET_KEY=key)
    assert done.returncode != 0
    assert "SECRET_KEY is a placeholder or too short" in done.stderr


@pytest.mark.django_db
def test_every_page_has_the_policy_and_only_the_embed_may_be_framed(client, make_repo, alice):
    make_repo(alice)
    page = client.get("/alice/rings/")
    assert "script-src 'self'" in page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"] and page["X-Frame-Options"] == "DENY"
    embed = client.get("/alice/rings/embed?alg=A")
    assert "frame-ancestors *" in embed["Content-Security-Policy"] and "X-Frame-Options" not in embed
    assert "<script type=\"module\">" not in embed.content.decode()  # no inline script to refuse


@pytest.mark.django_db(transaction=True)
def test_player_preview_and_api_docs_work_under_the_policy(live_server, new_page, client_for, alice):  # noqa: F811
    publish_catalog(names=["cube3"])
    page = new_page()
    violations = []
    page.on("console", lambda m: violations.append((page.url, m.text[:300])) if "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/puzzlehub/cube3/play?alg=R%20U")
    page.wait_for_selector(f"{PLAYER}.player-ready g.sticker")
    page.click(f"{PLAYER} button.move[data-move=F]")
    assert page.inner_text(f"{PLAYER} .player-counter").startswith("3 / 3")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)  # Swagger UI drew the operations
    shot(page, "api-docs")
    assert violations == [], violations
