import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_sign_up_then_token_then_authenticated_write(two_rings):
    client = APIClient()
    response = client.post("/api/users/", {"username": "carol", "email": "c@example.org",
                                           "password": "a long enough passphrase"}, format="json")
    assert response.status_code == 201
    assert response.json()["username"] == "carol"
    assert "password" not in response.json()

    token = client.post("/api/token/", {"username": "carol", "password": "a long enough passphrase"}, format="json")
    assert token.status_code == 200
    key = token.json()["token"]

    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    created = client.post("/api/repos/", {"name": "rings", "definition": two_rings}, format="json")
    assert created.status_code == 201
    assert created.json()["owner"] == "carol"


def test_token_with_wrong_password_is_refused(alice):
    response = APIClient().post("/api/token/", {"username": "alice", "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert "token" not in response.json()


@pytest.mark.parametrize("username, field", [
    ("", "username"), ("has space", "username"), ("api", "username"), ("x" * 40, "username"),
])
def test_sign_up_errors_name_the_field(username, field):
    response = APIClient().post("/api/users/", {"username": username, "password": "a long enough passphrase"},
                                format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_sign_up_refuses_weak_password_and_taken_name(alice):
    weak = APIClient().post("/api/users/", {"username": "dave", "password": "123"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()
    taken = APIClient().post("/api/users/", {"username": "ALICE", "password": "a long enough passphrase"},
                             format="json")
    assert taken.status_code == 400 and "username" in taken.json()


def test_a_bad_token_is_401(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.get("/api/repos/").status_code == 401


def test_user_profile_is_public(alice):
    response = APIClient().get("/api/users/alice/")
    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert APIClient().get("/api/users/nobody-here/").status_code == 404


def test_writes_are_throttled_with_retry_after(alice, client_for, settings):
    settings.PUZZLEHUB_WRITE_RATE = "3/min"
    client = client_for(alice)
    codes = [client.post("/api/repos/", {"name": f"r{i}", "definition": "not: [a puzzle"}, format="json").status_code
             for i in range(4)]
    assert codes == [400, 400, 400, 429]
    refused = client.post("/api/repos/", {"name": "r9", "definition": "x"}, format="json")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    # reads are never throttled
    assert client.get("/api/repos/").status_code == 200
