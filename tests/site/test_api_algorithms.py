from html.parser import HTMLParser

import pytest
from rest_framework.test import APIClient

from puzzlehub.algorithms.markdown import render
from solver import api as solver_api

pytestmark = pytest.mark.django_db


@pytest.fixture
def rings(alice, make_repo):
    return make_repo(alice, "rings")


def submit(client, moves, repo="alice/rings", **extra):
    return client.post(f"/api/repos/{repo}/algorithms/", {"moves": moves, **extra}, format="json")


def test_submitted_algorithm_is_replayed_and_stored(rings, bob, client_for):
    response = submit(client_for(bob), "A B A' B'", title="commutator")
    assert response.status_code == 201
    algorithm = response.json()
    assert algorithm["moves"] == "A B A' B'"
    assert algorithm["length"] == 4
    assert algorithm["source"] == "submitted"
    assert algorithm["author"] == "bob"
    assert algorithm["score"] == 0
    assert algorithm["repository"] == "alice/rings" and algorithm["revision"] == 1
    assert algorithm["puzzle_hash"] == rings["head"]["hash"]
    assert client_for(bob).get(f"/api/algorithms/{algorithm['id']}/").json()["moves"] == "A B A' B'"


def test_the_written_form_is_kept_beside_the_expanded_moves(rings, bob, client_for, client):
    """What is replayed, counted and unique is the expanded list; the notation is kept for display."""
    response = submit(client_for(bob), "[A,  B]")
    assert response.status_code == 201, response.content
    algorithm = response.json()
    assert algorithm["moves"] == "A B A' B'" and algorithm["length"] == 4
    assert algorithm["written"] == "[A, B]"
    page = client.get(f"/algorithms/{algorithm['id']}/").content.decode()
    assert '<h1 class="moves big">[A, B]</h1>' in page and "A B A&#x27; B&#x27;" in page
    assert "alg=%5BA%2C%20B%5D" in page  # the permalink keeps the notation
    assert "[A, B]" in client.get("/alice/rings/").content.decode()
    again = submit(client_for(bob), "(A B)(A' B')")  # the same moves written otherwise
    assert again.status_code == 400 and "already" in " ".join(again.json()["moves"])
    plain = submit(client_for(bob), "A  B").json()
    assert plain["written"] == ""  # nothing more than the moves themselves


@pytest.mark.parametrize("moves, words", [
    ("A X", ["X", "A'"]),       # an unknown move: the error lists the valid ones
    ("", []),
    ("A A'", ["nothing"]),       # it must do something
])
def test_bad_sequences_are_refused_naming_moves(rings, bob, client_for, moves, words):
    response = submit(client_for(bob), moves)
    assert response.status_code == 400
    message = " ".join(response.json()["moves"])
    for word in words:
        assert word in message


def test_duplicate_sequence_is_refused(rings, bob, client_for):
    assert submit(client_for(bob), "A B").status_code == 201
    again = submit(client_for(bob), "A  B")
    assert again.status_code == 400 and "moves" in again.json()


def test_algorithms_are_shared_by_repositories_of_the_same_puzzle(rings, bob, make_repo, client_for,
                                                                 two_rings_rewritten):
    submit(client_for(bob), "A B")
    make_repo(bob, "same-puzzle", definition=two_rings_rewritten)
    listed = client_for(bob).get("/api/repos/bob/same-puzzle/algorithms/").json()["results"]
    assert [a["moves"] for a in listed] == ["A B"]


def test_list_filters_and_ordering(rings, alice, bob, client_for):
    short = submit(client_for(bob), "A B").json()
    long = submit(client_for(bob), "A B A' B'").json()
    client_for(alice).put(f"/api/algorithms/{long['id']}/vote/", {"value": 1}, format="json")

    def moves(query):
        return [a["moves"] for a in APIClient().get("/api/repos/alice/rings/algorithms/" + query).json()["results"]]

    assert moves("") == ["A B", "A B A' B'"]  # shortest first
    assert moves("?ordering=-score") == ["A B A' B'", "A B"]
    assert moves("?max_length=2") == ["A B"]
    assert APIClient().get("/api/repos/alice/rings/algorithms/?max_length=two").status_code == 400
    assert short["id"] != long["id"]


