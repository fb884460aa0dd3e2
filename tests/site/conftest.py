"""Fixtures for the site's tests: users with API tokens and small puzzle definitions written here."""

import itertools

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from puzzlehub.accounts import services as accounts

# Two rings of four stickers sharing stickers 2 and 3: small enough to reason about by hand.
TWO_RINGS = """\
format: puzzlehub/1
name: two-rings
colors:
  W: {name: white, hex: "#f4f4f4"}
  R: {name: red, hex: "#d01010"}
moves:
  - name: A
    cycles: [[0, 1, 2, 3]]
  - name: B
    cycles: [[2, 3, 4, 5]]
extenders:
  - {name: "A'", function: REVERSE, params: [A]}
  - {name: "B'", function: REVERSE, params: [B]}
goal: WWWWRR
layout:
  shape: circle
  cells: [[0, 0], [1, 0], [1, 1], [0, 1], [2, 1], [2, 0]]
"""

# The same puzzle written differently: cycles rotated, the inverses spelled out as moves.
TWO_RINGS_REWRITTEN = """\
format: puzzlehub/1
name: two-rings-again
moves:
  - {name: A, cycles: [[2, 3, 0, 1]]}
  - {name: B, value: [4, 5, 2, 3, 4]}
  - {name: "A'", cycles: [[0, 3, 2, 1]]}
  - {name: "B'", cycles: [[2, 5, 4, 3]]}
goal: WWWWRR
"""

# The seed format exactly as published (SEEDS.md section 1).
BALL_RING = """\
name: ball_ring
turnSet:
  baseTurns:
    - name: L
      value: [0, 1, 2, 3, 4, 5, 6, 14, 17, 25, 24, 23, 22, 21, 20, 19, 16, 13, 0]
    - name: R
      value: [6, 7, 8, 9, 10, 11, 12, 15, 18, 31, 30, 29, 28, 27, 26, 25, 17, 14, 6]
  extenders:
    - name: L'
      function: REVERSE
      params:
        - L
    - name: R'
      function: REVERSE
      params:
        - R
colorSetName: ball_ring
representationName: ball_ring
goal:
  finalState: [B, B, B, B, B, B, B, R, R, R, R, R, R, B, B, R, B, R, R, B, B, B, B, B, B, R, R, R, R, R, R, R]
"""

_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    cache.clear()  # throttle counts live in the cache
    yield
    cache.clear()


@pytest.fixture
def make_user(db):
    def make(username=None, password="correct horse battery staple"):
        username = username or f"user{next(_numbers)}"
        return accounts.create_user(username=username, email=f"{username}@example.org", password=password)
    return make


@pytest.fixture
def client_for():
    """An API client authenticated with the user's token, as an outside program would be."""
    def make(user=None):
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.api_token(user=user)}")
        return client
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def two_rings():
    return TWO_RINGS


@pytest.fixture
def two_rings_rewritten():
    return TWO_RINGS_REWRITTEN


@pytest.fixture
def ball_ring():
    return BALL_RING


@pytest.fixture
def make_repo(client_for, two_rings):
    """Create a repository through the API, as its owner would."""
    def make(owner, name="rings", definition=None, **fields):
        response = client_for(owner).post(
            "/api/repos/", {"name": name, "definition": definition or two_rings, **fields}, format="json"
        )
        assert response.status_code == 201, response.content
        return response.json()
    return make


@pytest.fixture
def logged_in(client):
    """Django's test client, logged in as the user (pages, as a browser would)."""
    def login(user):
        client.force_login(user)
        return client
    return login
