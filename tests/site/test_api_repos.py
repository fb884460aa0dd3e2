import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_create_repository_stores_revision_one_with_facts(alice, client_for, two_rings):
    client = client_for(alice)
    response = client.post("/api/repos/", {
        "name": "rings", "description": "Two rings", "topics": ["ring", "Small"], "license": "CC0-1.0",
        "definition": two_rings, "message": "first",
    }, format="json")
    assert response.status_code == 201
    repo = response.json()
    assert repo["full_name"] == "alice/rings"
    assert repo["visibility"] == "public"
    assert repo["topics"] == ["ring", "small"]
    assert repo["forked_from"] is None
    assert repo["head"]["number"] == 1
    assert repo["head"]["hash"].startswith("sha256:")
    assert repo["head"]["stickers"] == 6
    assert repo["head"]["moves"] == 4
    assert repo["url"].endswith("/api/repos/alice/rings/")

    revision = client.get("/api/repos/alice/rings/revisions/1/").json()
    assert revision["definition"] == two_rings  # exactly as submitted
    assert revision["message"] == "first"
    assert revision["author"] == "alice"


def test_invalid_definition_is_refused_with_the_solvers_message(alice, client_for, two_rings):
    broken = two_rings.replace("[[2, 3, 4, 5]]", "[[2, 3, 4, 40]]")
    response = client_for(alice).post("/api/repos/", {"name": "bad", "definition": broken}, format="json")
    assert response.status_code == 400
    message = response.json()["definition"][0]
    assert "40" in message and "B" in message  # names the place and the problem
    assert client_for(alice).get("/api/repos/alice/bad/").status_code == 404  # nothing half-written