def test_votes_one_per_user(rings, alice, bob, make_user, client_for):
    algorithm = submit(client_for(bob), "A B").json()
    url = f"/api/algorithms/{algorithm['id']}/vote/"
    assert client_for(alice).put(url, {"value": 1}, format="json").json() == {"score": 1, "vote": 1}
    assert client_for(alice).put(url, {"value": 1}, format="json").json()["score"] == 1
    assert client_for(bob).put(url, {"value": -1}, format="json").json()["score"] == 0
    assert client_for(alice).put(url, {"value": -1}, format="json").json()["score"] == -2
    assert client_for(alice).delete(url).json() == {"score": -1, "vote": 0}
    bad = client_for(alice).put(url, {"value": 5}, format="json")
    assert bad.status_code == 400 and "value" in bad.json()
    assert APIClient().put(url, {"value": 1}, format="json").status_code == 401


def test_comments_replies_edit_delete(rings, alice, bob, client_for):
    algorithm = submit(client_for(bob), "A B").json()
    url = f"/api/algorithms/{algorithm['id']}/comments/"
    first = client_for(alice).post(url, {"body": "Nice **short** one"}, format="json")
    assert first.status_code == 201
    assert "<strong>short</strong>" in first.json()["body_html"]
    reply = client_for(bob).post(url, {"body": "thanks", "parent": first.json()["id"]}, format="json")
    assert reply.status_code == 201 and reply.json()["parent"] == first.json()["id"]

    deeper = client_for(alice).post(url, {"body": "too deep", "parent": reply.json()["id"]}, format="json")
    assert deeper.status_code == 400 and "parent" in deeper.json()
    missing = client_for(alice).post(url, {"body": "x", "parent": 999999}, format="json")
    assert missing.status_code == 400 and "parent" in missing.json()
    empty = client_for(alice).post(url, {"body": "   "}, format="json")
    assert empty.status_code == 400 and "body" in empty.json()
    assert APIClient().post(url, {"body": "anon"}, format="json").status_code == 401

    listed = APIClient().get(url).json()["results"]
    assert [(c["author"], c["parent"]) for c in listed] == [("alice", None), ("bob", first.json()["id"])]

    comment_url = f"/api/comments/{first.json()['id']}/"
    assert client_for(bob).patch(comment_url, {"body": "hijacked"}, format="json").status_code == 403
    assert client_for(bob).delete(comment_url).status_code == 403
    edited = client_for(alice).patch(comment_url, {"body": "Nice one, *edited*"}, format="json")
    assert edited.status_code == 200
    assert edited.json()["edited"] is not None and "<em>edited</em>" in edited.json()["body_html"]

    assert client_for(alice).delete(comment_url).status_code == 204
    assert APIClient().get(url).json()["results"] == []  # its replies went with it
    assert APIClient().get(comment_url).status_code == 404


def test_algorithms_of_private_repositories_are_hidden(alice, bob, make_repo, client_for):
    make_repo(alice, "secret", visibility="private")
    algorithm = submit(client_for(alice), "A B", repo="alice/secret").json()
    assert client_for(alice).get(f"/api/algorithms/{algorithm['id']}/").status_code == 200
    for path in ["", "comments/"]:
        assert client_for(bob).get(f"/api/algorithms/{algorithm['id']}/{path}").status_code == 404
    assert client_for(bob).put(f"/api/algorithms/{algorithm['id']}/vote/", {"value": 1},
                               format="json").status_code == 404
    assert submit(client_for(bob), "A", repo="alice/secret").status_code == 404


class Elements(HTMLParser):
    """Every element a browser would build from the HTML, with its attributes."""

    def __init__(self, html):
        super().__init__()
        self.found = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def assert_inert(html):
    for tag, attrs in Elements(html).found:
        assert tag not in {"script", "img", "iframe", "svg", "object", "embed", "style", "form", "input"}, tag
        assert not [a for a in attrs if a.lower().startswith("on")], (tag, attrs)
        for link in ("href", "src"):
            target = (attrs.get(link) or "").strip().lower()
            assert not target.startswith(("javascript:", "data:", "vbscript:")), (tag, attrs)


