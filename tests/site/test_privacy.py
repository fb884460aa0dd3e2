"""What a private repository holds stays private: its algorithms and comments (before and after
it is deleted), whether a sequence is already known, the name of a fork's parent; and site routes
never give way to, or are shadowed by, a user's pages. API and page forms both."""

import pytest
from django.urls import resolve
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlehub.accounts.services import validate_username
from puzzlehub.algorithms.services import record_discovered_algorithm
from puzzlehub.repos.models import Revision

pytestmark = pytest.mark.django_db


def submit(client, repo, moves):
    return client.post(f"/api/repos/{repo}/algorithms/", {"moves": moves}, format="json")


def test_a_deleted_private_repositorys_algorithms_and_comments_are_never_shown(alice, bob, make_repo, client_for,
                                                                                logged_in):
    make_repo(alice, "secret", visibility="private")
    hidden = submit(client_for(alice), "alice/secret", "A B").json()
    comment = client_for(alice).post(f"/api/algorithms/{hidden['id']}/comments/", {"body": "my secret note"},
                                     format="json").json()
    make_repo(bob, "rings")  # the same puzzle, public
    for moment in ("before", "after"):
        assert client_for(bob).get(f"/api/algorithms/{hidden['id']}/").status_code == 404, moment
        assert client_for(bob).get(f"/api/comments/{comment['id']}/").status_code == 404, moment
        assert client_for(bob).get("/api/repos/bob/rings/algorithms/").json()["results"] == [], moment
        page = logged_in(bob).get("/bob/rings/").content.decode()
        assert f"/algorithms/{hidden['id']}/" not in page and "my secret note" not in page, moment
        assert logged_in(bob).get(f"/algorithms/{hidden['id']}/").status_code == 404, moment
        client_for(alice).delete("/api/repos/alice/secret/")
    assert client_for(alice).get(f"/api/algorithms/{hidden['id']}/").status_code == 404  # gone with it


def test_deleting_a_private_repository_through_its_page_takes_its_algorithms(alice, bob, make_repo, client_for,
                                                                             logged_in):
    make_repo(alice, "secret", visibility="private")
    hidden = submit(client_for(alice), "alice/secret", "A B").json()
    assert logged_in(alice).post("/alice/secret/delete/", {"confirm": "secret"}).status_code == 302
    make_repo(bob, "rings")
    assert client_for(bob).get(f"/api/algorithms/{hidden['id']}/").status_code == 404
    assert logged_in(bob).get(f"/algorithms/{hidden['id']}/").status_code == 404


def test_a_repository_made_private_hides_its_algorithms_at_once(alice, bob, make_repo, client_for):
    make_repo(alice, "rings")
    algorithm = submit(client_for(alice), "alice/rings", "A B").json()
    make_repo(bob, "rings")
    assert [a["id"] for a in client_for(bob).get("/api/repos/bob/rings/algorithms/").json()["results"]] == [algorithm["id"]]
    client_for(alice).patch("/api/repos/alice/rings/", {"visibility": "private"}, format="json")
    assert client_for(bob).get("/api/repos/bob/rings/algorithms/").json()["results"] == []
    assert client_for(bob).get(f"/api/algorithms/{algorithm['id']}/").status_code == 404


def test_what_is_already_known_is_decided_among_what_the_asker_may_see(alice, bob, make_user, make_repo, client_for,
                                                                       logged_in):
    make_repo(alice, "secret", visibility="private")
    assert submit(client_for(alice), "alice/secret", "A B").status_code == 201
    make_repo(bob, "rings")
    published = submit(client_for(bob), "bob/rings", "A B")  # alice's private copy does not block it
    assert published.status_code == 201, published.content
    # the page form too: carol's repository of the same puzzle takes the sequence only alice knows
    carol = make_user("carol")
    make_repo(carol, "rings")
    alice_only = submit(client_for(alice), "alice/secret", "B A").json()
    answer = logged_in(carol).post("/carol/rings/algorithms/", {"moves": "B A"})
    assert answer.status_code == 302 and answer["Location"] != f"/algorithms/{alice_only['id']}/"
    # what is public is known to everyone: the same sequence again is refused, naming the field
    again = submit(client_for(carol), "carol/rings", "A B")
    assert again.status_code == 400 and "already" in again.json()["moves"][0]
    # discovery: a sequence known only privately is new to a public repository's readers
    alice_private = submit(client_for(alice), "alice/secret", "A B'").json()
    revision = Revision.objects.get(repository__owner=bob, repository__name="rings")
    found = record_discovered_algorithm(revision=revision, moves=["A", "B'"], effect=None)
    assert found.id != alice_private["id"] and found.repository.full_name == "bob/rings"
    listed = [a["moves"] for a in client_for(None).get("/api/repos/bob/rings/algorithms/").json()["results"]]
    assert sorted(listed) == ["A B", "A B'", "B A"]