@pytest.mark.parametrize("payload, field", [
    ({"name": "a b"}, "name"),
    ({"name": "-x"}, "name"),
    ({"visibility": "secret"}, "visibility"),
    ({"definition": ""}, "definition"),
    ({"definition": "- just\n- a list\n"}, "definition"),
    ({"topics": ["no spaces allowed"]}, "topics"),
])
def test_create_errors_name_the_field(alice, client_for, two_rings, payload, field):
    body = {"name": "ok", "definition": two_rings, **payload}
    response = client_for(alice).post("/api/repos/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_anonymous_cannot_create(two_rings):
    response = APIClient().post("/api/repos/", {"name": "x", "definition": two_rings}, format="json")
    assert response.status_code == 401


def test_names_are_unique_per_owner_case_insensitively(alice, bob, make_repo, client_for, two_rings):
    make_repo(alice, "rings")
    again = client_for(alice).post("/api/repos/", {"name": "RINGS", "definition": two_rings}, format="json")
    assert again.status_code == 400 and "name" in again.json()
    make_repo(bob, "rings")  # another owner may use the name


def test_seed_format_loads_unchanged(alice, make_repo, ball_ring):
    repo = make_repo(alice, "ball-ring", definition=ball_ring)
    assert repo["head"]["stickers"] == 32


def test_list_search_filters_and_ordering(alice, bob, make_repo, client_for):
    make_repo(alice, "rings", description="two rings", topics=["ring"])
    make_repo(alice, "secret", visibility="private")
    make_repo(bob, "other", description="something else")
    client_for(bob).put("/api/repos/alice/rings/star/")

    anon = APIClient()
    names = [r["full_name"] for r in anon.get("/api/repos/").json()["results"]]
    assert set(names) == {"alice/rings", "bob/other"}  # private repositories are not listed
    assert names[0] == "alice/rings"  # most stars first by default

    own = [r["full_name"] for r in client_for(alice).get("/api/repos/").json()["results"]]
    assert "alice/secret" in own
    assert "alice/secret" not in [r["full_name"] for r in client_for(bob).get("/api/repos/").json()["results"]]

    def found(query):
        return [r["full_name"] for r in anon.get("/api/repos/" + query).json()["results"]]

    assert found("?q=rings") == ["alice/rings"]
    assert found("?owner=bob") == ["bob/other"]
    assert found("?topic=ring") == ["alice/rings"]
    assert found("?q=nothing-matches-this") == []
    assert found("?ordering=-updated")[0] == "bob/other"
    page = anon.get("/api/repos/").json()
    assert set(page) >= {"count", "next", "previous", "results"}


def test_private_repository_is_404_to_everyone_but_its_owner(alice, bob, make_repo, client_for):
    make_repo(alice, "secret", visibility="private")
    for path in ["", "revisions/", "revisions/1/", "forks/", "algorithms/"]:
        url = f"/api/repos/alice/secret/{path}"
        assert client_for(alice).get(url).status_code == 200, url
        assert client_for(bob).get(url).status_code == 404, url
        assert APIClient().get(url).status_code == 404, url
    assert client_for(bob).post("/api/repos/alice/secret/fork/", {}, format="json").status_code == 404
    assert client_for(bob).put("/api/repos/alice/secret/star/").status_code == 404
    assert client_for(bob).delete("/api/repos/alice/secret/").status_code == 404


def test_only_the_owner_changes_or_deletes(alice, bob, make_repo, client_for):
    make_repo(alice, "rings")
    assert client_for(bob).patch("/api/repos/alice/rings/", {"description": "mine"}, format="json").status_code == 403
    assert client_for(bob).delete("/api/repos/alice/rings/").status_code == 403
    assert APIClient().patch("/api/repos/alice/rings/", {"description": "x"}, format="json").status_code == 401

    changed = client_for(alice).patch("/api/repos/alice/rings/",
                                      {"description": "now described", "visibility": "private"}, format="json")
    assert changed.status_code == 200
    assert changed.json()["description"] == "now described"
    assert APIClient().get("/api/repos/alice/rings/").status_code == 404  # private now

    assert client_for(alice).delete("/api/repos/alice/rings/").status_code == 204
    assert client_for(alice).get("/api/repos/alice/rings/").status_code == 404


@pytest.mark.parametrize("change, field, words", [
    ({"definition": "x"}, "definition", "new revision"),
    ({"owner": "bob"}, "owner", "read-only"),
    ({"stars_count": 100}, "stars_count", "read-only"),
    ({"head": {"number": 7}}, "head", "read-only"),
    ({"colour": "red"}, "colour", "unknown field"),
])
def test_a_change_to_a_field_that_patch_cannot_change_is_refused_naming_it(alice, bob, make_repo, client_for,
                                                                           change, field, words):
    make_repo(alice, "rings", description="as it was")
    response = client_for(alice).patch("/api/repos/alice/rings/", {"description": "changed", **change}, format="json")
    assert response.status_code == 400, response.content
    assert words in str(response.json()[field]) and set(response.json()) == {field}
    shown = client_for(alice).get("/api/repos/alice/rings/").json()
    assert shown["description"] == "as it was" and shown["owner"] == "alice"  # nothing half-written
    assert shown["stars_count"] == 0 and shown["head"]["number"] == 1


def test_revisions_are_numbered_and_validated(alice, bob, make_repo, client_for, two_rings):
    make_repo(alice, "rings")
    client = client_for(alice)
    grown = two_rings.replace("goal: WWWWRR", "goal: WWWRRR")
    second = client.post("/api/repos/alice/rings/revisions/", {"definition": grown, "message": "recolour"},
                         format="json")
    assert second.status_code == 201
    assert second.json()["number"] == 2
    assert client.get("/api/repos/alice/rings/").json()["head"]["number"] == 2

    same = client.post("/api/repos/alice/rings/revisions/", {"definition": grown}, format="json")
    assert same.status_code == 400 and "definition" in same.json()
    bad = client.post("/api/repos/alice/rings/revisions/", {"definition": "goal: 12"}, format="json")
    assert bad.status_code == 400 and "definition" in bad.json()

    listed = client.get("/api/repos/alice/rings/revisions/").json()["results"]
    assert [r["number"] for r in listed] == [2, 1]
    assert "definition" not in listed[0]  # the list is light; the detail has the text

    assert client_for(bob).post("/api/repos/alice/rings/revisions/", {"definition": two_rings},
                                format="json").status_code == 403
    assert client.get("/api/repos/alice/rings/revisions/9/").status_code == 404


def test_fork_copies_history_and_fork_of_fork_works(alice, bob, make_user, make_repo, client_for, two_rings):
    make_repo(alice, "rings")
    client_for(alice).post("/api/repos/alice/rings/revisions/",
                           {"definition": two_rings.replace("WWWWRR", "WWWRRR"), "message": "second"}, format="json")
    fork = client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    assert fork.status_code == 201
    assert fork.json()["full_name"] == "bob/rings"
    assert fork.json()["forked_from"]["full_name"] == "alice/rings"
    assert fork.json()["forked_from"]["revision"] == 2
    history = client_for(bob).get("/api/repos/bob/rings/revisions/").json()["results"]
    assert [(r["number"], r["message"], r["author"]) for r in history] == [(2, "second", "alice"),
                                                                          (1, "Create the puzzle", "alice")]

    carol = make_user("carol")
    grandchild = client_for(carol).post("/api/repos/bob/rings/fork/", {"name": "my-rings"}, format="json")
    assert grandchild.status_code == 201
    assert grandchild.json()["forked_from"]["full_name"] == "bob/rings"
    assert client_for(carol).get("/api/repos/carol/my-rings/").json()["head"]["number"] == 2

    assert client_for(alice).get("/api/repos/alice/rings/").json()["forks_count"] == 1
    forks = client_for(alice).get("/api/repos/alice/rings/forks/").json()["results"]
    assert [f["full_name"] for f in forks] == ["bob/rings"]

    # forking again under the same name is an error naming the field
    again = client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    assert again.status_code == 400 and "name" in again.json()
    assert APIClient().post("/api/repos/alice/rings/fork/", {}, format="json").status_code == 401


def test_deleting_the_parent_keeps_forks_working(alice, bob, make_user, make_repo, client_for, two_rings):
    make_repo(alice, "rings")
    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    carol = make_user("carol")
    client_for(carol).post("/api/repos/bob/rings/fork/", {}, format="json")

    assert client_for(alice).delete("/api/repos/alice/rings/").status_code == 204
    fork = client_for(bob).get("/api/repos/bob/rings/").json()
    assert fork["forked_from"] == {"visible": False, "full_name": "alice/rings", "revision": 1, "url": None}
    assert client_for(bob).get("/api/repos/bob/rings/revisions/1/").json()["definition"] == two_rings
    new = client_for(bob).post("/api/repos/bob/rings/revisions/",
                               {"definition": two_rings.replace("WWWWRR", "WWRRRR")}, format="json")
    assert new.status_code == 201 and new.json()["number"] == 2

    # deleting the middle of a chain too
    assert client_for(bob).delete("/api/repos/bob/rings/").status_code == 204
    assert client_for(carol).get("/api/repos/carol/rings/").json()["head"]["number"] == 1


def test_compare_gives_semantic_and_text_diff(alice, bob, make_repo, client_for, two_rings, two_rings_rewritten):
    make_repo(alice, "rings")
    make_repo(bob, "rings-again", definition=two_rings_rewritten)
    same = client_for(bob).get("/api/repos/alice/rings/compare/bob/rings-again/").json()
    assert same["same_puzzle"] is True  # written differently, the same puzzle
    assert same["semantic"]["moves_added"] == [] and same["semantic"]["moves_changed"] == []
    assert same["text_diff"].startswith("--- alice/rings@1")

    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    changed = two_rings.replace("[[2, 3, 4, 5]]", "[[2, 3, 5, 4]]") + "  # B changed\n"
    client_for(bob).post("/api/repos/bob/rings/revisions/", {"definition": changed}, format="json")
    diff = client_for(bob).get("/api/repos/alice/rings/compare/bob/rings/").json()
    assert diff["same_puzzle"] is False
    assert [m["name"] for m in diff["semantic"]["moves_changed"]] == ["B", "B'"]
    assert "+  # B changed" in diff["text_diff"]

    # two revisions of one repository
    own = client_for(bob).get("/api/repos/bob/rings/compare/bob/rings/?base=1&head=2").json()
    assert own["base"]["revision"] == 1 and own["head"]["revision"] == 2
    assert own["same_puzzle"] is False
    assert client_for(bob).get("/api/repos/bob/rings/compare/bob/rings/?base=x").status_code == 400
    assert client_for(bob).get("/api/repos/bob/rings/compare/bob/rings/?base=7").status_code == 404


def test_star_is_one_per_user_and_idempotent(alice, bob, make_repo, client_for):
    make_repo(alice, "rings")
    assert client_for(bob).put("/api/repos/alice/rings/star/").json() == {"starred": True, "stars_count": 1}
    assert client_for(bob).put("/api/repos/alice/rings/star/").json()["stars_count"] == 1
    assert client_for(alice).put("/api/repos/alice/rings/star/").json()["stars_count"] == 2
    assert client_for(bob).delete("/api/repos/alice/rings/star/").json() == {"starred": False, "stars_count": 1}
    assert client_for(bob).delete("/api/repos/alice/rings/star/").json()["stars_count"] == 1
    assert APIClient().put("/api/repos/alice/rings/star/").status_code == 401


@pytest.mark.parametrize("method, path, body, field", [
    ("post", "/api/repos/", {"name": 123}, "name"),
    ("post", "/api/repos/", {"name": "new", "description": 5}, "description"),
    ("post", "/api/repos/", {"name": "new", "message": 1.5}, "message"),
    ("post", "/api/repos/", {"name": "new", "topics": [7]}, "topics"),
    ("patch", "/api/repos/alice/rings/", {"name": 5}, "name"),
    ("patch", "/api/repos/alice/rings/", {"license": 0}, "license"),
    ("post", "/api/repos/alice/rings/revisions/", {"message": 2}, "message"),
    ("post", "/api/repos/alice/rings/fork/", {"name": 9}, "name"),
    ("post", "/api/users/", {"username": 12345, "password": "a long enough passphrase"}, "username"),
])
def test_a_number_where_text_belongs_is_refused_not_made_text(alice, make_repo, client_for, two_rings,
                                                              method, path, body, field):
    make_repo(alice, "rings")
    if path.endswith(("repos/", "revisions/")):  # a definition that would be accepted as a new revision
        body = {"definition": two_rings.replace("goal: WWWWRR", "goal: WWWRRR"), **body}
    response = getattr(client_for(alice), method)(path, body, format="json")
    assert response.status_code == 400, response.content
    assert "must be a string" in str(response.json()[field])
    names = [r["full_name"] for r in client_for(alice).get("/api/repos/").json()["results"]]
    assert names == ["alice/rings"]  # nothing created, nothing renamed
    assert client_for(alice).get("/api/repos/alice/rings/").json()["head"]["number"] == 1


def test_a_fork_count_is_what_its_reader_can_see(alice, bob, make_user, make_repo, client_for, logged_in):
    """Public forks for everyone, and each reader's own private forks for them, as /forks/ lists them;
    nobody else learns of a private fork, not even as a number."""
    carol = make_user("carol")
    make_repo(alice, "rings")
    client_for(bob).post("/api/repos/alice/rings/fork/", {}, format="json")
    for user, name in ((alice, "mine"), (carol, "rings")):
        client_for(user).post("/api/repos/alice/rings/fork/", {"name": name}, format="json")
        client_for(user).patch(f"/api/repos/{user.username}/{name}/", {"visibility": "private"}, format="json")
    make_repo(alice, "secret", visibility="private")
    client_for(alice).post("/api/repos/alice/secret/fork/", {"name": "secret-too"}, format="json")  # private too

    for client, seen in ((client_for(alice), 2), (client_for(bob), 1), (client_for(carol), 2), (APIClient(), 1)):
        listed = client.get("/api/repos/alice/rings/forks/").json()["results"]
        assert len(listed) == seen
        assert client.get("/api/repos/alice/rings/").json()["forks_count"] == seen
        found = {r["full_name"]: r for r in client.get("/api/repos/?owner=alice").json()["results"]}
        assert found["alice/rings"]["forks_count"] == seen
    assert client_for(alice).get("/api/repos/alice/secret/").json()["forks_count"] == 1
    page = logged_in(alice).get("/alice/rings/").content.decode()
    assert '<span class="count">2</span>' in page
