"""The anonymous cache (puzzlehub/web/anonymous_cache.py): anonymous reads are answered from it; a
private repository never is, to anyone; a visibility change, a rename, a new revision and a
deletion are seen at once by anonymous readers; anyone logged in or with a token gets fresh answers."""

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

PAGE, API = "/alice/rings/", "/api/repos/alice/rings/"


@pytest.fixture(autouse=True)
def cache_on(settings):
    settings.ANONYMOUS_CACHE_SECONDS = 60


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what the code under test defers to its commit (the generation's change), as a real
    commit would."""
    def run(change):
        with django_capture_on_commit_callbacks(execute=True):
            return change()
    return run


def anonymous(path, **headers):
    return Client().get(path, **headers)


@pytest.mark.parametrize("path", [PAGE, API, "/", "/alice/", "/api/repos/", "/api/repos/alice/rings/revisions/"])
def test_an_anonymous_read_is_rendered_once_then_served_from_the_cache(alice, make_repo, path):
    make_repo(alice, "rings")
    first, second = anonymous(path), anonymous(path)
    assert (first.status_code, first["X-Cache"]) == (200, "miss")
    assert (second.status_code, second["X-Cache"]) == (200, "hit")
    assert second.content == first.content and second["Content-Type"] == first["Content-Type"]
    assert "Content-Security-Policy" in second and "X-Request-ID" in second  # what outer middleware adds


def test_the_api_and_the_page_of_one_path_are_told_apart_by_accept(alice, make_repo):
    make_repo(alice, "rings")
    as_json = anonymous(API, HTTP_ACCEPT="application/json")
    as_html = anonymous(API, HTTP_ACCEPT="text/html")
    assert as_json["Content-Type"].startswith("application/json") and as_html["Content-Type"].startswith("text/html")


def test_a_private_repository_is_never_stored_nor_served_to_anyone_else(alice, bob, make_repo, client_for, logged_in):
    make_repo(alice, "rings", visibility="private")
    for _ in range(2):
        assert anonymous(PAGE).status_code == 404 and anonymous(API).status_code == 404
    owner_page = logged_in(alice).get(PAGE)
    assert owner_page.status_code == 200 and "X-Cache" not in owner_page
    assert client_for(alice).get(API).status_code == 200
    assert anonymous(PAGE).status_code == 404 and anonymous(API).status_code == 404
    assert "alice/rings" not in anonymous("/api/repos/").content.decode()
    assert client_for(bob).get(API).status_code == 404


@pytest.mark.parametrize("change, then", [
    (lambda c: c.patch(API, {"visibility": "private"}, format="json"), 404),
    (lambda c: c.delete(API), 404),
    (lambda c: c.patch(API, {"name": "renamed"}, format="json"), 404),
])
def test_a_change_that_hides_a_repository_is_seen_at_once(alice, make_repo, client_for, committed, change, then):
    make_repo(alice, "rings")
    for path in (PAGE, API, "/api/repos/"):
        anonymous(path), anonymous(path)
    assert anonymous(PAGE)["X-Cache"] == "hit"
    assert committed(lambda: change(client_for(alice))).status_code in (200, 204)
    assert anonymous(PAGE).status_code == then and anonymous(API).status_code == then
    assert "alice/rings" not in anonymous("/api/repos/").content.decode()


def test_a_new_revision_is_seen_at_once(alice, make_repo, client_for, committed, two_rings):
    make_repo(alice, "rings")
    anonymous(API), anonymous(API)
    committed(lambda: client_for(alice).post(API + "revisions/", {"definition": two_rings.replace("WWWWRR", "WWWRRR")},
                                             format="json"))
    assert anonymous(API).json()["head"]["number"] == 2


def test_readers_with_a_session_or_a_token_get_fresh_answers(alice, bob, make_repo, client_for, logged_in):
    make_repo(alice, "rings")
    anonymous(PAGE), anonymous(API)
    assert "X-Cache" not in logged_in(bob).get(PAGE)
    assert "X-Cache" not in client_for(bob).get(API)
    assert "X-Cache" not in Client(HTTP_COOKIE="sessionid=whatever").get(PAGE)
    assert anonymous(PAGE, HTTP_COOKIE="csrftoken=abc")["X-Cache"] == "hit"  # a cookie anyone may have


def test_off_when_its_seconds_are_zero(alice, make_repo, settings):
    settings.ANONYMOUS_CACHE_SECONDS = 0
    make_repo(alice, "rings")
    assert "X-Cache" not in anonymous(PAGE) and "X-Cache" not in anonymous(PAGE)


def redis_away():
    """The shared cache on a port nobody listens on: Redis restarting, as bench_faults kills it."""
    return override_settings(CACHES={"default": {"BACKEND": "puzzlehub.rediscache.RedisCache",
                                                 "LOCATION": "redis://127.0.0.1:1/0"}})


def test_with_redis_away_anonymous_reads_are_answered_fresh_and_a_write_is_a_503(alice, make_repo, client_for):
    make_repo(alice, "rings")
    owner = client_for(alice)
    owner.raise_request_exception = False
    with redis_away():
        for path in (PAGE, API):
            answer = anonymous(path)
            assert answer.status_code == 200 and "X-Cache" not in answer
        # the write throttle counts in Redis: the write is refused as with the database away, and not stored
        refused = owner.patch(API, {"visibility": "private"}, format="json")
        assert refused.status_code == 503 and refused["Retry-After"] == "5" and "Redis" in refused.json()["detail"]
        assert anonymous(PAGE).status_code == 200


def test_a_change_committed_while_redis_is_away_is_kept_and_seen(alice, make_repo, committed):
    """The new generation is set after the commit: Redis away then must not turn the saved change
    into an error."""
    from puzzlehub.repos.models import Repository

    make_repo(alice, "rings")
    anonymous(PAGE), anonymous(PAGE)
    with redis_away():
        repo = Repository.objects.get(name="rings")
        repo.visibility = "private"
        committed(repo.save)
        assert Repository.objects.get(name="rings").visibility == "private"
        assert anonymous(PAGE).status_code == 404 and anonymous(API).status_code == 404