def test_a_fork_of_a_parent_made_private_shows_only_that_it_cannot_be_seen(alice, bob, make_repo, client_for, logged_in):
    make_repo(alice, "rings")
    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    assert client_for(bob).get("/api/repos/bob/rings/").json()["forked_from"]["full_name"] == "alice/rings"
    client_for(alice).patch("/api/repos/alice/rings/", {"visibility": "private", "name": "renamed-secret"},
                            format="json")
    hidden = {"visible": False, "full_name": None, "revision": None, "url": None}
    for reader in (bob, None):
        assert client_for(reader).get("/api/repos/bob/rings/").json()["forked_from"] == hidden
        listed = client_for(reader).get("/api/repos/?owner=bob").json()["results"]
        assert [r["forked_from"] for r in listed] == [hidden]
    page = logged_in(bob).get("/bob/rings/").content.decode()
    assert "renamed-secret" not in page and "alice/rings" not in page
    assert "a repository you cannot see" in page
    # its owner still sees where the fork came from
    assert client_for(alice).get("/api/repos/bob/rings/").json()["forked_from"]["full_name"] == "alice/renamed-secret"
    client_for(alice).delete("/api/repos/alice/renamed-secret/")  # deleted while private: its name stays unsaid
    assert client_for(bob).get("/api/repos/bob/rings/").json()["forked_from"] == hidden
    assert "alice/rings" not in logged_in(bob).get("/bob/rings/").content.decode()


SITE_ROUTES = ["jobs", "api", "new", "settings", "login", "logout", "signup", "static", "media", "admin",
               "healthz", "algorithms", "comments", "Jobs", "API"]


@pytest.mark.parametrize("name", SITE_ROUTES)
def test_usernames_of_site_routes_are_reserved(name, client_for, client):
    response = client_for(None).post("/api/users/", {"username": name, "password": "a long passphrase 1"},
                                     format="json")
    assert response.status_code == 400 and "reserved" in response.json()["username"][0]
    page = client.post("/signup/", {"username": name, "password": "a long passphrase 1"})
    assert page.status_code == 400 and "reserved" in page.content.decode()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,12}", fullmatch=True), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,8}", fullmatch=True))
def test_any_username_allowed_owns_its_pages(username, repo_name):
    """No site page shadows a user's page or repository: any name sign-up accepts resolves to them."""
    try:
        validate_username(username)
    except Exception:  # refused (reserved): nothing to own
        return
    assert resolve(f"/{username}/").url_name == "user"
    assert resolve(f"/{username}/{repo_name}/").url_name == "repository"
    assert resolve(f"/{username}/{repo_name}/revisions/").url_name == "revisions"


def test_page_forms_with_errors_answer_400(alice, client, logged_in, make_repo):
    assert client.post("/login/", {"username": "alice", "password": "wrong"}).status_code == 400
    assert client.post("/signup/", {"username": "", "password": "x"}).status_code == 400
    page = logged_in(alice)
    answer = page.post("/new/", {"name": "bad", "visibility": "public", "definition": "moves: [[["})
    assert answer.status_code == 400 and "definition" in answer.content.decode()
    make_repo(alice, "rings")
    assert page.post("/alice/rings/edit/", {"save_revision": "1", "definition": "nope"}).status_code == 400
    assert page.post("/alice/rings/edit/", {"save_settings": "1", "visibility": "secret"}).status_code == 400
    assert page.get("/alice/rings/edit/").status_code == 200


def test_a_fork_count_counts_only_public_forks(alice, bob, make_repo, client_for):
    make_repo(alice, "rings")

    def shown():
        return client_for(None).get("/api/repos/alice/rings/").json()["forks_count"]

    client_for(bob).post("/api/repos/alice/rings/fork/", {"name": "mine"}, format="json")
    assert shown() == 1
    client_for(bob).patch("/api/repos/bob/mine/", {"visibility": "private"}, format="json")
    assert shown() == 0  # a private fork is not even a number to others
    client_for(bob).post("/api/repos/alice/rings/fork/", {"name": "also-mine"}, format="json")
    client_for(bob).patch("/api/repos/bob/also-mine/", {"visibility": "private"}, format="json")
    client_for(bob).patch("/api/repos/bob/mine/", {"visibility": "public"}, format="json")
    assert shown() == 1
    client_for(bob).delete("/api/repos/bob/also-mine/")
    assert shown() == 1
    client_for(bob).delete("/api/repos/bob/mine/")
    assert shown() == 0
