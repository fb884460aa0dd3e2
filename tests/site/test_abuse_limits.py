"""Abuse limits on every door that writes (puzzlehub.limits): wrong passwords per username and per
address (page form and token API together), sign-ups per address, comments per user, page-form
writes per user; each refusal is a 429 with Retry-After, and nothing is stored past the limit."""

import pytest
from django.test import Client

from puzzlehub.algorithms.models import Comment

pytestmark = pytest.mark.django_db


def test_wrong_passwords_are_stopped_on_the_page_and_the_api_together(alice, settings):
    settings.PUZZLEHUB_LIMITS = {**settings.PUZZLEHUB_LIMITS, "login": "10/15m"}
    page, api = Client(), Client()
    codes = [page.post("/login/", {"username": "alice", "password": f"guess{i}"}).status_code for i in range(6)]
    codes += [api.post("/api/token/", {"username": "alice", "password": f"guess{i}"},
                       content_type="application/json").status_code for i in range(4)]
    assert codes == [400] * 6 + [400] * 4
    refused = page.post("/login/", {"username": "alice", "password": "correct horse battery staple"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0  # even the right one, for now
    assert "wrong passwords" in refused.content.decode()
    token = api.post("/api/token/", {"username": "alice", "password": "correct horse battery staple"},
                     content_type="application/json")
    assert token.status_code == 429 and token.json()["retry_after"] > 0
    # another username from another address is not held up by alice's
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/login/", {"username": "bob", "password": "nope"}).status_code == 400


def test_sign_ups_per_address(settings):
    settings.PUZZLEHUB_LIMITS = {**settings.PUZZLEHUB_LIMITS, "signup": "3/h"}
    client = Client()
    codes = []
    for i in range(5):
        response = client.post("/signup/", {"username": f"newcomer{i}", "email": f"n{i}@example.org",
                                            "password": "a long enough passphrase"})
        codes.append(response.status_code)
        client.logout()
    assert codes[:3] == [302, 302, 302] and codes[3:] == [429, 429]
    api = Client().post("/api/users/", {"username": "viaapi", "email": "v@example.org", "password": "a long enough passphrase"},
                        content_type="application/json")
    assert api.status_code == 429 and "Retry-After" in api


def test_comments_per_user_on_the_page_and_the_api(alice, make_repo, client_for, logged_in, settings):
    settings.PUZZLEHUB_LIMITS = {**settings.PUZZLEHUB_LIMITS, "comment": "4/m"}
    make_repo(alice)
    algorithm = client_for(alice).post("/api/repos/alice/rings/algorithms/", {"moves": "A B"}, format="json").json()
    page = logged_in(alice)
    codes = [page.post(f"/algorithms/{algorithm['id']}/comments/", {"body": f"note {i}"}).status_code for i in range(3)]
    codes.append(client_for(alice).post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": "api"}, format="json").status_code)
    refused_api = client_for(alice).post(f"/api/algorithms/{algorithm['id']}/comments/", {"body": "one more"}, format="json")
    refused_page = page.post(f"/algorithms/{algorithm['id']}/comments/", {"body": "and more"})
    assert codes == [302, 302, 302, 201]
    assert refused_api.status_code == 429 and refused_page.status_code == 429
    assert Comment.objects.count() == 4  # nothing past the limit was stored


def test_page_form_writes_per_user(alice, bob, make_repo, logged_in, settings):
    settings.PUZZLEHUB_LIMITS = {**settings.PUZZLEHUB_LIMITS, "page_write": "3/m"}
    make_repo(alice)
    page = logged_in(bob)
    codes = [page.post("/alice/rings/star/").status_code for _ in range(4)]
    assert codes[:3] != [429] * 3 and codes[3] == 429
