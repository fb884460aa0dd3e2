"""Generated requests against the API: nothing a client sends may cause a server error (500).

Schemathesis walks every operation in /api/schema/ with generated parameters and bodies (bounded to
a few examples each); hypothesis throws malformed definitions, move sequences and comments at the
endpoints that hand text to the solver or the markdown renderer.
"""

import json
from urllib.parse import urlencode

import pytest
import schemathesis
from hostile_definitions import hostile_text
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings, strategies as st
from schemathesis.checks import not_a_server_error

from puzzlehub.accounts import services as accounts

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())

FUZZ = settings(max_examples=8, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@pytest.fixture
def connection_kept():
    """Calling the WSGI app directly fires request_started/finished, which close the database
    connection, and with it the test's transaction; Django's own test client detaches them too."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def token(django_db_blocker, settings, connection_kept):
    settings.PUZZLEHUB_WRITE_RATE = "100000/min"  # this test is about errors, not limits
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with django_db_blocker.unblock():
        user = accounts.create_user(username="fuzzer", email="", password="a long enough passphrase")
        return accounts.api_token(user=user)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_no_operation_answers_500(case, token):
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=[not_a_server_error])


yamlish = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["name", "moves", "goal", "cycles", "value", "turnSet", "baseTurns", "finalState",
                         "extenders", "function", "params", "layout", "cells", "when", "format"]),
        children, max_size=5),
    max_leaves=25,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(definition=st.one_of(st.text(max_size=300), yamlish.map(repr)))
def test_any_definition_text_is_accepted_or_refused_by_field(definition, alice, client_for, settings):
    settings.PUZZLEHUB_WRITE_RATE = "100000/min"
    response = client_for(alice).post("/api/repos/", {"name": "fuzzed", "definition": definition}, format="json")
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        assert set(response.json()) <= {"definition", "name"}
    else:
        client_for(alice).delete("/api/repos/alice/fuzzed/")


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(moves=st.text(max_size=60), body=st.text(max_size=200))
def test_any_moves_or_comment_text_gives_no_server_error(moves, body, alice, make_repo, client_for, settings):
    settings.PUZZLEHUB_WRITE_RATE = "100000/min"
    client = client_for(alice)
    if client.get("/api/repos/alice/rings/").status_code == 404:
        make_repo(alice, "rings")
    submitted = client.post("/api/repos/alice/rings/algorithms/", {"moves": moves}, format="json")
    assert submitted.status_code in (201, 400), submitted.content
    listed = client.get("/api/repos/alice/rings/algorithms/").json()["results"]
    if listed:
        comment = client.post(f"/api/algorithms/{listed[0]['id']}/comments/", {"body": body}, format="json")
        assert comment.status_code in (201, 400), comment.content


DEFINITION_ENDPOINTS = {  # where a definition is sent, and what a refusal's errors are keyed by
    "create": ("/api/repos/", lambda text: {"name": "hostile", "definition": text}),
    "revision": ("/api/repos/alice/rings/revisions/", lambda text: {"definition": text}),
    "preview": ("/api/preview/", lambda text: {"definition": text}),
}


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(definition=hostile_text, endpoint=st.sampled_from(sorted(DEFINITION_ENDPOINTS) + ["new page", "edit page"]))
def test_a_hostile_definition_is_refused_naming_the_field_everywhere(definition, endpoint, alice, make_repo, client_for,
                                                                     logged_in, settings):
    """Through the API (create, new revision, preview) and the pages' forms (new puzzle, edit): accepted,
    or a 400 whose errors name the definition; tests/solver/test_definition_fuzz.py throws the same at
    the reader itself."""
    settings.PUZZLEHUB_WRITE_RATE = "100000/min"
    if client_for(alice).get("/api/repos/alice/rings/").status_code == 404:
        make_repo(alice, "rings")
    if endpoint.endswith("page"):
        path, form = ("/new/", {"name": "hostile", "visibility": "public"}) if endpoint == "new page" else (
            "/alice/rings/edit/", {"save_revision": "1"})
        # encoded as a browser would send it (a lone surrogate as its raw bytes: the test client's
        # own encoding refuses it before the site sees it)
        encoded = urlencode({**form, "definition": definition}, errors="surrogatepass")
        response = logged_in(alice).post(path, encoded, content_type="application/x-www-form-urlencoded")
        assert response.status_code in (302, 400), response.content[:300]
        if response.status_code == 400:
            assert response.context["form" if endpoint == "new page" else "revision_form"].errors["definition"]
    else:
        path, body = DEFINITION_ENDPOINTS[endpoint]
        # JSON text with \u escapes, valid whatever the definition holds (lone surrogates too)
        response = client_for(alice).post(path, json.dumps(body(definition)), content_type="application/json")
        assert response.status_code in (200, 201, 400), response.content[:300]
        if response.status_code == 400:
            assert set(response.json()) == {"definition"}, response.json()
    client_for(alice).delete("/api/repos/alice/hostile/")