@pytest.mark.parametrize("hostile", [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    '<a href="javascript:alert(1)">click</a>',
    '<a href="JaVaScRiPt:alert(1)" onclick="alert(1)">click</a>',
    '<div onclick="alert(1)" onmouseover=alert(1)>hover</div>',
    "<svg><script>alert(1)</script></svg>",
    '<iframe src="https://evil.example"></iframe>',
    "<p style='x' onload=alert(1)>styled</p>",
])
def test_comment_markdown_renders_inert(hostile):
    html = render(hostile)
    assert_inert(html)
    assert html.strip()  # shown as harmless text, not silently dropped


def test_hostile_comment_through_the_api_is_stored_inert(rings, bob, client_for):
    algorithm = submit(client_for(bob), "A B").json()
    body = '<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))'
    comment = client_for(bob).post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": body}, format="json")
    assert comment.status_code == 201
    assert comment.json()["body"] == body  # the text as written is kept
    assert_inert(comment.json()["body_html"])


def test_comment_markdown_keeps_ordinary_formatting():
    html = render("**bold** `R U R'` [docs](https://example.org)\n\n- one\n- two")
    assert "<strong>bold</strong>" in html
    assert "<code>R U R'</code>" in html or "<code>R U R&#x27;</code>" in html
    assert '<a href="https://example.org"' in html and "nofollow" in html
    assert "<li>one</li>" in html


@pytest.mark.skipif(not hasattr(solver_api, "effect"), reason="this solver has no effect analysis yet")
def test_submitted_algorithm_gets_the_solvers_effect(alice, make_repo, client_for):
    cube = solver_api.export_yaml(solver_api.load("cube3"))
    make_repo(alice, "cube", definition=cube)
    # a commutator known to cycle three corners and nothing else
    response = submit(client_for(alice), "R U R' D R U' R' D'", repo="alice/cube")
    assert response.status_code == 201
    effect = response.json()["effect"]
    assert effect["support"] == 3 and effect["order"] == 3
    assert "3-cycle" in effect["effect"]
    found = client_for(alice).get(f"/api/repos/alice/cube/algorithms/?effect={effect['effect_key']}").json()
    assert [a["moves"] for a in found["results"]] == ["R U R' D R U' R' D'"]


def test_discovered_algorithms_are_replayed_and_recorded_once(rings, client_for, alice):
    from django.core.exceptions import ValidationError

    from puzzlehub.algorithms.services import record_discovered_algorithm
    from puzzlehub.repos.models import Revision

    revision = Revision.objects.get(repository__name="rings", number=1)
    first = record_discovered_algorithm(revision=revision, moves=["A", "B"], effect=None)
    again = record_discovered_algorithm(revision=revision, moves=["A", "B"], effect=None)
    assert first.id == again.id and first.source == "discovered" and first.author is None
    listed = client_for(alice).get("/api/repos/alice/rings/algorithms/").json()["results"]
    assert [(a["moves"], a["source"], a["author"]) for a in listed] == [("A B", "discovered", None)]
    with pytest.raises(ValidationError) as refused:  # a job's result that does not replay is not stored
        record_discovered_algorithm(revision=revision, moves=["A", "Z"], effect=None)
    assert "Z" in str(refused.value)


def test_a_public_repositorys_algorithms_outlive_it_where_the_puzzle_is_visible(alice, bob, make_repo, client_for):
    make_repo(alice, "rings")
    shared = submit(client_for(alice), "B A", repo="alice/rings").json()
    client_for(alice).delete("/api/repos/alice/rings/")
    # nothing visible holds the puzzle: it is gone from view
    assert client_for(bob).get(f"/api/algorithms/{shared['id']}/").status_code == 404
    make_repo(bob, "rings")  # the same puzzle published again, publicly
    assert client_for(bob).get(f"/api/algorithms/{shared['id']}/").json()["repository"] is None
    listed = [a["moves"] for a in client_for(bob).get("/api/repos/bob/rings/algorithms/").json()["results"]]
    assert listed == ["B A"]


def test_lengths_in_the_puzzles_metrics_on_the_api_and_the_page(alice, make_repo, client_for, client):
    make_repo(alice, "cube", definition=solver_api.export_yaml(solver_api.load("cube3")))
    created = submit(client_for(alice), "R2 U R2 U'", repo="alice/cube").json()
    assert created["lengths"] == {"moves": 4, "turns": 6}  # a half turn is two quarter turns
    assert client.get(f"/api/algorithms/{created['id']}/").json()["lengths"] == {"moves": 4, "turns": 6}
    page = client.get(f"/algorithms/{created['id']}/").content.decode()
    assert "4 moves" in page and "6 turns" in page


def test_a_number_where_text_belongs_is_refused_not_made_text(rings, bob, client_for):
    client = client_for(bob)
    titled = submit(client, "A B", title=5)
    assert titled.status_code == 400 and "must be a string" in str(titled.json()["title"])
    assert submit(client, 12).status_code == 400
    algorithm = submit(client, "A B").json()
    comment = client.post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": 42}, format="json")
    assert comment.status_code == 400 and "must be a string" in str(comment.json()["body"])
    assert client.get(f"/api/algorithms/{algorithm['id']}/comments/").json()["results"] == []
    written = client.post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": "words"}, format="json").json()
    edited = client.patch(f"/api/comments/{written['id']}/", {"body": 7}, format="json")
    assert edited.status_code == 400 and "must be a string" in str(edited.json()["body"])
    assert client.get(f"/api/comments/{written['id']}/").json()["body"] == "words"


@pytest.fixture
def hidden_comment(alice, make_repo, client_for):
    """A comment on an algorithm of alice's private repository: bob may not reply to it anywhere."""
    make_repo(alice, "secret", visibility="private")
    private = submit(client_for(alice), "B A", repo="alice/secret").json()
    url = f"/api/algorithms/{private['id']}/comments/"
    return client_for(alice).post(url, {"body": "mine"}, format="json").json()["id"]


PARENT_REFUSALS = {"private": None, "huge": "99999999999999999999999", "zero": "0", "text": "abc"}


@pytest.mark.parametrize("case", sorted(PARENT_REFUSALS))
def test_a_reply_to_a_comment_that_is_not_there_is_refused_on_the_page_as_on_the_api(
        rings, bob, client_for, logged_in, hidden_comment, case):
    """The page form and the API share one check (the service's): a bad `parent` is a 400 naming it,
    shown on the page, never a top-level comment posted instead."""
    from puzzlehub.algorithms.models import Comment

    parent = PARENT_REFUSALS[case] or str(hidden_comment)
    algorithm = submit(client_for(bob), "A B").json()
    api = client_for(bob).post(f"/api/algorithms/{algorithm['id']}/comments/",
                               {"body": "hello", "parent": int(parent) if parent.isdigit() else parent}, format="json")
    assert api.status_code == 400 and "parent" in api.json(), api.content
    page = logged_in(bob).post(f"/algorithms/{algorithm['id']}/comments/", {"body": "hello", "parent": parent})
    assert page.status_code == 400, page.status_code
    assert page.context["comment_form"].errors["parent"]
    text = page.content.decode()
    assert "parent: " in text and "hello</textarea>" in text  # the error shown, what was written kept
    assert not Comment.objects.filter(algorithm_id=algorithm["id"]).exists()
    assert api.json()["parent"][0] in text or case == "text"  # the same words where both say them


def test_a_reply_on_the_page_is_posted_under_its_parent(rings, alice, bob, client_for, logged_in):
    from puzzlehub.algorithms.models import Comment

    algorithm = submit(client_for(bob), "A B").json()
    first = client_for(alice).post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": "hi"}, format="json").json()
    page = logged_in(bob).post(f"/algorithms/{algorithm['id']}/comments/", {"body": "hello", "parent": first["id"]})
    assert page.status_code == 302
    assert Comment.objects.get(body="hello").parent_id == first["id"]
